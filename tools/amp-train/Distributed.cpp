//===- Distributed.cpp - amp-train as one rank of a data-parallel run ----===//

#include "Distributed.h"

#include "Common.h"

#include "amprt_comm.h"

#include <cinttypes>
#include <cstdio>
#include <iterator>

using namespace amp_train;

/// Fails with libamprt's reason when a collective call failed.
static void check(int status, const char *what, const char *message) {
  if (status != 0)
    fail(std::string(what) + ": " + message);
}

Ranks amp_train::startCommunicator(const std::string &choice) {
  char message[512];
  check(amprt_comm_init(choice.c_str(), message, sizeof message),
        "cannot start the communicator", message);
  return Ranks{amprt_comm_rank(), amprt_comm_size()};
}

bool amp_train::onAnyRank(bool flag) {
  int32_t value = flag;
  char message[512];
  check(amprt_comm_all_reduce(&value, 1, AMP_I32, AMPRT_REDUCE_MAX, message,
                              sizeof message),
        "all-reduce", message);
  return value != 0;
}

void amp_train::waitForAllRanks() {
  char message[512];
  check(amprt_comm_barrier(message, sizeof message), "barrier", message);
}

void amp_train::checkReplicas(const amprt_session *session, const Ranks &ranks,
                              const std::string &when) {
  if (ranks.size == 1)
    return;
  static constexpr struct {
    amp_role role;
    const char *name;
  } kReplicated[] = {{AMP_ROLE_PARAM, "params"},
                     {AMP_ROLE_STATE, "optimizer state"},
                     {AMP_ROLE_WORKING_COPY, "working copies"},
                     {AMP_ROLE_SCALE, "loss scale"},
                     {AMP_ROLE_GROWTH, "growth tracker"},
                     {AMP_ROLE_HYSTERESIS, "hysteresis"}};
  uint64_t mine[std::size(kReplicated)], root[std::size(kReplicated)];
  for (size_t i = 0; i < std::size(kReplicated); ++i)
    mine[i] = root[i] = amprt_session_digest(session, kReplicated[i].role);
  char message[512];
  check(amprt_comm_broadcast(root, sizeof root, 0, message, sizeof message),
        "broadcast", message);
  int differing = -1;
  for (size_t i = 0; i < std::size(kReplicated) && differing < 0; ++i)
    if (mine[i] != root[i])
      differing = static_cast<int>(i);
  if (differing >= 0)
    std::fprintf(stderr,
                 "amp-train: rank %d: %s digest %016" PRIx64
                 " differs from rank 0's %016" PRIx64 " %s\n",
                 ranks.rank, kReplicated[differing].name, mine[differing],
                 root[differing], when.c_str());
  if (onAnyRank(differing >= 0))
    fail("the replicas differ " + when +
         " (every rank must hold the same params and state: the same "
         "artifact, seed and checkpoint on every rank)");
}
