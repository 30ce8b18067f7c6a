//===- TrainingLoop.h - steps, logging and progress -------------*- C++ -*-===//

#ifndef AMP_TRAIN_TRAININGLOOP_H
#define AMP_TRAIN_TRAININGLOOP_H

#include "Options.h"
#include "StepData.h"

namespace amp_train {

/// Trains `session` from its current step to the end that `options` ask
/// for (epochs or steps), in batches of `batch` examples of `train` in
/// their seeded order, writing the CSV log and the per-epoch lines. A batch
/// with non-finite f32 data is skipped before it reaches the step; returns
/// how many were. --poison-step corrupts the first column (f32).
int64_t runTrainingLoop(amprt_session *session, int64_t batch,
                        const Options &options, StepData &train);

} // namespace amp_train

#endif // AMP_TRAIN_TRAININGLOOP_H
