//===- parallel.cpp - the parallel loops of compiled CPU steps ------------===//
//
// Compiled steps hand their large parallel loop nests to amprt_parallel_for
// (amp-parallel-chunks-to-runtime). They run on libgomp's threads: the pool
// Debian's oneDNN already runs the step's contractions on, so the two never
// compete for cores and amprt_set_num_threads sets both. Clang emits
// libomp's entry points for `#pragma omp parallel`, not libgomp's, so this
// calls GOMP_parallel, libgomp's entry point for a parallel region (what
// GCC emits for the pragma), directly.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

extern "C" {
void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                   unsigned flags);
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_in_parallel(void);
}

namespace {
struct ParallelFor {
  void (*body)(void *, int64_t, int64_t);
  void *context;
  int64_t count;
};

/// AMPRT_PARALLEL_LOOPS=off runs every nest on the calling thread (to
/// compare; the results are the same bits either way).
bool parallelLoopsEnabled() {
  static const bool enabled = [] {
    const char *value = std::getenv("AMPRT_PARALLEL_LOOPS");
    return !(value && std::strcmp(value, "off") == 0);
  }();
  return enabled;
}

/// One thread's share: [count * t / n, count * (t + 1) / n).
void runShare(void *data) {
  const auto *loop = static_cast<const ParallelFor *>(data);
  int64_t thread = omp_get_thread_num(), threads = omp_get_num_threads();
  int64_t begin = loop->count / threads * thread +
                  std::min(thread, loop->count % threads);
  int64_t end = begin + loop->count / threads +
                (thread < loop->count % threads ? 1 : 0);
  if (begin < end)
    loop->body(loop->context, begin, end);
}
} // namespace

extern "C" void amprt_parallel_for(void (*body)(void *, int64_t, int64_t),
                                   void *context, int64_t count) {
  if (count <= 0)
    return;
  int64_t threads = std::min<int64_t>(omp_get_max_threads(), count);
  if (threads <= 1 || omp_in_parallel() || !parallelLoopsEnabled()) {
    body(context, 0, count);
    return;
  }
  ParallelFor loop{body, context, count};
  GOMP_parallel(runShare, &loop, static_cast<unsigned>(threads), 0);
}
