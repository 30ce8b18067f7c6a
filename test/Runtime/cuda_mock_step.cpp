//===- cuda_mock_step.cpp - what a CUDA artifact's step asks of the GPU ---===//
//
//   amprt-cuda-mock-step ARTIFACT.so [--steps=N]
//
// Runs N training steps (default 10) of a CUDA artifact (amp-compile
// --target=cuda) through libamprt's session on the simulated driver of
// cuda_mock.cpp, which this program's libamprt_cuda is linked against, and
// prints per step what it asked of the GPU:
//
//   cuda-step: launches=N gemms=N graph_launches=N allocs=N frees=N
//              syncs=N h2d=N d2h=N host_touches=N      (one line)
//
// host_touches counts the device pages the host read or wrote during the
// step (the session's staging of the batch and reading of the loss
// included). Kernels do not run, so the numbers a step computes are
// meaningless here; what is counted is what the host code does.
//
//===----------------------------------------------------------------------===//

#include "cuda_mock.h"

#include "amprt.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

int main(int argc, char **argv) {
  const char *path = nullptr;
  long steps = 10;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], "--steps=", 8) == 0) {
      char *end = nullptr;
      steps = std::strtol(argv[i] + 8, &end, 10);
      if (*end || steps < 1) {
        std::fprintf(stderr, "amprt-cuda-mock-step: --steps wants a positive "
                             "integer, not '%s'\n",
                     argv[i] + 8);
        return 2;
      }
    } else if (!path && argv[i][0] != '-') {
      path = argv[i];
    } else {
      std::fprintf(stderr, "usage: amprt-cuda-mock-step ARTIFACT.so "
                           "[--steps=N]\n");
      return 2;
    }
  }
  if (!path) {
    std::fprintf(stderr, "usage: amprt-cuda-mock-step ARTIFACT.so [--steps=N]\n");
    return 2;
  }
  char error[512];
  amprt_artifact *artifact = amprt_load(path, error, sizeof(error));
  if (!artifact) {
    std::fprintf(stderr, "amprt-cuda-mock-step: %s\n", error);
    return 1;
  }
  amprt_session *session =
      amprt_session_create(artifact, 0, error, sizeof(error));
  if (!session) {
    std::fprintf(stderr, "amprt-cuda-mock-step: %s\n", error);
    return 1;
  }
  // A batch of zeros: the counts do not depend on the values.
  const amp_function_info *step = amprt_session_step_info(session);
  std::vector<std::vector<char>> batch;
  std::vector<const void *> data;
  for (int32_t i = 0; i < step->num_args; ++i)
    if (step->args[i].role == AMP_ROLE_DATA)
      batch.emplace_back(amprt_num_elements(&step->args[i]) *
                             amprt_dtype_size(step->args[i].dtype) +
                         1);
  for (const auto &buffer : batch)
    data.push_back(buffer.data());
  for (long s = 0; s < steps; ++s) {
    amprt_mock_begin_step();
    amprt_session_step(session, data.data());
    amprt_mock_counts c = amprt_mock_step_counts();
    std::printf("cuda-step: launches=%lld gemms=%lld graph_launches=%lld "
                "allocs=%lld frees=%lld syncs=%lld h2d=%lld d2h=%lld "
                "host_touches=%lld\n",
                (long long)c.launches, (long long)c.gemms,
                (long long)c.graphLaunches, (long long)c.allocs,
                (long long)c.frees, (long long)c.syncs, (long long)c.h2d,
                (long long)c.d2h, (long long)c.hostTouches);
  }
  amprt_session_destroy(session);
  return 0;
}
