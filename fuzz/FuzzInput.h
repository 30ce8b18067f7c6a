//===- FuzzInput.h - a fuzzer's bytes as a file -----------------*- C++ -*-===//
//
// The loaders under test read files: each input is written to one memfd
// and read back through /proc/self/fd.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_FUZZ_FUZZINPUT_H
#define AMP_FUZZ_FUZZINPUT_H

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace amp_fuzz {

class InputFile {
public:
  InputFile() : fd(memfd_create("amp-fuzz-input", 0)) {
    if (fd < 0)
      std::abort();
    path = "/proc/self/fd/" + std::to_string(fd);
  }
  ~InputFile() { ::close(fd); }

  /// Replaces the file's content with `data`; returns its path.
  const std::string &write(const uint8_t *data, size_t size) {
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, data, size, 0) !=
                                       static_cast<ssize_t>(size))
      std::abort();
    return path;
  }

private:
  int fd;
  std::string path;
};

} // namespace amp_fuzz

#endif // AMP_FUZZ_FUZZINPUT_H
