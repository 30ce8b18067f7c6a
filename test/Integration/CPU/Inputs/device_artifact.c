/* A stand-in for a device artifact (what amp-compile --target=cuda makes):
 * it exports amp_artifact.h's device entry points and refuses, in every
 * call and copy, a buffer that did not come from amp_artifact_alloc, as
 * kernels would fault on host memory. Its
 * step adds 1 to a 10-element param and returns the sum of the first
 * image's first 10 pixels plus the params as the loss; predict returns
 * logits that pick class 0. */
#include "amp_artifact.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -DHOST_ARTIFACT: the same functions as a host artifact (no device entry
 * points), the reference the device session must match bit for bit. */
#ifndef HOST_ARTIFACT
#define MAX_BUFFERS 256
static char *owned[MAX_BUFFERS];
static uint64_t ownedBytes[MAX_BUFFERS];

void *amp_artifact_alloc(uint64_t bytes) {
  char *pointer = calloc(1, bytes);
  for (int i = 0; i < MAX_BUFFERS; ++i)
    if (!owned[i]) {
      owned[i] = pointer;
      ownedBytes[i] = bytes;
      return pointer;
    }
  abort();
}

void amp_artifact_free(void *pointer) {
  for (int i = 0; i < MAX_BUFFERS; ++i)
    if (owned[i] == pointer)
      owned[i] = 0;
  free(pointer);
}

/* Whether [pointer, pointer + bytes) lies in one block from
 * amp_artifact_alloc (a runtime may pack several buffers in one). */
static int isOwned(const void *pointer, uint64_t bytes) {
  const char *p = pointer;
  for (int i = 0; i < MAX_BUFFERS; ++i)
    if (owned[i] && p >= owned[i] && p + bytes <= owned[i] + ownedBytes[i])
      return 1;
  return 0;
}

void *amp_artifact_host_alloc(uint64_t bytes) { return calloc(1, bytes); }
void amp_artifact_host_free(void *pointer) { free(pointer); }

void amp_artifact_copy_to_device(void *device, const void *host,
                                 uint64_t bytes) {
  if (!isOwned(device, bytes) || isOwned(host, 1)) {
    fprintf(stderr, "copy_to_device: not from host to device memory\n");
    exit(3);
  }
  memcpy(device, host, bytes);
}

void amp_artifact_copy_to_host(void *host, const void *device,
                               uint64_t bytes) {
  if (!isOwned(device, bytes) || isOwned(host, 1)) {
    fprintf(stderr, "copy_to_host: not from device to host memory\n");
    exit(3);
  }
  memcpy(host, device, bytes);
}

void amp_artifact_synchronize(void) {}
#endif


static void check(void **buffers, int count, const char *function) {
#ifndef HOST_ARTIFACT
  for (int b = 0; b < count; ++b)
    if (!isOwned(buffers[b], 1)) {
      fprintf(stderr, "%s: buffer %d is not from amp_artifact_alloc\n",
              function, b);
      exit(3);
    }
#endif
}

static int32_t step(void **buffers) {
  check(buffers, 5, "train_step");
  const float *x = buffers[0], *p = buffers[2];
  float *loss = buffers[3], *next = buffers[4];
  *loss = 0;
  for (int i = 0; i < 10; ++i) {
    *loss += x[i] + p[i];
    next[i] = p[i] + 1;
  }
  return 0;
}

static int32_t predict(void **buffers) {
  check(buffers, 3, "predict");
  float *logits = buffers[2];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 10; ++c)
      logits[r * 10 + c] = c == 0;
  return 0;
}

static const int64_t images[] = {4, 784}, labels[] = {4, 10}, param[] = {10},
                     scalar[] = {0}, logits[] = {4, 10};
/* -DUNNAMED_PARAM leaves a name out: a malformed table the runtime refuses. */
#ifdef UNNAMED_PARAM
#define PARAM_NAME 0
#else
#define PARAM_NAME "w"
#endif
static const amp_tensor_info stepArgs[] = {
    {AMP_F32, AMP_ROLE_DATA, -1, 2, images, "images"},
    {AMP_F32, AMP_ROLE_DATA, -1, 2, labels, "labels"},
    {AMP_F32, AMP_ROLE_PARAM, -1, 1, param, PARAM_NAME}};
static const amp_tensor_info stepResults[] = {
    {AMP_F32, AMP_ROLE_LOSS, -1, 0, scalar, "result0"},
    {AMP_F32, AMP_ROLE_UPDATE, 2, 1, param, "result1"}};
static const amp_tensor_info predictArgs[] = {
    {AMP_F32, AMP_ROLE_DATA, -1, 2, images, "images"},
    {AMP_F32, AMP_ROLE_PARAM, -1, 1, param, "w"}};
static const amp_tensor_info predictResults[] = {
    {AMP_F32, AMP_ROLE_OUTPUT, -1, 2, logits, "result0"}};
static const amp_function_info functions[] = {
    {"train_step", 3, stepArgs, 2, stepResults, 0.0f, 0, step},
    {"predict", 2, predictArgs, 1, predictResults, 0.0f, 0, predict}};

int32_t amp_artifact_abi_version(void) { return AMP_ARTIFACT_ABI_VERSION; }
const amp_function_info *amp_artifact_functions(int32_t *count) {
  *count = 2;
  return functions;
}
