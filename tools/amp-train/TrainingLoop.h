//===- TrainingLoop.h - steps, logging and progress -------------*- C++ -*-===//

#ifndef AMP_TRAIN_TRAININGLOOP_H
#define AMP_TRAIN_TRAININGLOOP_H

#include "Data.h"
#include "Model.h"
#include "Options.h"

namespace amp_train {

/// Trains `session` from its current step to the end that `options` ask
/// for (epochs or steps), in the seeded order of `train`, writing the CSV
/// log and the per-epoch lines. A batch with non-finite data is skipped
/// before it reaches the step; returns how many were.
int64_t runTrainingLoop(amprt_session *session, const ModelBinding &model,
                        const Options &options, const Dataset &train);

} // namespace amp_train

#endif // AMP_TRAIN_TRAININGLOOP_H
