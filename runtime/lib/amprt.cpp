//===- amprt.cpp - libamprt: load amp artifacts and train with them -------===//
//
// No MLIR or LLVM here: only the C library and dlopen.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"
#include "report.h"
#include "float_convert.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

struct amprt_artifact {
  void *handle = nullptr;
  const amp_function_info *functions = nullptr;
  int32_t count = 0;
  // A device artifact's memory and copies (amp_artifact.h, v4): every
  // buffer it is given comes from alloc. Null for host artifacts.
  void *(*alloc)(uint64_t) = nullptr;
  void (*free)(void *) = nullptr;
  void *(*hostAlloc)(uint64_t) = nullptr;
  void (*hostFree)(void *) = nullptr;
  void (*copyToDevice)(void *, const void *, uint64_t) = nullptr;
  void (*copyToHost)(void *, const void *, uint64_t) = nullptr;
  void (*synchronize)() = nullptr;
  // CUDA graphs (all four or none; device artifacts only).
  int32_t (*captureBegin)() = nullptr;
  void *(*captureEnd)() = nullptr;
  void (*graphLaunch)(void *) = nullptr;
  void (*graphDestroy)(void *) = nullptr;
};

namespace {

/// Host bytes owned by a session, zero-filled.
class Buffer {
public:
  Buffer() = default;
  explicit Buffer(size_t bytes) : bytes(bytes) {
    // One byte at least: a distinct, valid address for empty tensors.
    pointer = static_cast<unsigned char *>(std::calloc(bytes ? bytes : 1, 1));
  }
  /// Page-aligned (a step's workspace: its slots are planned relative to
  /// the start).
  static Buffer pageAligned(size_t bytes) {
    constexpr size_t kPage = 4096;
    Buffer buffer;
    buffer.bytes = bytes;
    size_t rounded = (std::max<size_t>(bytes, 1) + kPage - 1) / kPage * kPage;
    // Not cleared: the step writes every byte before it reads it, and
    // pages it never touches then cost no memory.
    buffer.pointer =
        static_cast<unsigned char *>(std::aligned_alloc(kPage, rounded));
    return buffer;
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&other) noexcept { swap(other); }
  Buffer &operator=(Buffer &&other) noexcept {
    swap(other);
    return *this;
  }
  ~Buffer() { std::free(pointer); }
  void swap(Buffer &other) noexcept {
    std::swap(pointer, other.pointer);
    std::swap(bytes, other.bytes);
  }
  unsigned char *data() const { return pointer; }
  size_t size() const { return bytes; }
  unsigned char *begin() const { return pointer; }
  unsigned char *end() const { return pointer + bytes; }

private:
  unsigned char *pointer = nullptr;
  size_t bytes = 0;
};

/// Blocks of a device artifact's memory (amp_artifact_alloc, or pinned host
/// memory from amp_artifact_host_alloc), freed together.
class DeviceBlocks {
public:
  explicit DeviceBlocks(const amprt_artifact *artifact) : artifact(artifact) {}
  DeviceBlocks(const DeviceBlocks &) = delete;
  DeviceBlocks &operator=(const DeviceBlocks &) = delete;
  ~DeviceBlocks() {
    for (void *block : device)
      artifact->free(block);
    for (void *block : pinned)
      artifact->hostFree(block);
  }
  unsigned char *allocate(size_t bytes) {
    device.push_back(artifact->alloc(bytes ? bytes : 1));
    return static_cast<unsigned char *>(device.back());
  }
  unsigned char *allocatePinned(size_t bytes) {
    pinned.push_back(artifact->hostAlloc(bytes ? bytes : 1));
    return static_cast<unsigned char *>(pinned.back());
  }

private:
  const amprt_artifact *artifact;
  std::vector<void *> device, pinned;
};

/// Offsets of `sizes` packed into one block, each 256-byte aligned (what
/// cuBLASLt and vector loads like); the last entry is the block's size.
std::vector<size_t> packOffsets(const std::vector<size_t> &sizes) {
  std::vector<size_t> offsets;
  size_t end = 0;
  for (size_t size : sizes) {
    offsets.push_back(end);
    end += (size + 255) / 256 * 256;
  }
  offsets.push_back(end);
  return offsets;
}

using amprt::report;

/// splitmix64: small, fast and the same everywhere.
uint64_t nextRandom(uint64_t &state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// Uniform in [-1, 1).
float uniform(uint64_t &state) {
  return static_cast<float>((nextRandom(state) >> 40) * (1.0 / (1ull << 24))) *
             2.0f -
         1.0f;
}

size_t byteSize(const amp_tensor_info &tensor) {
  return static_cast<size_t>(amprt_num_elements(&tensor)) *
         amprt_dtype_size(tensor.dtype);
}

/// Whether result `r` of `function` may be written into its target
/// argument: an update of step state (not the caller's data) of the same
/// type and shape, the only in-place result with that target.
bool isValidInPlaceUpdate(const amp_function_info &function, int32_t r) {
  const amp_tensor_info &result = function.results[r];
  if (result.role != AMP_ROLE_UPDATE || result.target < 0 ||
      result.target >= function.num_args)
    return false;
  const amp_tensor_info &arg = function.args[result.target];
  if (arg.role == AMP_ROLE_DATA || arg.dtype != result.dtype ||
      arg.rank != result.rank || arg.in_place)
    return false;
  for (int32_t d = 0; d < arg.rank; ++d)
    if (arg.shape[d] != result.shape[d])
      return false;
  for (int32_t other = 0; other < r; ++other)
    if (function.results[other].in_place &&
        function.results[other].target == result.target)
      return false;
  return true;
}

/// FNV-1a, one 64-bit word or byte at a time.
constexpr uint64_t kFnvBasis = 1469598103934665603ull;
uint64_t fnvMix(uint64_t hash, uint64_t value) {
  return (hash ^ value) * 1099511628211ull;
}

/// A signature fingerprint: checkpoints only load into the same step.
uint64_t fingerprint(const amp_function_info &step) {
  uint64_t hash = kFnvBasis;
  auto mix = [&](int64_t value) {
    hash = fnvMix(hash, static_cast<uint64_t>(value));
  };
  for (int32_t i = 0; i < step.num_args; ++i) {
    const amp_tensor_info &arg = step.args[i];
    mix(arg.dtype);
    mix(arg.role);
    mix(arg.target);
    for (int32_t d = 0; d < arg.rank; ++d)
      mix(arg.shape[d]);
  }
  return hash;
}

// Checkpoint format 2: magic, header (fingerprint, steps, skipped, number
// of arguments), per argument its byte size and bytes, then the CRC-32
// (zlib) of everything before it, little-endian as the host writes it.
constexpr char kCheckpointMagic[8] = {'A', 'M', 'P', 'C', 'K', 'P', 'T', '2'};
constexpr int kCheckpointHeaderWords = 4;

std::string describeErrno() { return std::strerror(errno); }

/// Writes a checkpoint atomically, streaming (no copy of the state): to a
/// temporary file in the same directory, then synced, renamed over the
/// target, and the directory synced. Nothing at `path` changes unless all
/// of it succeeded; the temporary is removed on failure (and a stale one
/// from an interrupted save is replaced).
class CheckpointWriter {
public:
  /// Opens the temporary next to `path`; false with `reason` on failure.
  bool open(const char *path, std::string &reason) {
    target = path;
    // Only a file is replaced: never a device, a pipe or a directory.
    struct stat info;
    if (::stat(path, &info) == 0 && !S_ISREG(info.st_mode)) {
      reason = "not a regular file";
      return false;
    }
    temporary = target + ".tmp";
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
                0644);
    if (fd < 0) {
      reason = describeErrno();
      return false;
    }
    return true;
  }

  ~CheckpointWriter() {
    if (fd >= 0) {
      ::close(fd);
      ::unlink(temporary.c_str());
    }
  }

  /// Appends `size` bytes and folds them into the checksum.
  void put(const void *data, size_t size) {
    const auto *bytes = static_cast<const unsigned char *>(data);
    crc = crc32Update(crc, bytes, size);
    write(bytes, size);
  }

  /// Writes the checksum, syncs and renames; false with `reason` on any
  /// failure so far.
  bool commit(std::string &reason) {
    uint32_t checksum = static_cast<uint32_t>(crc);
    write(reinterpret_cast<const unsigned char *>(&checksum),
          sizeof(checksum));
    bool ok = error.empty();
    if (ok && ::fsync(fd) != 0)
      error = describeErrno();
    if (::close(fd) != 0 && error.empty())
      error = describeErrno();
    fd = -1;
    if (error.empty() && ::rename(temporary.c_str(), target.c_str()) != 0)
      error = describeErrno();
    if (!error.empty()) {
      ::unlink(temporary.c_str());
      reason = error;
      return false;
    }
    // The rename is durable once the directory is.
    return syncDirectoryOf(target, reason);
  }

  static uLong crc32Update(uLong crc, const unsigned char *data, size_t size) {
    while (size > 0) {
      uInt chunk = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
      crc = crc32(crc, data, chunk);
      data += chunk;
      size -= chunk;
    }
    return crc;
  }

private:
  void write(const unsigned char *data, size_t left) {
    while (left > 0 && error.empty()) {
      ssize_t written = ::write(fd, data, left);
      if (written < 0 && errno == EINTR)
        continue;
      if (written <= 0) {
        error = written < 0 ? describeErrno() : "nothing written";
        return;
      }
      data += written;
      left -= static_cast<size_t>(written);
    }
  }
  static bool syncDirectoryOf(const std::string &path, std::string &reason) {
    size_t slash = path.rfind('/');
    std::string dir = slash == std::string::npos ? "."
                      : slash == 0               ? "/"
                                                 : path.substr(0, slash);
    int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    bool ok = dirFd >= 0 && ::fsync(dirFd) == 0;
    if (!ok)
      reason =
          "written, but its directory cannot be synced: " + describeErrno();
    if (dirFd >= 0)
      ::close(dirFd);
    return ok;
  }

  std::string target, temporary, error;
  int fd = -1;
  uLong crc = crc32(0L, Z_NULL, 0);
};

/// Reads a checkpoint, streaming: a first pass checks its trailing CRC-32
/// before any field is used, the second reads the fields.
class CheckpointReader {
public:
  bool open(const char *path, std::string &reason) {
    in.open(path, std::ios::binary);
    if (!in) {
      reason = describeErrno();
      return false;
    }
    in.seekg(0, std::ios::end);
    std::streamoff end = in.tellg();
    in.seekg(0, std::ios::beg);
    if (!in || end < 0) {
      reason = "cannot find its size";
      return false;
    }
    size = static_cast<uint64_t>(end);
    return true;
  }

  bool verifyChecksum(std::string &reason) {
    if (size < sizeof(kCheckpointMagic) + sizeof(uint32_t)) {
      reason = "truncated (" + std::to_string(size) + " bytes)";
      return false;
    }
    payloadEnd = size - sizeof(uint32_t);
    std::streampos start = in.tellg();
    in.seekg(0, std::ios::beg);
    std::vector<char> chunk(1 << 20);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (uint64_t left = payloadEnd; left > 0;) {
      size_t bytes = static_cast<size_t>(std::min<uint64_t>(chunk.size(), left));
      if (!in.read(chunk.data(), static_cast<std::streamsize>(bytes))) {
        reason = describeErrno();
        return false;
      }
      crc = CheckpointWriter::crc32Update(
          crc, reinterpret_cast<const unsigned char *>(chunk.data()), bytes);
      left -= bytes;
    }
    uint32_t stored;
    if (!in.read(reinterpret_cast<char *>(&stored), sizeof(stored))) {
      reason = describeErrno();
      return false;
    }
    in.seekg(start);
    if (stored != static_cast<uint32_t>(crc)) {
      char text[96];
      std::snprintf(text, sizeof(text),
                    "checksum mismatch (stored %08x, computed %08x): the "
                    "file was changed or cut",
                    stored, static_cast<uint32_t>(crc));
      reason = text;
      return false;
    }
    return true;
  }

  bool get(void *data, uint64_t bytes) {
    uint64_t end = payloadEnd ? payloadEnd : size;
    if (offset > end || bytes > end - offset)
      return false;
    if (!in.read(static_cast<char *>(data), static_cast<std::streamsize>(bytes)))
      return false;
    offset += bytes;
    return true;
  }

  bool atPayloadEnd() const { return offset == payloadEnd; }

private:
  std::ifstream in;
  uint64_t size = 0;
  uint64_t offset = 0;
  uint64_t payloadEnd = 0;
};

/// Why `path` is not a complete 64-bit ELF shared object for this machine,
/// or empty: every header table and loaded segment must lie inside the file
/// (the section headers sit at its end, so a cut anywhere shows).
std::string checkSharedObject(const char *path) {
  int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return describeErrno();
  struct stat info;
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    return "not a regular file";
  }
  uint64_t size = static_cast<uint64_t>(info.st_size);
  auto readAt = [&](void *data, size_t bytes, uint64_t offset) {
    return offset <= size && bytes <= size - offset &&
           ::pread(fd, data, bytes, static_cast<off_t>(offset)) ==
               static_cast<ssize_t>(bytes);
  };
  auto fail = [&](const std::string &why) {
    ::close(fd);
    return why;
  };
  Elf64_Ehdr header;
  if (!readAt(&header, sizeof(header), 0) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0)
    return fail("not an ELF file (" + std::to_string(size) + " bytes)");
  if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN ||
      (header.e_machine != EM_X86_64 && header.e_machine != EM_AARCH64))
    return fail("not a 64-bit shared object for this machine");
  auto tableFits = [&](uint64_t offset, uint64_t count, uint64_t entry) {
    return offset <= size && entry != 0 && count <= (size - offset) / entry;
  };
  if (header.e_phentsize != sizeof(Elf64_Phdr) ||
      !tableFits(header.e_phoff, header.e_phnum, header.e_phentsize))
    return fail("truncated: its program headers lie beyond its " +
                std::to_string(size) + " bytes");
  if (header.e_shnum != 0 &&
      !tableFits(header.e_shoff, header.e_shnum, header.e_shentsize))
    return fail("truncated: its section headers lie beyond its " +
                std::to_string(size) + " bytes");
  // amp-compile's trailer, when there is one: the CRC-32 of the rest.
  amp_artifact_trailer trailer;
  if (size >= sizeof(trailer) &&
      readAt(&trailer, sizeof(trailer), size - sizeof(trailer)) &&
      std::memcmp(trailer.magic, AMP_ARTIFACT_TRAILER_MAGIC,
                  sizeof(trailer.magic)) == 0) {
    if (trailer.size != size - sizeof(trailer))
      return fail("damaged: its trailer counts " + std::to_string(trailer.size) +
                  " bytes, the file has " +
                  std::to_string(size - sizeof(trailer)));
    std::vector<unsigned char> chunk(1 << 20);
    uLong crc = crc32(0L, Z_NULL, 0);
    for (uint64_t offset = 0; offset < trailer.size;) {
      size_t bytes = static_cast<size_t>(
          std::min<uint64_t>(chunk.size(), trailer.size - offset));
      if (!readAt(chunk.data(), bytes, offset))
        return fail("unreadable at byte " + std::to_string(offset));
      crc = CheckpointWriter::crc32Update(crc, chunk.data(), bytes);
      offset += bytes;
    }
    if (static_cast<uint32_t>(crc) != trailer.crc32)
      return fail("damaged: checksum mismatch (the file was changed after "
                  "amp-compile wrote it)");
  }
  for (uint16_t i = 0; i < header.e_phnum; ++i) {
    Elf64_Phdr segment;
    if (!readAt(&segment, sizeof(segment),
                header.e_phoff + uint64_t(i) * sizeof(segment)))
      return fail("unreadable program header " + std::to_string(i));
    if (segment.p_type == PT_LOAD &&
        (segment.p_offset > size || segment.p_filesz > size - segment.p_offset))
      return fail("truncated: a loaded segment ends at byte " +
                  std::to_string(segment.p_offset + segment.p_filesz) +
                  " of " + std::to_string(size));
  }
  ::close(fd);
  return "";
}

} // namespace

extern "C" {

size_t amprt_dtype_size(amp_dtype dtype) {
  switch (dtype) {
  case AMP_F32:
  case AMP_I32:
    return 4;
  case AMP_F16:
  case AMP_BF16:
    return 2;
  case AMP_I1:
    return 1;
  case AMP_F64:
  case AMP_I64:
    return 8;
  }
  return 0;
}

int64_t amprt_num_elements(const amp_tensor_info *tensor) {
  int64_t count = 1;
  for (int32_t d = 0; d < tensor->rank; ++d)
    count *= tensor->shape[d];
  return count;
}

uint16_t amprt_f32_to_f16(float value) { return amprt::floatToHalf(value); }

float amprt_f16_to_f32(uint16_t value) { return amprt::halfToFloat(value); }

uint16_t amprt_f32_to_bf16(float value) {
  return amprt::floatToBfloat16(value);
}

float amprt_bf16_to_f32(uint16_t value) {
  return amprt::bfloat16ToFloat(value);
}

int amprt_check_artifact_file(const char *path, char *error,
                              size_t error_size) {
  std::string problem = checkSharedObject(path);
  if (problem.empty())
    return 0;
  report(error, error_size, "%s", problem.c_str());
  return -1;
}

amprt_artifact *amprt_load(const char *path, char *error, size_t error_size) {
  // dlopen maps a truncated or damaged file and faults when it touches the
  // missing pages: check the file's structure against its size first.
  std::string problem = checkSharedObject(path);
  if (!problem.empty()) {
    report(error, error_size, "cannot load artifact '%s': %s", path,
           problem.c_str());
    return nullptr;
  }
  // dlopen searches the library path for a bare file name: a path the user
  // gave is a file path.
  std::string file = std::strchr(path, '/') ? path : std::string("./") + path;
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    report(error, error_size, "cannot load artifact '%s': %s", path, dlerror());
    return nullptr;
  }
  auto version = reinterpret_cast<int32_t (*)()>(
      dlsym(handle, "amp_artifact_abi_version"));
  auto functions = reinterpret_cast<const amp_function_info *(*)(int32_t *)>(
      dlsym(handle, "amp_artifact_functions"));
  if (!version || !functions) {
    report(error, error_size,
           "'%s' is not an amp artifact (no amp_artifact_abi_version or "
           "amp_artifact_functions)",
           path);
    dlclose(handle);
    return nullptr;
  }
  if (version() != AMP_ARTIFACT_ABI_VERSION) {
    report(error, error_size,
           "artifact '%s' was built for ABI version %d, this runtime reads "
           "version %d: rebuild it with this amp-compile",
           path, version(), AMP_ARTIFACT_ABI_VERSION);
    dlclose(handle);
    return nullptr;
  }
  amprt_artifact device;
  device.alloc = reinterpret_cast<void *(*)(uint64_t)>(
      dlsym(handle, "amp_artifact_alloc"));
  device.free =
      reinterpret_cast<void (*)(void *)>(dlsym(handle, "amp_artifact_free"));
  device.hostAlloc = reinterpret_cast<void *(*)(uint64_t)>(
      dlsym(handle, "amp_artifact_host_alloc"));
  device.hostFree = reinterpret_cast<void (*)(void *)>(
      dlsym(handle, "amp_artifact_host_free"));
  device.copyToDevice = reinterpret_cast<void (*)(void *, const void *,
                                                  uint64_t)>(
      dlsym(handle, "amp_artifact_copy_to_device"));
  device.copyToHost = reinterpret_cast<void (*)(void *, const void *,
                                                uint64_t)>(
      dlsym(handle, "amp_artifact_copy_to_host"));
  device.synchronize =
      reinterpret_cast<void (*)()>(dlsym(handle, "amp_artifact_synchronize"));
  device.captureBegin = reinterpret_cast<int32_t (*)()>(
      dlsym(handle, "amp_artifact_capture_begin"));
  device.captureEnd =
      reinterpret_cast<void *(*)()>(dlsym(handle, "amp_artifact_capture_end"));
  device.graphLaunch = reinterpret_cast<void (*)(void *)>(
      dlsym(handle, "amp_artifact_graph_launch"));
  device.graphDestroy = reinterpret_cast<void (*)(void *)>(
      dlsym(handle, "amp_artifact_graph_destroy"));
  bool anyGraph = device.captureBegin || device.captureEnd ||
                  device.graphLaunch || device.graphDestroy;
  bool allGraph = device.captureBegin && device.captureEnd &&
                  device.graphLaunch && device.graphDestroy;
  if ((anyGraph && !allGraph) || (anyGraph && !device.alloc)) {
    report(error, error_size,
           "artifact '%s' exports only some of the graph entry points "
           "(amp_artifact_capture_begin, _capture_end, _graph_launch, "
           "_graph_destroy, with the device ones)",
           path);
    dlclose(handle);
    return nullptr;
  }
  bool any = device.alloc || device.free || device.hostAlloc ||
             device.hostFree || device.copyToDevice || device.copyToHost ||
             device.synchronize;
  bool all = device.alloc && device.free && device.hostAlloc &&
             device.hostFree && device.copyToDevice && device.copyToHost &&
             device.synchronize;
  if (any && !all) {
    report(error, error_size,
           "artifact '%s' exports only some of the device entry points "
           "(amp_artifact_alloc, _free, _host_alloc, _host_free, "
           "_copy_to_device, _copy_to_host, _synchronize)",
           path);
    dlclose(handle);
    return nullptr;
  }
  int32_t count = 0;
  const amp_function_info *table = functions(&count);
  // Everything below reads the tables without checking again.
  for (int32_t f = 0; f < count; ++f) {
    const amp_function_info &function = table[f];
    bool ok = function.name && function.num_args >= 0 &&
              function.num_results >= 0 && function.call &&
              (!function.init_workspace || function.workspace_bytes);
    for (int32_t i = 0; ok && i < function.num_args + function.num_results;
         ++i) {
      const amp_tensor_info &t = i < function.num_args
                                     ? function.args[i]
                                     : function.results[i - function.num_args];
      ok = t.name && t.rank >= 0 && (t.rank == 0 || t.shape);
      if (ok && t.in_place)
        ok = i >= function.num_args &&
             isValidInPlaceUpdate(function, i - function.num_args);
    }
    if (!ok) {
      report(error, error_size,
             "artifact '%s' has a malformed function table (entry %d)", path,
             f);
      dlclose(handle);
      return nullptr;
    }
  }
  auto *artifact = new amprt_artifact;
  artifact->handle = handle;
  artifact->functions = table;
  artifact->count = count;
  artifact->alloc = device.alloc;
  artifact->free = device.free;
  artifact->hostAlloc = device.hostAlloc;
  artifact->hostFree = device.hostFree;
  artifact->copyToDevice = device.copyToDevice;
  artifact->copyToHost = device.copyToHost;
  artifact->synchronize = device.synchronize;
  artifact->captureBegin = device.captureBegin;
  artifact->captureEnd = device.captureEnd;
  artifact->graphLaunch = device.graphLaunch;
  artifact->graphDestroy = device.graphDestroy;
  return artifact;
}

void amprt_unload(amprt_artifact *artifact) {
  if (!artifact)
    return;
  dlclose(artifact->handle);
  delete artifact;
}

int32_t amprt_num_functions(const amprt_artifact *artifact) {
  return artifact->count;
}

const amp_function_info *amprt_function(const amprt_artifact *artifact,
                                        int32_t index) {
  return index >= 0 && index < artifact->count ? &artifact->functions[index]
                                               : nullptr;
}

const amp_function_info *amprt_find(const amprt_artifact *artifact,
                                    const char *name) {
  for (int32_t i = 0; i < artifact->count; ++i)
    if (std::strcmp(artifact->functions[i].name, name) == 0)
      return &artifact->functions[i];
  return nullptr;
}

int32_t amprt_find_argument(const amp_function_info *function,
                            const char *name) {
  for (int32_t i = 0; i < function->num_args; ++i)
    if (std::strcmp(function->args[i].name, name) == 0)
      return i;
  return -1;
}

int amprt_call(const amprt_artifact *artifact,
               const amp_function_info *function, void **buffers) {
  int32_t count = function->num_args + function->num_results;
  if (!artifact->alloc) {
    // Inputs are only read: an update in place runs on its result's buffer,
    // which starts as a copy of the input.
    std::vector<void *> pointers(buffers, buffers + count);
    for (int32_t r = 0; r < function->num_results; ++r) {
      const amp_tensor_info &result = function->results[r];
      if (!result.in_place)
        continue;
      void *output = buffers[function->num_args + r];
      std::memcpy(output, buffers[result.target], byteSize(result));
      pointers[result.target] = output;
    }
    // A one-off call: its workspace lives as long as the call.
    Buffer workspace;
    if (function->workspace_bytes) {
      workspace = Buffer::pageAligned(function->workspace_bytes);
      if (!workspace.data())
        return -1;
      pointers.push_back(workspace.data());
      if (function->init_workspace &&
          function->init_workspace(workspace.data()) != 0)
        return -1;
    }
    return function->call(pointers.data());
  }
  // A device artifact reads and writes only its own memory: inputs are
  // copied in, results out (an update in place from its input's copy), and
  // the host waits once.
  DeviceBlocks blocks(artifact);
  std::vector<void *> pointers(count);
  if (function->workspace_bytes) {
    pointers.push_back(blocks.allocate(function->workspace_bytes));
    if (function->init_workspace &&
        function->init_workspace(pointers.back()) != 0)
      return -1;
  }
  std::vector<size_t> sizes(count);
  for (int32_t i = 0; i < count; ++i) {
    const amp_tensor_info &tensor =
        i < function->num_args ? function->args[i]
                               : function->results[i - function->num_args];
    sizes[i] = byteSize(tensor);
    if (tensor.in_place) {
      pointers[i] = pointers[tensor.target];
      continue;
    }
    pointers[i] = blocks.allocate(sizes[i]);
    if (i < function->num_args)
      artifact->copyToDevice(pointers[i], buffers[i], sizes[i]);
  }
  int status = function->call(pointers.data());
  for (int32_t i = function->num_args; i < count; ++i)
    artifact->copyToHost(buffers[i], pointers[i], sizes[i]);
  artifact->synchronize();
  return status;
}

int amprt_artifact_on_device(const amprt_artifact *artifact) {
  return artifact->alloc != nullptr;
}

const amp_function_info *amprt_training_step(const amprt_artifact *artifact) {
  for (int32_t i = 0; i < artifact->count; ++i) {
    const amp_function_info &f = artifact->functions[i];
    for (int32_t r = 0; r < f.num_results; ++r)
      if (f.results[r].role == AMP_ROLE_LOSS)
        return &f;
  }
  return nullptr;
}

} // extern "C"

namespace {
/// CUDA graph replay is on unless AMPRT_CUDA_GRAPHS is 0 or off.
bool graphsWanted() {
  const char *value = std::getenv("AMPRT_CUDA_GRAPHS");
  return !value ||
         (std::strcmp(value, "0") != 0 && std::strcmp(value, "off") != 0);
}

/// Whether `tensor` of `step` is read back after every step: the loss, the
/// overflow flag and the loss scaler's state (and its updates).
bool readBackEachStep(const amp_function_info &step,
                      const amp_tensor_info &tensor) {
  switch (tensor.role) {
  case AMP_ROLE_LOSS:
  case AMP_ROLE_FOUND_INF:
  case AMP_ROLE_SCALE:
  case AMP_ROLE_GROWTH:
  case AMP_ROLE_HYSTERESIS:
    return true;
  case AMP_ROLE_UPDATE:
    return tensor.target >= 0 && tensor.target < step.num_args &&
           readBackEachStep(step, step.args[tensor.target]);
  default:
    return false;
  }
}

/// A device artifact's side of a session. The step's buffers live in
/// device memory; the session's host buffers mirror them, fetched when the
/// caller asks (digest, checkpoint, amprt_session_argument) and uploaded
/// before the next step when the caller may have written them. A step is
/// one copy of the batch in (packed in pinned memory), the call, one copy
/// of the loss, overflow flag and scaler state out (packed too), and one
/// wait.
struct DeviceState {
  explicit DeviceState(const amprt_artifact *artifact)
      : artifact(artifact), blocks(artifact) {}
  DeviceState(const DeviceState &) = delete;
  DeviceState &operator=(const DeviceState &) = delete;
  ~DeviceState() {
    // Before the blocks they replay on are freed.
    for (auto &entry : graphs)
      artifact->graphDestroy(entry.second);
  }

  /// How many graphs a session keeps: one per set of buffers a step is
  /// called with: one when updates are in place, else two that alternate
  /// (updates swap with params).
  static constexpr size_t kMaxGraphs = 4;

  const amprt_artifact *artifact;
  DeviceBlocks blocks;
  // The step's graphs, by the buffers they were captured with; captured
  // from the second call on (the first warms the runtime's caches).
  std::vector<std::pair<std::vector<void *>, void *>> graphs;
  bool graphsEnabled = false;
  int64_t calls = 0;
  std::vector<void *> args, results;
  // Per argument: the host mirror holds the device's bytes / the caller
  // was handed the mirror and may have written it.
  std::vector<char> mirrorCurrent, handedOut;
  unsigned char *batchDevice = nullptr, *batchPinned = nullptr;
  size_t batchBytes = 0;
  std::vector<size_t> batchOffsets; // per argument (data only)
  unsigned char *readBackDevice = nullptr, *readBackPinned = nullptr;
  size_t readBackBytes = 0;
  unsigned char *workspace = nullptr; // amp_function_info.workspace_bytes

  /// Where the pinned copy of device `pointer` is, if it is read back.
  unsigned char *readBack(const void *pointer) const {
    auto *byte = static_cast<const unsigned char *>(pointer);
    if (byte < readBackDevice || byte >= readBackDevice + readBackBytes)
      return nullptr;
    return readBackPinned + (byte - readBackDevice);
  }
};
} // namespace

struct amprt_session {
  const amprt_artifact *artifact = nullptr;
  const amp_function_info *step = nullptr;
  // One owned host buffer per non-data argument (for a device artifact, the
  // mirror of its device buffer) and, for a host artifact, per result.
  std::vector<Buffer> args;
  std::vector<Buffer> results;
  Buffer workspace; // a host artifact's amp_function_info.workspace_bytes
  std::unique_ptr<DeviceState> device; // device artifacts only
  std::vector<void *> buffers;
  int64_t steps = 0;
  int64_t skipped = 0;
  float loss = 0.0f;
  int foundInf = 0;
  // Params handed out by amprt_session_argument since the last step, which
  // the caller may have written: their working copies are cast again.
  mutable std::vector<char> paramHandedOut;

  void initialize(uint64_t seed) {
    paramHandedOut.assign(step->num_args, 0);
    uint64_t state = seed;
    for (int32_t i = 0; i < step->num_args; ++i) {
      const amp_tensor_info &arg = step->args[i];
      Buffer &buffer = args[i];
      buffer = Buffer(byteSize(arg));
      if (arg.role == AMP_ROLE_PARAM && arg.dtype == AMP_F32 && arg.rank >= 1 &&
          arg.shape[0] > 1) {
        float bound = 1.0f / std::sqrt(static_cast<float>(arg.shape[0]));
        auto *values = reinterpret_cast<float *>(buffer.data());
        for (int64_t e = 0, n = amprt_num_elements(&arg); e < n; ++e)
          values[e] = bound * uniform(state);
      } else if (arg.role == AMP_ROLE_SCALE) {
        std::memcpy(buffer.data(), &step->initial_scale, 4);
      } else if (arg.role == AMP_ROLE_HYSTERESIS) {
        int32_t count =
            step->initial_hysteresis > 0 ? step->initial_hysteresis : 1;
        std::memcpy(buffer.data(), &count, 4);
      }
    }
    // Working copies start as the cast of their (now initialized) param.
    for (int32_t i = 0; i < step->num_args; ++i)
      if (step->args[i].role == AMP_ROLE_WORKING_COPY)
        castCopy(i);
  }

  /// Casts again the working copies (amp-master-weights{cache-working-
  /// copy}) of params the caller may have written (a front end loading its
  /// weights), which the step would otherwise read stale.
  void refreshWorkingCopies() const {
    for (int32_t i = 0; i < step->num_args; ++i) {
      const amp_tensor_info &copy = step->args[i];
      if (copy.role != AMP_ROLE_WORKING_COPY || copy.target < 0 ||
          !paramHandedOut[copy.target])
        continue;
      castCopy(i);
      if (device) { // the host mirror is now the newer one
        device->mirrorCurrent[i] = 1;
        device->handedOut[i] = 1;
      }
    }
    paramHandedOut.assign(step->num_args, 0);
  }

  void castCopy(int32_t copyIndex) const {
    const amp_tensor_info &copy = step->args[copyIndex];
    const auto *master =
        reinterpret_cast<const float *>(args[copy.target].data());
    auto *low = reinterpret_cast<uint16_t *>(args[copyIndex].data());
    for (int64_t e = 0, n = amprt_num_elements(&copy); e < n; ++e)
      low[e] = copy.dtype == AMP_F16 ? amprt_f32_to_f16(master[e])
                                     : amprt_f32_to_bf16(master[e]);
  }

  /// A device artifact's buffers, the batch and read-back blocks; then
  /// every argument's initial bytes uploaded.
  /// False when the step's workspace initialization fails.
  bool createDeviceBuffers() {
    device = std::make_unique<DeviceState>(artifact);
    DeviceState &d = *device;
    int32_t count = step->num_args + step->num_results;
    auto tensor = [&](int32_t i) -> const amp_tensor_info & {
      return i < step->num_args ? step->args[i]
                                : step->results[i - step->num_args];
    };
    std::vector<size_t> batchSizes, readBackSizes;
    for (int32_t i = 0; i < count; ++i) {
      if (i < step->num_args && step->args[i].role == AMP_ROLE_DATA)
        batchSizes.push_back(byteSize(tensor(i)));
      else if (readBackEachStep(*step, tensor(i)) && !tensor(i).in_place)
        readBackSizes.push_back(byteSize(tensor(i)));
    }
    std::vector<size_t> batchOffsets = packOffsets(batchSizes);
    std::vector<size_t> readBackOffsets = packOffsets(readBackSizes);
    d.batchBytes = batchOffsets.back();
    d.readBackBytes = readBackOffsets.back();
    if (d.batchBytes) {
      d.batchDevice = d.blocks.allocate(d.batchBytes);
      d.batchPinned = d.blocks.allocatePinned(d.batchBytes);
    }
    if (d.readBackBytes) {
      d.readBackDevice = d.blocks.allocate(d.readBackBytes);
      d.readBackPinned = d.blocks.allocatePinned(d.readBackBytes);
    }
    d.args.assign(step->num_args, nullptr);
    d.results.assign(step->num_results, nullptr);
    d.batchOffsets.assign(step->num_args, 0);
    size_t nextBatch = 0, nextReadBack = 0;
    for (int32_t i = 0; i < count; ++i) {
      void *pointer;
      if (i < step->num_args && step->args[i].role == AMP_ROLE_DATA) {
        d.batchOffsets[i] = batchOffsets[nextBatch++];
        continue;
      }
      if (tensor(i).in_place) // arguments come first
        pointer = d.args[tensor(i).target];
      else if (readBackEachStep(*step, tensor(i)))
        pointer = d.readBackDevice + readBackOffsets[nextReadBack++];
      else
        pointer = d.blocks.allocate(byteSize(tensor(i)));
      (i < step->num_args ? d.args[i] : d.results[i - step->num_args]) =
          pointer;
    }
    if (step->workspace_bytes) {
      d.workspace = d.blocks.allocate(step->workspace_bytes);
      // Queued before everything the steps queue: their constants.
      if (step->init_workspace && step->init_workspace(d.workspace) != 0)
        return false;
    }
    d.graphsEnabled = artifact->captureBegin && graphsWanted();
    d.mirrorCurrent.assign(step->num_args, 1);
    d.handedOut.assign(step->num_args, 0);
    for (int32_t i = 0; i < step->num_args; ++i)
      if (step->args[i].role != AMP_ROLE_DATA)
        artifact->copyToDevice(d.args[i], args[i].data(), args[i].size());
    // The read-back block's pinned copy starts as the device's.
    if (d.readBackBytes)
      artifact->copyToHost(d.readBackPinned, d.readBackDevice,
                           d.readBackBytes);
    artifact->synchronize();
    return true;
  }

  /// Makes the host mirrors of a device artifact's arguments (all of them,
  /// or only `only`) hold the device's bytes: one wait.
  void fetchMirrors(int32_t only = -1) const {
    if (!device)
      return;
    DeviceState &d = *device;
    bool queued = false;
    for (int32_t i = 0; i < step->num_args; ++i)
      if ((only < 0 || i == only) && step->args[i].role != AMP_ROLE_DATA &&
          !d.mirrorCurrent[i]) {
        artifact->copyToHost(args[i].data(), d.args[i], args[i].size());
        d.mirrorCurrent[i] = 1;
        queued = true;
      }
    if (queued)
      artifact->synchronize();
  }

  /// Uploads the mirrors the caller may have written (handed out or
  /// loaded); queued, behind nothing the host waits for.
  void uploadHandedOut() {
    DeviceState &d = *device;
    for (int32_t i = 0; i < step->num_args; ++i)
      if (d.handedOut[i]) {
        artifact->copyToDevice(d.args[i], args[i].data(), args[i].size());
        d.handedOut[i] = 0;
      }
  }

  void runOnDevice(const void *const *data) {
    DeviceState &d = *device;
    uploadHandedOut();
    int32_t next = 0;
    for (int32_t i = 0; i < step->num_args; ++i) {
      if (step->args[i].role != AMP_ROLE_DATA) {
        buffers[i] = d.args[i];
        continue;
      }
      std::memcpy(d.batchPinned + d.batchOffsets[i], data[next++],
                  byteSize(step->args[i]));
      buffers[i] = d.batchDevice + d.batchOffsets[i];
    }
    for (int32_t r = 0; r < step->num_results; ++r)
      buffers[step->num_args + r] = step->results[r].in_place
                                        ? d.args[step->results[r].target]
                                        : d.results[r];
    if (d.workspace)
      buffers.back() = d.workspace;
    if (d.batchBytes)
      artifact->copyToDevice(d.batchDevice, d.batchPinned, d.batchBytes);
    launchOnDevice();
    if (d.readBackBytes)
      artifact->copyToHost(d.readBackPinned, d.readBackDevice,
                           d.readBackBytes);
    artifact->synchronize();

    foundInf = 0;
    for (int32_t r = 0; r < step->num_results; ++r) {
      const amp_tensor_info &result = step->results[r];
      const unsigned char *host = d.readBack(d.results[r]);
      if (result.role == AMP_ROLE_LOSS && result.dtype == AMP_F32)
        std::memcpy(&loss, host, 4);
      else if (result.role == AMP_ROLE_FOUND_INF)
        foundInf = host[0] != 0;
      else if (result.role == AMP_ROLE_UPDATE) {
        int32_t target = result.target;
        if (!result.in_place)
          std::swap(d.args[target], d.results[r]);
        // Read back with the loss: the mirror stays current.
        if (const unsigned char *value = d.readBack(d.args[target]))
          std::memcpy(args[target].data(), value, args[target].size());
        else
          d.mirrorCurrent[target] = 0;
      }
    }
  }

  /// Queues the call: replayed from the graph captured for these buffers
  /// when there is one, captured first when there is not; the call itself
  /// on the first step, without graphs, or when the step cannot be
  /// captured.
  void launchOnDevice() {
    DeviceState &d = *device;
    if (d.graphsEnabled && d.calls++ > 0) {
      for (auto &[key, graph] : d.graphs)
        if (key == buffers) {
          artifact->graphLaunch(graph);
          return;
        }
      if (d.graphs.size() < DeviceState::kMaxGraphs &&
          artifact->captureBegin() == 0) {
        step->call(buffers.data()); // recorded, not run
        if (void *graph = artifact->captureEnd()) {
          d.graphs.emplace_back(buffers, graph);
          artifact->graphLaunch(graph);
          return;
        }
        d.graphsEnabled = false; // nothing of it ran: run it directly
      }
    }
    step->call(buffers.data());
  }

  void runOnHost(const void *const *data) {
    int32_t next = 0;
    for (int32_t i = 0; i < step->num_args; ++i)
      buffers[i] = step->args[i].role == AMP_ROLE_DATA
                       ? const_cast<void *>(data[next++])
                       : args[i].data();
    for (int32_t r = 0; r < step->num_results; ++r)
      buffers[step->num_args + r] = step->results[r].in_place
                                        ? buffers[step->results[r].target]
                                        : results[r].data();
    if (workspace.size())
      buffers.back() = workspace.data();
    step->call(buffers.data());

    foundInf = 0;
    for (int32_t r = 0; r < step->num_results; ++r) {
      const amp_tensor_info &result = step->results[r];
      if (result.role == AMP_ROLE_LOSS && result.dtype == AMP_F32)
        std::memcpy(&loss, results[r].data(), 4);
      else if (result.role == AMP_ROLE_FOUND_INF)
        foundInf = results[r].data()[0] != 0;
      else if (result.role == AMP_ROLE_UPDATE && !result.in_place)
        args[result.target].swap(results[r]);
    }
  }
};

extern "C" {

amprt_session *amprt_session_create(const amprt_artifact *artifact,
                                    uint64_t seed, char *error,
                                    size_t error_size) {
  const amp_function_info *step = amprt_training_step(artifact);
  if (!step) {
    report(error, error_size,
           "the artifact has no training step (no function returns an "
           "amp.loss result)");
    return nullptr;
  }
  // amp-compile writes the scaler's start for every step that has one.
  for (int32_t i = 0; i < step->num_args; ++i)
    if (step->args[i].role == AMP_ROLE_SCALE && !(step->initial_scale > 0)) {
      report(error, error_size,
             "the training step '%s' has a loss-scale argument but no "
             "positive initial scale",
             step->name);
      return nullptr;
    }
  auto *session = new amprt_session;
  session->artifact = artifact;
  session->step = step;
  session->args.resize(step->num_args);
  session->buffers.assign(step->num_args + step->num_results +
                              (step->workspace_bytes ? 1 : 0),
                          nullptr);
  session->initialize(seed);
  if (artifact->alloc) {
    if (!session->createDeviceBuffers()) {
      report(error, error_size,
             "the workspace initialization of the training step '%s' failed",
             step->name);
      delete session;
      return nullptr;
    }
  } else {
    // An update in place has no buffer of its own: the session holds its
    // state once.
    session->results.resize(step->num_results);
    for (int32_t r = 0; r < step->num_results; ++r)
      if (!step->results[r].in_place)
        session->results[r] = Buffer(byteSize(step->results[r]));
    if (step->workspace_bytes) {
      session->workspace = Buffer::pageAligned(step->workspace_bytes);
      if (!session->workspace.data()) {
        report(error, error_size,
               "cannot allocate the %llu-byte workspace of the training "
               "step '%s'",
               static_cast<unsigned long long>(step->workspace_bytes),
               step->name);
        delete session;
        return nullptr;
      }
      if (step->init_workspace &&
          step->init_workspace(session->workspace.data()) != 0) {
        report(error, error_size,
               "the workspace initialization of the training step '%s' "
               "failed",
               step->name);
        delete session;
        return nullptr;
      }
    }
  }
  return session;
}

void amprt_session_destroy(amprt_session *session) { delete session; }

const amp_function_info *amprt_session_step_info(const amprt_session *session) {
  return session->step;
}

int amprt_session_step(amprt_session *session, const void *const *data) {
  session->refreshWorkingCopies();
  if (session->device)
    session->runOnDevice(data);
  else
    session->runOnHost(data);
  ++session->steps;
  session->skipped += session->foundInf;
  return 0;
}

void amprt_session_skip(amprt_session *session) {
  session->foundInf = 1;
  session->loss = NAN;
  ++session->steps;
  ++session->skipped;
}

float amprt_session_loss(const amprt_session *session) { return session->loss; }
int amprt_session_found_inf(const amprt_session *session) {
  return session->foundInf;
}
int64_t amprt_session_steps(const amprt_session *session) {
  return session->steps;
}
int64_t amprt_session_skipped(const amprt_session *session) {
  return session->skipped;
}

float amprt_session_scale(const amprt_session *session) {
  const amp_function_info &step = *session->step;
  for (int32_t i = 0; i < step.num_args; ++i)
    if (step.args[i].role == AMP_ROLE_SCALE) {
      float scale;
      std::memcpy(&scale, session->args[i].data(), 4);
      return scale;
    }
  return 1.0f;
}

uint64_t amprt_session_digest(const amprt_session *session, amp_role role) {
  const amp_function_info &step = *session->step;
  session->fetchMirrors();
  uint64_t digest = kFnvBasis;
  for (int32_t i = 0; i < step.num_args; ++i)
    if (step.args[i].role == role && role != AMP_ROLE_DATA)
      for (unsigned char byte : session->args[i])
        digest = fnvMix(digest, byte);
  return digest;
}

void *amprt_session_argument(amprt_session *session, int32_t index) {
  if (index < 0 || index >= session->step->num_args ||
      session->step->args[index].role == AMP_ROLE_DATA)
    return nullptr;
  if (session->device) {
    // The caller may write the mirror: it goes up before the next step.
    session->fetchMirrors(index);
    session->device->handedOut[index] = 1;
  }
  if (session->step->args[index].role == AMP_ROLE_PARAM)
    session->paramHandedOut[index] = 1;
  return session->args[index].data();
}

int amprt_session_save(const amprt_session *session, const char *path,
                       char *error, size_t error_size) {
  const amp_function_info &step = *session->step;
  session->refreshWorkingCopies();
  session->fetchMirrors();
  CheckpointWriter out;
  std::string reason;
  if (!out.open(path, reason)) {
    report(error, error_size, "cannot write checkpoint '%s': %s", path,
           reason.c_str());
    return -1;
  }
  out.put(kCheckpointMagic, sizeof(kCheckpointMagic));
  uint64_t header[kCheckpointHeaderWords] = {
      fingerprint(step), static_cast<uint64_t>(session->steps),
      static_cast<uint64_t>(session->skipped),
      static_cast<uint64_t>(step.num_args)};
  out.put(header, sizeof(header));
  for (int32_t i = 0; i < step.num_args; ++i) {
    uint64_t size =
        step.args[i].role == AMP_ROLE_DATA ? 0 : session->args[i].size();
    out.put(&size, sizeof(size));
    out.put(session->args[i].data(), size);
  }
  if (!out.commit(reason)) {
    report(error, error_size, "cannot write checkpoint '%s': %s", path,
           reason.c_str());
    return -1;
  }
  return 0;
}

int amprt_session_load(amprt_session *session, const char *path, char *error,
                       size_t error_size) {
  CheckpointReader in;
  std::string reason;
  if (!in.open(path, reason)) {
    report(error, error_size, "cannot read checkpoint '%s': %s", path,
           reason.c_str());
    return -1;
  }
  auto corrupt = [&](const std::string &what) {
    report(error, error_size, "checkpoint '%s' is corrupt: %s", path,
           what.c_str());
    return -1;
  };
  char magic[sizeof(kCheckpointMagic)];
  if (!in.get(magic, sizeof(magic)) ||
      std::memcmp(magic, kCheckpointMagic, sizeof(magic) - 1) != 0) {
    report(error, error_size, "'%s' is not an amp checkpoint", path);
    return -1;
  }
  if (magic[sizeof(magic) - 1] != kCheckpointMagic[sizeof(magic) - 1]) {
    report(error, error_size,
           "checkpoint '%s' has format %c; this runtime reads format %c "
           "(with a checksum): resume it with the amp-mlir that wrote it",
           path, magic[sizeof(magic) - 1],
           kCheckpointMagic[sizeof(magic) - 1]);
    return -1;
  }
  // The checksum covers everything before it: check it before trusting any
  // field, so that a flipped bit is reported as such.
  if (!in.verifyChecksum(reason))
    return corrupt(reason);
  uint64_t header[kCheckpointHeaderWords];
  if (!in.get(header, sizeof(header)))
    return corrupt("truncated header");
  const amp_function_info &step = *session->step;
  if (header[0] != fingerprint(step) ||
      header[3] != static_cast<uint64_t>(step.num_args)) {
    report(error, error_size,
           "checkpoint '%s' does not match the model: it was written for a "
           "training step with other arguments (shapes, types or roles)",
           path);
    return -1;
  }
  auto steps = static_cast<int64_t>(header[1]);
  auto skipped = static_cast<int64_t>(header[2]);
  if (steps < 0 || skipped < 0 || skipped > steps)
    return corrupt("impossible counters (steps " + std::to_string(steps) +
                   ", skipped " + std::to_string(skipped) + ")");
  std::vector<Buffer> args(step.num_args);
  for (int32_t i = 0; i < step.num_args; ++i) {
    uint64_t size = 0;
    uint64_t expected =
        step.args[i].role == AMP_ROLE_DATA ? 0 : session->args[i].size();
    if (!in.get(&size, sizeof(size)) || size != expected)
      return corrupt("argument " + std::to_string(i) + " has " +
                     std::to_string(size) + " bytes, the model " +
                     std::to_string(expected));
    args[i] = Buffer(size);
    if (!in.get(args[i].data(), size))
      return corrupt("truncated in argument " + std::to_string(i));
  }
  if (!in.atPayloadEnd())
    return corrupt("unexpected bytes after the last argument");
  for (int32_t i = 0; i < step.num_args; ++i)
    if (step.args[i].role != AMP_ROLE_DATA) {
      session->args[i].swap(args[i]);
      if (session->device) {
        // The device's bytes are replaced before the next step.
        session->device->mirrorCurrent[i] = 1;
        session->device->handedOut[i] = 1;
      }
    }
  // The checkpoint's working copies are those of its params.
  session->paramHandedOut.assign(step.num_args, 0);
  session->steps = steps;
  session->skipped = skipped;
  return 0;
}

} // extern "C"
