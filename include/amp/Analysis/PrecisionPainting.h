//===- PrecisionPainting.h - global low/f32 decision per function -*- C++
//-*-===//
//
// Decides, for every op of a function, whether it runs in low precision or
// in f32. One decision over the whole function (forward and backward
// together), in a fixed number of linear sweeps:
//
//   1. structure: allow ops and `amp.force_low` ops are low; deny ops,
//      `amp.keep_f32` ops, the optimizer (everything downstream of an
//      `amp.grad`) and the loss tail (ops feeding only the `amp.loss`
//      result) are f32;
//   2. deny propagates forward through infer ops, and through clear ops
//      that lead to such infer ops (TF AutoMixedPrecision's rule);
//   3. an infer or clear op both downstream and upstream of low ops goes
//      low (forward sweep, then backward sweep);
//   4. a clear op whose float users all read it low goes low (backward);
//   5. an infer or clear op whose float inputs are all low values goes
//      low (forward).
//
// Contractions produce f32 accumulations, so their results are not "low
// values" for rule 5: a transpose after a matmul that leads only to f32
// consumers stays f32 instead of making a cast chain.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_PRECISIONPAINTING_H
#define AMP_ANALYSIS_PRECISIONPAINTING_H

#include "amp/Analysis/PrecisionPolicy.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::amp {

/// Why an op ended up f32 or low; what the precision report and remarks say.
enum class PaintReason {
  Policy,      // its category decided it
  Propagated,  // rules 2-5 above
  Attribute,   // amp.keep_f32 / amp.force_low
  Optimizer,   // downstream of amp.grad
  Loss,        // feeds only the amp.loss result
  Unsupported, // cannot be expressed in low precision (e.g. TOSA sums)
};

StringRef stringifyPaintReason(PaintReason reason);

class PrecisionPainting {
public:
  /// Paints `func` for the low-precision element type `lowType`.
  PrecisionPainting(FunctionOpInterface func, const PrecisionPolicy &policy,
                    FloatType lowType);

  /// The ops painted (every op of the function outside linalg payloads),
  /// in program order.
  ArrayRef<Operation *> getOps() const { return ops; }

  bool isLow(Operation *op) const;
  OpCategory getCategory(Operation *op) const;
  PaintReason getReason(Operation *op) const;

  /// True when `value` will be available in the low type after the rewrite
  /// without rounding: it already has that type, its producer runs low and
  /// it is no accumulator, or it is an exact widening of a low value.
  bool isLowValue(Value value) const;

private:
  struct OpState {
    OpCategory category = OpCategory::NoFloat;
    PaintReason reason = PaintReason::Policy;
    bool low = false;
    bool forcedF32 = false;
    bool forcedLow = false;
    bool denied = false;
    // Scratch flags of the sweeps (kept here rather than in side sets:
    // one hash lookup per op and visit).
    bool reachedFromDeny = false;
    bool fed = false;
    bool feeds = false;
  };

  OpState *lookup(Operation *op);
  const OpState *lookup(Operation *op) const;
  bool isMovable(const OpState &state) const;

  void classify(FunctionOpInterface func, const PrecisionPolicy &policy);
  void markOptimizerAndLoss(FunctionOpInterface func);
  void propagateDeny();
  void paintBetweenLowOps();
  void spreadClearUpward();
  void spreadDownward();

  FloatType lowType;
  SmallVector<Operation *> ops;
  llvm::DenseMap<Operation *, OpState> states;
};

} // namespace mlir::amp

#endif // AMP_ANALYSIS_PRECISIONPAINTING_H
