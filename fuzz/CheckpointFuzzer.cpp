//===- CheckpointFuzzer.cpp - libamprt's checkpoint loader ----------------===//
//
// Loads every input as a checkpoint of the tiny step's session: it must be
// refused with a reason or loaded, never crash. AMP_FUZZ_ARTIFACT names
// the compiled tiny step (fuzz/tiny_step.mlir); AMP_FUZZ_SEED_OUT, when
// set, is where a valid checkpoint is written as a seed.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include "amprt.h"

#include <cstdio>

static amprt_session *session = nullptr;

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *artifactPath = std::getenv("AMP_FUZZ_ARTIFACT");
  char error[512];
  amprt_artifact *artifact =
      artifactPath ? amprt_load(artifactPath, error, sizeof(error)) : nullptr;
  if (!artifact) {
    std::fprintf(stderr, "set AMP_FUZZ_ARTIFACT to the compiled tiny step: %s\n",
                 artifactPath ? error : "unset");
    std::exit(1);
  }
  session = amprt_session_create(artifact, 1, error, sizeof(error));
  if (!session) {
    std::fprintf(stderr, "%s\n", error);
    std::exit(1);
  }
  if (const char *seed = std::getenv("AMP_FUZZ_SEED_OUT"))
    if (amprt_session_save(session, seed, error, sizeof(error)) != 0) {
      std::fprintf(stderr, "%s\n", error);
      std::exit(1);
    }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static amp_fuzz::InputFile file;
  char error[512];
  (void)amprt_session_load(session, file.write(data, size).c_str(), error,
                           sizeof(error));
  return 0;
}
