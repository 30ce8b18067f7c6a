/* amprt_call on a step whose update is in place (the stand-in artifact
 * test/Integration/CPU/Inputs/device_artifact.c built with -DIN_PLACE): the
 * caller's inputs are only read, and the update comes back in the result
 * buffer, as for any other artifact. */
#include "amprt.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  char error[512];
  amprt_artifact *artifact = amprt_load(argv[1], error, sizeof error);
  if (!artifact) {
    fprintf(stderr, "%s\n", error);
    return 1;
  }
  const amp_function_info *step = amprt_find(artifact, "train_step");
  static float images[4 * 784], labels[4 * 10];
  float param[10], before[10], next[10], loss = 0;
  for (int i = 0; i < 10; ++i)
    images[i] = param[i] = before[i] = (float)i;
  memset(next, 0xff, sizeof next);
  void *buffers[] = {images, labels, param, &loss, next};
  if (amprt_call(artifact, step, buffers) != 0)
    return 1;
  int unchanged = memcmp(param, before, sizeof param) == 0, updated = 1;
  for (int i = 0; i < 10; ++i)
    updated &= next[i] == before[i] + 1;
  printf("in_place=%d inputs-unchanged=%d update=%d loss=%g\n",
         step->results[1].in_place, unchanged, updated, loss);
  amprt_unload(artifact);
  return 0;
}
