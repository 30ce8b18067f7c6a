//===- Distributed.h - amp-train as one rank of a data-parallel run -*- C++ -*-===//
//
// Under mpirun every rank runs amp-train with the same flags. Each trains
// the same data-parallel step on its shard of every global batch (the
// batch a single process with batch x ranks would take, in the same
// order); the step averages the gradients. Rank 0 alone writes the log,
// the checkpoint and the summary.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAIN_DISTRIBUTED_H
#define AMP_TRAIN_DISTRIBUTED_H

#include "amprt.h"

#include <string>

namespace amp_train {

struct Ranks {
  int rank = 0;
  int size = 1;
  bool isRoot() const { return rank == 0; }
};

/// Chooses libamprt's communicator (`none`, `mpi` or `auto`); fails with
/// the reason when it cannot.
Ranks startCommunicator(const std::string &choice);

/// Whether `flag` is set on any rank (collective).
bool onAnyRank(bool flag);

/// Waits for every rank (collective).
void waitForAllRanks();

/// Fails on every rank, naming what differs, unless every rank's params,
/// optimizer state, working copies and loss-scaler state hold the same
/// bits as rank 0's (collective). `when` says at which point, e.g. "after
/// step 12".
void checkReplicas(const amprt_session *session, const Ranks &ranks,
                   const std::string &when);

} // namespace amp_train

#endif // AMP_TRAIN_DISTRIBUTED_H
