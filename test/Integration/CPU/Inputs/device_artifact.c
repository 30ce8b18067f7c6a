/* A stand-in for a device artifact (what amp-compile --target=cuda makes):
 * it exports amp_artifact.h's device entry points and refuses, in every
 * call and copy, a buffer that did not come from amp_artifact_alloc, as
 * kernels would fault on host memory. Its
 * step adds 1 to a 10-element param and returns the sum of the first
 * image's first 10 pixels plus the params as the loss; predict returns
 * logits that pick class 0. -DIN_PLACE makes the update `in_place` (written
 * into the param's buffer, as amp-compile's steps do). */
#include "amp_artifact.h"

#include <stdint.h>
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

/* Graphs: a capture records the step's call (its buffers) instead of
 * running it; a launch runs the recorded call. Destroying a graph prints
 * how often it was replayed. */
typedef struct Graph {
  int32_t (*call)(void **);
  void *buffers[8];
  int replays;
} Graph;
static Graph *recording;

int32_t amp_artifact_capture_begin(void) {
  if (recording)
    return -1;
  recording = calloc(1, sizeof(Graph));
  return 0;
}

void *amp_artifact_capture_end(void) {
  Graph *graph = recording;
  recording = 0;
  return graph;
}

void amp_artifact_graph_launch(void *graph) {
  Graph *g = graph;
  ++g->replays;
  g->call(g->buffers);
}

void amp_artifact_graph_destroy(void *graph) {
  printf("stand-in graph replayed %d times\n", ((Graph *)graph)->replays);
  free(graph);
}

/* Whether the call is being captured: then it is recorded, not run. */
static int recorded(int32_t (*call)(void **), void **buffers, int count) {
  if (!recording)
    return 0;
  recording->call = call;
  for (int b = 0; b < count; ++b)
    recording->buffers[b] = buffers[b];
  return 1;
}
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

/* The device step's intermediates go through its workspace (buffers[5],
 * WORKSPACE_BYTES from amp_artifact_alloc); with -DHOST_WORKSPACE the host
 * step's too, host memory from the session. Its constant, the step added
 * to each param, lives there from offset 512 on: init_workspace writes it
 * once per workspace (and says so), and the step refuses a workspace that
 * does not hold it, as a compiled step would read garbage. */
#if defined(HOST_ARTIFACT) && !defined(HOST_WORKSPACE)
#define WORKSPACE_BYTES 0
#else
#define WORKSPACE_BYTES 1024
#endif
#define CONSTANTS_OFFSET 512

#if WORKSPACE_BYTES
static int32_t initWorkspace(void *workspace) {
#ifndef HOST_ARTIFACT
  if (!isOwned(workspace, WORKSPACE_BYTES)) {
    fprintf(stderr, "init_workspace: the workspace is not device memory\n");
    exit(3);
  }
#endif
  float *ones = (float *)((char *)workspace + CONSTANTS_OFFSET);
  for (int i = 0; i < 10; ++i)
    ones[i] = 1.0f;
  printf("stand-in workspace initialized\n");
  return 0;
}
#define INIT_WORKSPACE initWorkspace
#else
#define INIT_WORKSPACE 0
#endif
/* -DINIT_WITHOUT_WORKSPACE: predict names an init_workspace but has no
 * workspace, a malformed table. */
#ifdef INIT_WITHOUT_WORKSPACE
static int32_t initNothing(void *workspace) { return 0; }
#define PREDICT_INIT initNothing
#else
#define PREDICT_INIT 0
#endif

static int32_t step(void **buffers) {
  int count = WORKSPACE_BYTES ? 6 : 5;
  check(buffers, count, "train_step");
  float local[10], *sums = local;
#ifndef HOST_ARTIFACT
  if (recorded(step, buffers, count))
    return 0;
  sums = buffers[5];
  if (!isOwned(sums, WORKSPACE_BYTES)) {
    fprintf(stderr, "train_step: the workspace is not %d bytes of device "
                    "memory\n", WORKSPACE_BYTES);
    exit(3);
  }
#elif WORKSPACE_BYTES
  /* The session's, allocated once and aligned as amp_artifact.h says. */
  static void *first;
  sums = buffers[5];
  if (((uintptr_t)sums & 255) || (first && first != sums)) {
    fprintf(stderr, "train_step: the workspace moved or is misaligned\n");
    exit(3);
  }
  first = sums;
#endif
  static const float plainOnes[10] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  const float *ones = plainOnes;
#if WORKSPACE_BYTES
  ones = (const float *)((char *)buffers[5] + CONSTANTS_OFFSET);
  for (int i = 0; i < 10; ++i)
    if (ones[i] != 1.0f) {
      fprintf(stderr, "train_step: the workspace's constants are missing\n");
      exit(3);
    }
#endif
  const float *x = buffers[0], *p = buffers[2];
  float *loss = buffers[3], *next = buffers[4];
#ifdef IN_PLACE
  next = buffers[2]; /* the update is in place: buffers[4] is not ours */
#endif
  for (int i = 0; i < 10; ++i)
    sums[i] = x[i] + p[i];
  *loss = 0;
  for (int i = 0; i < 10; ++i) {
    *loss += sums[i];
    next[i] = p[i] + ones[i];
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
#ifdef IN_PLACE
    {AMP_F32, AMP_ROLE_UPDATE, 2, 1, param, "result1", 1}};
#elif defined(BAD_IN_PLACE)
    /* An update in place of the caller's images: refused. */
    {AMP_F32, AMP_ROLE_UPDATE, 0, 1, param, "result1", 1}};
#else
    {AMP_F32, AMP_ROLE_UPDATE, 2, 1, param, "result1"}};
#endif
static const amp_tensor_info predictArgs[] = {
    {AMP_F32, AMP_ROLE_DATA, -1, 2, images, "images"},
    {AMP_F32, AMP_ROLE_PARAM, -1, 1, param, "w"}};
static const amp_tensor_info predictResults[] = {
    {AMP_F32, AMP_ROLE_OUTPUT, -1, 2, logits, "result0"}};
static const amp_function_info functions[] = {
    {"train_step", 3, stepArgs, 2, stepResults, 0.0f, 0, step,
     WORKSPACE_BYTES, INIT_WORKSPACE},
    {"predict", 2, predictArgs, 1, predictResults, 0.0f, 0, predict, 0, PREDICT_INIT}};

int32_t amp_artifact_abi_version(void) { return AMP_ARTIFACT_ABI_VERSION; }
const amp_function_info *amp_artifact_functions(int32_t *count) {
  *count = 2;
  return functions;
}
