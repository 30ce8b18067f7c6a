//===- TrainingTransforms.h - reusable training-step rewrites ---*- C++ -*-===//
//
// The work of the training passes as plain functions on a TrainingGraph,
// for pipelines and embedders that drive them without the pass classes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_TRAININGTRANSFORMS_H
#define AMP_TRANSFORMS_TRAININGTRANSFORMS_H

#include "amp/Analysis/TrainingGraph.h"

#include <limits>

namespace mlir::amp {

enum class LossScalingMode { Dynamic, Static, None };

FailureOr<LossScalingMode> parseLossScalingMode(StringRef name);

/// Loss-scaling parameters; the defaults are PyTorch GradScaler's.
struct LossScalingConfig {
  LossScalingMode mode = LossScalingMode::Dynamic;
  float scale = 65536.0f;
  float growthFactor = 2.0f;
  float backoffFactor = 0.5f;
  int64_t growthInterval = 2000;
  float minScale = 0.0f;
  float maxScale = std::numeric_limits<float>::infinity();
  int64_t hysteresis = 1;

  /// Reports out-of-range values as errors on `anchor`.
  LogicalResult verify(Operation *anchor) const;
};

/// Rewrites one training step for loss scaling (see the pass's docs).
LogicalResult applyLossScaling(TrainingGraph &graph,
                               const LossScalingConfig &config);

/// Makes each param's low-precision working copy one cast at the top of the
/// step; with `cacheWorkingCopy`, turns the copies into step state.
LogicalResult applyMasterWeights(TrainingGraph &graph, bool cacheWorkingCopy);

/// Removes every amp marker (`amp.*` attributes) from `func`'s arguments,
/// results and own attributes. After amp-lower-ops the step is plain
/// upstream IR; lowering passes that move attributes around
/// (buffer-results-to-out-params puts result attributes on the new
/// arguments) would otherwise leave markers where they are invalid.
void dropAMPMarkers(FunctionOpInterface func);

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_TRAININGTRANSFORMS_H
