/* Times the training step of an amp artifact through libamprt: WARMUP
 * steps, then STEPS steps on a fixed random batch; prints milliseconds per
 * step. THREADS (default: the runtime's, all cores) is the thread count of
 * the libraries the step's contractions run on. On stderr it prints the
 * step's memory: the planned workspace, the process's resident set before
 * the first step (parameters and optimizer state in place) and its peak
 * after the last (memory.py reads these).
 * Usage: bench_step ARTIFACT.so STEPS [WARMUP [THREADS]] */
#include "amprt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A "Vm...:" line of /proc/self/status in KiB; -1 where there is none. */
static long status_kib(const char *field) {
  FILE *status = fopen("/proc/self/status", "r");
  if (!status)
    return -1;
  char line[256];
  long kib = -1;
  size_t length = strlen(field);
  while (fgets(line, sizeof(line), status))
    if (strncmp(line, field, length) == 0 && line[length] == ':') {
      kib = atol(line + length + 1);
      break;
    }
  fclose(status);
  return kib;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: bench_step ARTIFACT.so STEPS [WARMUP [THREADS]]\n");
    return 2;
  }
  if (argc > 4)
    amprt_set_num_threads(atoi(argv[4]));
  char error[512];
  amprt_artifact *artifact = amprt_load(argv[1], error, sizeof(error));
  if (!artifact) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  amprt_session *session = amprt_session_create(artifact, 0, error, sizeof(error));
  if (!session) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  const amp_function_info *step = amprt_session_step_info(session);
  /* The batch: the first data argument random in [0, 1) (images), f32
   * labels one-hot-like, integer ones (class indices, token ids) cycling
   * through 0..9, masks true. */
  const void *data[8];
  int count = 0;
  srand(1);
  for (int i = 0; i < step->num_args && count < 8; ++i) {
    const amp_tensor_info *arg = &step->args[i];
    if (arg->role != AMP_ROLE_DATA)
      continue;
    int64_t n = amprt_num_elements(arg);
    void *buffer = calloc((size_t)(n ? n : 1), amprt_dtype_size(arg->dtype));
    for (int64_t e = 0; e < n; ++e) {
      if (arg->dtype == AMP_F32)
        ((float *)buffer)[e] =
            count == 0 ? (float)rand() / RAND_MAX : (float)(e % 10 == 0);
      else if (arg->dtype == AMP_I32)
        ((int32_t *)buffer)[e] = (int32_t)(e % 10);
      else if (arg->dtype == AMP_I64)
        ((int64_t *)buffer)[e] = e % 10;
      else if (arg->dtype == AMP_I1)
        ((unsigned char *)buffer)[e] = 1;
    }
    data[count++] = buffer;
  }
  int steps = atoi(argv[2]), warmup = argc > 3 ? atoi(argv[3]) : 5;
  long rss_before = status_kib("VmRSS");
  for (int i = 0; i < warmup; ++i)
    amprt_session_step(session, data);
  double start = now();
  for (int i = 0; i < steps; ++i)
    amprt_session_step(session, data);
  printf("%.4f\n", (now() - start) * 1e3 / steps);
  fprintf(stderr, "workspace_bytes=%lld rss_before_kib=%ld peak_kib=%ld\n",
          (long long)step->workspace_bytes, rss_before, status_kib("VmHWM"));
  return 0;
}
