//===- PrecisionPolicy.h - which ops may run in low precision ---*- C++ -*-===//
//
// The autocast policy: every op name is in one of four categories (allow,
// deny, infer, clear; see docs/autocast.md). The lists are data: the default
// follows PyTorch's CUDA autocast lists and TF's AutoMixedPrecision
// categories, and pass options or a JSON file move ops between them.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONPOLICY_H
#define AMP_ANALYSIS_PRECISIONPOLICY_H

#include "amp/Interfaces/AutocastOpInterface.h"
#include "amp/Support/EnumChoices.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringMap.h"

#include <string>

namespace mlir::amp {

/// The low-precision float type autocast runs ops in.
enum class LowPrecision { F16, BF16 };

inline constexpr llvm::cl::OptionEnumValue kLowPrecisionTable[] = {
    clEnumValN(LowPrecision::F16, "f16", "IEEE half precision"),
    clEnumValN(LowPrecision::BF16, "bf16", "bfloat16 (f32's exponent range)"),
};
inline constexpr EnumChoices<LowPrecision> kLowPrecisions{kLowPrecisionTable};
inline constexpr LowPrecision kDefaultLowPrecision = LowPrecision::F16;

/// The MLIR type of `precision`.
FloatType getLowPrecisionType(LowPrecision precision, MLIRContext *context);

/// A set of op-name -> category assignments. Ops with regions whose payload
/// decides their precision (linalg.generic, linalg.map, linalg.reduce) are
/// classified from the payload unless the policy names them.
class PrecisionPolicy {
public:
  /// The default policy (docs/autocast.md).
  static PrecisionPolicy getDefault();

  /// Puts `opName` in `category` (one of Allow, Deny, Infer, Clear, or
  /// Unknown to remove it from the lists).
  void set(StringRef opName, OpCategory category);

  /// The category the lists give `opName`, if any.
  std::optional<OpCategory> lookup(StringRef opName) const;

  /// The category of `op` in a graph: the structural kinds (Boundary, Cast,
  /// Materializable, NoFloat) first, then the lists, then the payload of
  /// region ops, then the op's AutocastOpInterface default. NoFloat means no
  /// f32 value, or with `anyFloatWidth` no float value at all (to classify an
  /// already mixed-precision graph).
  OpCategory classify(Operation *op, bool anyFloatWidth = false) const;

  /// Applies a JSON policy file. Errors name the file and, for syntax
  /// errors, the line and column; they are reported through `emitError`.
  /// `context` is used to check that every named op exists.
  /// A `precision` key is returned in `precision`.
  LogicalResult loadFile(StringRef path, MLIRContext *context,
                         function_ref<InFlightDiagnostic()> emitError,
                         std::optional<LowPrecision> *precision = nullptr);

  /// Moves each op of `opNames` to `category`, checking that it exists.
  LogicalResult applyList(ArrayRef<std::string> opNames, OpCategory category,
                          MLIRContext *context,
                          function_ref<InFlightDiagnostic()> emitError);

private:
  llvm::StringMap<OpCategory> categories;
};

/// True for ops whose category is fixed by what they are (control flow,
/// calls, terminators, casts, constants): a policy cannot move them.
/// `opName` must be registered in `context`.
bool isStructuralOp(StringRef opName, MLIRContext *context);

/// Fails (through `emitError`) when an op name is in two of `lists`
/// (option name, op names): `allow=X deny=X` is a contradiction.
LogicalResult
checkDisjointLists(ArrayRef<std::pair<StringRef, ArrayRef<std::string>>> lists,
                   function_ref<InFlightDiagnostic()> emitError);

/// True when `opName` is a registered op (loading its dialect if needed).
bool isKnownOpName(StringRef opName, MLIRContext *context);

/// True for f32 scalars and tensors of f32: the values autocast may lower.
bool isF32Like(Type type);

/// True for float scalars and tensors of floats of any width.
bool isFloatLike(Type type);

/// `type` with its float element type replaced by `elementType`.
Type withElementType(Type type, Type elementType);

} // namespace mlir::amp

AMP_DECLARE_CHOICE_OPTION(::mlir::amp::LowPrecision)

#endif // AMP_ANALYSIS_PRECISIONPOLICY_H
