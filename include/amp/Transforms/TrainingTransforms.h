//===- TrainingTransforms.h - reusable training-step rewrites ---*- C++ -*-===//
//
// The work of the training passes as plain functions on a TrainingGraph,
// for pipelines and embedders that drive them without the pass classes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_TRAININGTRANSFORMS_H
#define AMP_TRANSFORMS_TRAININGTRANSFORMS_H

#include "amp/Analysis/TrainingGraph.h"
#include "amp/Dialect/AMP/IR/LossScaling.h"
#include "amp/Transforms/PassOptions.h"

namespace mlir::amp {

/// Rewrites one training step for loss scaling (see the pass's docs).
LogicalResult applyLossScaling(TrainingGraph &graph,
                               const LossScalingConfig &config);

/// Averages the step's gradients and rank-local results over the ranks of
/// a data-parallel run and reduces `found_inf` (see the pass's docs).
LogicalResult applyDataParallel(TrainingGraph &graph,
                                const DataParallelConfig &config);

/// Makes each param's low-precision working copy one cast at the top of the
/// step; with `cacheWorkingCopy`, turns the copies into step state.
LogicalResult applyMasterWeights(TrainingGraph &graph, bool cacheWorkingCopy);

/// amp-schedule-step-for-memory on `func`'s entry block: ops computed from
/// arguments and constants only move down to their first user, the ops
/// that compute `amp.update_of` results up to where their operands and the
/// last read of the argument they replace allow.
void scheduleStepForMemory(FunctionOpInterface func);

/// The argument `func`'s result `result` is marked `amp.update_of`, when
/// it names one.
std::optional<unsigned> getUpdatedArgument(FunctionOpInterface func,
                                           unsigned result);

/// The argument that `func`'s result `result` is written into when state
/// updates are in place: its `amp.update_of` argument, when that is step
/// state (param, state, scaler state or working copy) of the result's
/// static shaped type and no earlier result updates it. One rule for the
/// passes and the artifact's tables, on tensors and on buffers.
std::optional<unsigned> getInPlaceUpdateTarget(FunctionOpInterface func,
                                               unsigned result);

/// Returns every result of `func` that getInPlaceUpdateTarget gives an
/// argument through a `bufferization.materialize_in_destination` into it,
/// and makes that argument writable (amp-update-arguments-in-place).
void updateArgumentsInPlace(FunctionOpInterface func);

/// Removes the results of bufferized `func` that are the buffers of the
/// arguments they update in place (amp-drop-in-place-results); fails,
/// with an error at the function, when one is not.
LogicalResult dropInPlaceResults(FunctionOpInterface func);

/// Removes every amp marker (`amp.*` attributes) from `func`'s arguments,
/// results and own attributes. After amp-lower-ops the step is plain
/// upstream IR; lowering passes that move attributes around
/// (buffer-results-to-out-params puts result attributes on the new
/// arguments) would otherwise leave markers where they are invalid.
void dropAMPMarkers(FunctionOpInterface func);

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_TRAININGTRANSFORMS_H
