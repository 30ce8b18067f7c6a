//===- TrainingGraph.h - the markers of one training step -------*- C++ -*-===//
//
// Finds and checks the training-graph contract (docs/training-graph.md) in a function:
// one `amp.loss` result, one `amp.loss_grad` seed of that loss, at most one
// `amp.grad` per parameter, and the `amp.update_of` results. The training
// passes (master weights, loss scaling) read the step through this.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_ANALYSIS_TRAININGGRAPH_H
#define AMP_ANALYSIS_TRAININGGRAPH_H

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::amp {

struct TrainingGraph {
  FunctionOpInterface func;
  /// The function's single return.
  Operation *returnOp = nullptr;
  /// Index of the `amp.loss` result.
  unsigned lossResult = 0;
  /// The backward seed; null once amp-loss-scaling has replaced it by the
  /// scale (the step then has an `amp.unscale`).
  LossGradOp seed;
  /// Every `amp.grad`, in program order.
  SmallVector<GradOp> grads;
  /// Argument indices marked `amp.param`, in order.
  SmallVector<unsigned> params;
  /// Result index -> argument index, for every `amp.update_of` result.
  SmallVector<std::pair<unsigned, unsigned>> updates;

  /// Reads and checks the markers of `func`, reporting every misuse as a
  /// located error. A param without a gradient is frozen (a warning) when
  /// its update does not use the backward pass, and an error when it does
  /// (it would be updated with a still-scaled gradient). `passName`
  /// prefixes the messages.
  static FailureOr<TrainingGraph> analyze(FunctionOpInterface func,
                                          StringRef passName);

  /// True when `func` carries any training marker (an `amp.loss` result,
  /// an `amp.loss_grad` or an `amp.grad`): it is a training step.
  static bool isTrainingStep(FunctionOpInterface func);

  /// The `amp.update_of` result of argument `arg`, if any.
  std::optional<unsigned> getUpdateResult(unsigned arg) const;
};

/// Runs `fn` on every training step of `module`; reports an error on the
/// module when there is none. Fails when `fn` or an analysis fails.
/// Every value computed from the backward seed (at the top level of the
/// step, through nested regions too).
llvm::DenseSet<Value> getBackwardValues(const TrainingGraph &graph);

LogicalResult
forEachTrainingStep(Operation *module, StringRef passName,
                    function_ref<LogicalResult(TrainingGraph &)> fn);

} // namespace mlir::amp

#endif // AMP_ANALYSIS_TRAININGGRAPH_H
