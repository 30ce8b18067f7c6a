//===- TrainingLoop.h - steps, logging and progress -------------*- C++ -*-===//

#ifndef AMP_TRAIN_TRAININGLOOP_H
#define AMP_TRAIN_TRAININGLOOP_H

#include "Distributed.h"
#include "Options.h"
#include "StepData.h"

namespace amp_train {

/// Trains `session` from its current step to the end that `options` ask
/// for (epochs or steps), in global batches of `batch` x `ranks.size`
/// examples of `train` in their seeded order, this rank taking its shard
/// (`batch` consecutive examples at `ranks.rank` x `batch`). Rank 0 writes
/// the CSV log and the per-epoch lines. A global batch with non-finite f32
/// data on any rank is skipped by every rank before it reaches the step;
/// returns how many were. --poison-step corrupts the first column (f32) of
/// rank --poison-rank's shard.
int64_t runTrainingLoop(amprt_session *session, int64_t batch,
                        const Options &options, StepData &train,
                        const Ranks &ranks);

} // namespace amp_train

#endif // AMP_TRAIN_TRAININGLOOP_H
