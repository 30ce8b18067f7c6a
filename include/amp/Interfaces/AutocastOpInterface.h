//===- AutocastOpInterface.h - how an op runs in low precision --*- C++ -*-===//
//
// The categories of the autocast policy, the AutocastOpInterface, and the
// queries autocast makes of any op (with the interface's defaults for ops
// that do not implement it).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_AUTOCASTOPINTERFACE_H
#define AMP_INTERFACES_AUTOCASTOPINTERFACE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OperationSupport.h"

#include <optional>

namespace mlir::amp {

/// What the policy says about an op.
enum class OpCategory {
  /// Runs low with f32 accumulation (contractions, convolutions).
  Allow,
  /// Always f32; makes the infer ops downstream of it f32 too.
  Deny,
  /// Runs low between low ops or when all its float inputs are low.
  Infer,
  /// Moves data; takes the precision of its neighbours.
  Clear,
  /// Not in the policy: kept f32, with a remark.
  Unknown,
  /// Control flow, calls, terminators, amp markers: kept as written.
  Boundary,
  /// A float-to-float conversion the input already has.
  Cast,
  /// A constant or empty tensor: recreated in whatever type a user needs.
  Materializable,
  /// Touches no f32 value (integer or f64 only): never changed.
  NoFloat,
};

StringRef stringifyOpCategory(OpCategory category);

} // namespace mlir::amp

#include "amp/Interfaces/AutocastOpInterface.h.inc"

namespace mlir::amp {

/// The model of an op whose precision follows from what it is: a cast, a
/// boundary (kept as written) or a materializable constant.
template <typename OpTy, OpCategory category>
struct StructuralAutocastModel
    : public AutocastOpInterface::ExternalModel<
          StructuralAutocastModel<OpTy, category>, OpTy> {
  static std::optional<OpCategory> getStructuralCategory() { return category; }
};

/// The category `op` has by what it is (Boundary, Cast or Materializable),
/// from upstream traits and interfaces and the AutocastOpInterface.
std::optional<OpCategory> getStructuralCategory(Operation *op);

/// The same for an op name: such ops cannot be moved by a policy.
std::optional<OpCategory> getStructuralCategory(RegisteredOperationName name);

/// The category of `op` when no policy list names it, if its interface
/// gives one.
std::optional<OpCategory> getDefaultCategory(Operation *op);

/// True when `op`'s regions are a scalar payload, not more graph.
bool hasPayloadRegions(Operation *op);

/// True when autocast can run `op` in low precision.
bool canRunLow(Operation *op);

/// True when operand `index` of `op` runs in low precision when `op` does.
bool isLowOperand(Operation *op, unsigned index);

/// True when result `index` of `op` is an f32 accumulation that stays f32
/// when the op runs low.
bool isAccumulatorResult(Operation *op, unsigned index);

/// Lets `op` update what depends on its new low types (regions,
/// attributes); nothing for ops without the interface.
void retypeForLowPrecision(Operation *op, FloatType lowType);

} // namespace mlir::amp

#endif // AMP_INTERFACES_AUTOCASTOPINTERFACE_H
