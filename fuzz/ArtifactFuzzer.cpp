//===- ArtifactFuzzer.cpp - libamprt's artifact file check ----------------===//
//
// The structural check amprt_load makes before dlopen, on any bytes: it
// must accept or refuse with a reason, never crash or read out of bounds.
// (dlopen itself is not fuzzed: it trusts a well-formed ELF by design.)
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include "amprt.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static amp_fuzz::InputFile file;
  char error[512];
  (void)amprt_check_artifact_file(file.write(data, size).c_str(), error,
                                  sizeof(error));
  return 0;
}
