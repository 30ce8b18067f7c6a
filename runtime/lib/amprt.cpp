//===- amprt.cpp - libamprt: load amp artifacts and train with them -------===//
//
// No MLIR or LLVM here: only the C library and dlopen.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"

#include <dlfcn.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

struct amprt_artifact {
  void *handle = nullptr;
  const amp_function_info *functions = nullptr;
  int32_t count = 0;
  // A device artifact's allocator (amp_artifact_alloc/free): every buffer
  // it is given must come from it. Null for host artifacts.
  void *(*alloc)(uint64_t) = nullptr;
  void (*free)(void *) = nullptr;
};

namespace {

/// Bytes owned by a session, from the artifact's allocator when it has one
/// (device-reachable memory), else from the C heap. Zero-filled.
class Buffer {
public:
  Buffer() = default;
  Buffer(const amprt_artifact *artifact, size_t bytes)
      : artifact(artifact), bytes(bytes) {
    // One byte at least: a distinct, valid address for empty tensors.
    void *memory = artifact->alloc ? artifact->alloc(bytes ? bytes : 1)
                                   : std::calloc(bytes ? bytes : 1, 1);
    pointer = static_cast<unsigned char *>(memory);
    if (artifact->alloc)
      std::memset(pointer, 0, bytes);
  }
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  Buffer(Buffer &&other) noexcept { swap(other); }
  Buffer &operator=(Buffer &&other) noexcept {
    swap(other);
    return *this;
  }
  ~Buffer() {
    if (!pointer)
      return;
    if (artifact->free)
      artifact->free(pointer);
    else
      std::free(pointer);
  }
  void swap(Buffer &other) noexcept {
    std::swap(artifact, other.artifact);
    std::swap(pointer, other.pointer);
    std::swap(bytes, other.bytes);
  }
  unsigned char *data() const { return pointer; }
  size_t size() const { return bytes; }
  unsigned char *begin() const { return pointer; }
  unsigned char *end() const { return pointer + bytes; }

private:
  const amprt_artifact *artifact = nullptr;
  unsigned char *pointer = nullptr;
  size_t bytes = 0;
};

/// Writes a printf-style message into a caller's error buffer.
void report(char *error, size_t size, const char *format, ...) {
  if (!error || size == 0)
    return;
  va_list args;
  va_start(args, format);
  std::vsnprintf(error, size, format, args);
  va_end(args);
}

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

constexpr char kCheckpointMagic[8] = {'A', 'M', 'P', 'C', 'K', 'P', 'T', '1'};

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

uint16_t amprt_f32_to_f16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t exponent = (bits >> 23) & 0xFFu;
  uint32_t mantissa = bits & 0x7FFFFFu;
  if (exponent == 0xFFu) // inf or NaN (keep NaN quiet)
    return static_cast<uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u : 0u));
  int32_t e = static_cast<int32_t>(exponent) - 127 + 15;
  if (e >= 0x1F)
    return static_cast<uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10)
      return static_cast<uint16_t>(sign);
    mantissa |= 0x800000u;
    uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mantissa >> shift;
    uint32_t rest = mantissa & ((1u << shift) - 1);
    uint32_t midpoint = 1u << (shift - 1);
    if (rest > midpoint || (rest == midpoint && (half & 1u)))
      ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
  uint32_t rest = mantissa & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, up to inf: correct rounding
  return static_cast<uint16_t>(sign | half);
}

float amprt_f16_to_f32(uint16_t value) {
  uint32_t sign = (value & 0x8000u) << 16;
  uint32_t exponent = (value >> 10) & 0x1Fu;
  uint32_t mantissa = value & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1Fu) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {
      int32_t e = -1;
      do {
        ++e;
        mantissa <<= 1;
      } while (!(mantissa & 0x400u));
      bits = sign | (static_cast<uint32_t>(127 - 15 - e) << 23) |
             ((mantissa & 0x3FFu) << 13);
    }
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

uint16_t amprt_f32_to_bf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, 4);
  if ((bits & 0x7FFFFFFFu) > 0x7F800000u) // NaN stays a quiet NaN
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  uint32_t rounding = 0x7FFFu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float amprt_bf16_to_f32(uint16_t value) {
  uint32_t bits = static_cast<uint32_t>(value) << 16;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

amprt_artifact *amprt_load(const char *path, char *error, size_t error_size) {
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
  auto alloc = reinterpret_cast<void *(*)(uint64_t)>(
      dlsym(handle, "amp_artifact_alloc"));
  auto release =
      reinterpret_cast<void (*)(void *)>(dlsym(handle, "amp_artifact_free"));
  if (!alloc != !release) {
    report(error, error_size,
           "artifact '%s' exports only one of amp_artifact_alloc and "
           "amp_artifact_free",
           path);
    dlclose(handle);
    return nullptr;
  }
  auto *artifact = new amprt_artifact;
  artifact->handle = handle;
  artifact->functions = functions(&artifact->count);
  artifact->alloc = alloc;
  artifact->free = release;
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

int amprt_call(const amprt_artifact *artifact,
               const amp_function_info *function, void **buffers) {
  if (!artifact->alloc)
    return function->call(buffers);
  // A device artifact reads and writes only its own memory: stage inputs
  // in, results out.
  int32_t count = function->num_args + function->num_results;
  std::vector<Buffer> staged;
  std::vector<void *> pointers(count);
  staged.reserve(count);
  for (int32_t i = 0; i < count; ++i) {
    const amp_tensor_info &tensor =
        i < function->num_args ? function->args[i]
                               : function->results[i - function->num_args];
    staged.emplace_back(artifact, byteSize(tensor));
    if (i < function->num_args)
      std::memcpy(staged.back().data(), buffers[i], staged.back().size());
    pointers[i] = staged.back().data();
  }
  int status = function->call(pointers.data());
  for (int32_t i = function->num_args; i < count; ++i)
    std::memcpy(buffers[i], staged[i].data(), staged[i].size());
  return status;
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

struct amprt_session {
  const amprt_artifact *artifact = nullptr;
  const amp_function_info *step = nullptr;
  // One owned buffer per non-data argument and per result; data slots are
  // filled by each call (through a staging copy for a device artifact,
  // which cannot read the caller's memory).
  std::vector<Buffer> args;
  std::vector<Buffer> results;
  std::vector<Buffer> staged;
  std::vector<void *> buffers;
  int64_t steps = 0;
  int64_t skipped = 0;
  float loss = 0.0f;
  int foundInf = 0;

  void initialize(uint64_t seed) {
    uint64_t state = seed;
    for (int32_t i = 0; i < step->num_args; ++i) {
      const amp_tensor_info &arg = step->args[i];
      Buffer &buffer = args[i];
      buffer = Buffer(artifact, byteSize(arg));
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

  void castCopy(int32_t copyIndex) {
    const amp_tensor_info &copy = step->args[copyIndex];
    const auto *master =
        reinterpret_cast<const float *>(args[copy.target].data());
    auto *low = reinterpret_cast<uint16_t *>(args[copyIndex].data());
    for (int64_t e = 0, n = amprt_num_elements(&copy); e < n; ++e)
      low[e] = copy.dtype == AMP_F16 ? amprt_f32_to_f16(master[e])
                                     : amprt_f32_to_bf16(master[e]);
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
  session->results.resize(step->num_results);
  for (int32_t r = 0; r < step->num_results; ++r)
    session->results[r] = Buffer(artifact, byteSize(step->results[r]));
  if (artifact->alloc) {
    session->staged.resize(step->num_args);
    for (int32_t i = 0; i < step->num_args; ++i)
      if (step->args[i].role == AMP_ROLE_DATA)
        session->staged[i] = Buffer(artifact, byteSize(step->args[i]));
  }
  session->buffers.assign(step->num_args + step->num_results, nullptr);
  session->initialize(seed);
  return session;
}

void amprt_session_destroy(amprt_session *session) { delete session; }

const amp_function_info *amprt_session_step_info(const amprt_session *session) {
  return session->step;
}

int amprt_session_step(amprt_session *session, const void *const *data) {
  const amp_function_info &step = *session->step;
  int32_t next = 0;
  for (int32_t i = 0; i < step.num_args; ++i) {
    if (step.args[i].role != AMP_ROLE_DATA) {
      session->buffers[i] = session->args[i].data();
    } else if (session->staged.empty()) {
      session->buffers[i] = const_cast<void *>(data[next++]);
    } else {
      std::memcpy(session->staged[i].data(), data[next++],
                  session->staged[i].size());
      session->buffers[i] = session->staged[i].data();
    }
  }
  for (int32_t r = 0; r < step.num_results; ++r)
    session->buffers[step.num_args + r] = session->results[r].data();
  step.call(session->buffers.data());

  session->foundInf = 0;
  for (int32_t r = 0; r < step.num_results; ++r) {
    const amp_tensor_info &result = step.results[r];
    if (result.role == AMP_ROLE_LOSS && result.dtype == AMP_F32)
      std::memcpy(&session->loss, session->results[r].data(), 4);
    else if (result.role == AMP_ROLE_FOUND_INF)
      session->foundInf = session->results[r].data()[0] != 0;
    else if (result.role == AMP_ROLE_UPDATE)
      session->args[result.target].swap(session->results[r]);
  }
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
  return session->args[index].data();
}

int amprt_session_save(const amprt_session *session, const char *path,
                       char *error, size_t error_size) {
  std::string temporary = std::string(path) + ".tmp";
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  if (!out) {
    report(error, error_size, "cannot write checkpoint '%s'", path);
    return -1;
  }
  const amp_function_info &step = *session->step;
  uint64_t header[4] = {fingerprint(step),
                        static_cast<uint64_t>(session->steps),
                        static_cast<uint64_t>(session->skipped),
                        static_cast<uint64_t>(step.num_args)};
  out.write(kCheckpointMagic, sizeof(kCheckpointMagic));
  out.write(reinterpret_cast<const char *>(header), sizeof(header));
  for (int32_t i = 0; i < step.num_args; ++i) {
    uint64_t size =
        step.args[i].role == AMP_ROLE_DATA ? 0 : session->args[i].size();
    out.write(reinterpret_cast<const char *>(&size), sizeof(size));
    out.write(reinterpret_cast<const char *>(session->args[i].data()),
              static_cast<std::streamsize>(size));
  }
  out.close();
  // Written whole, then renamed: an interrupted save loses nothing.
  if (!out || std::rename(temporary.c_str(), path) != 0) {
    std::remove(temporary.c_str());
    report(error, error_size, "cannot write checkpoint '%s'", path);
    return -1;
  }
  return 0;
}

int amprt_session_load(amprt_session *session, const char *path, char *error,
                       size_t error_size) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    report(error, error_size, "cannot read checkpoint '%s'", path);
    return -1;
  }
  char magic[sizeof(kCheckpointMagic)];
  uint64_t header[4];
  in.read(magic, sizeof(magic));
  in.read(reinterpret_cast<char *>(header), sizeof(header));
  if (!in || std::memcmp(magic, kCheckpointMagic, sizeof(magic)) != 0) {
    report(error, error_size, "'%s' is not an amp checkpoint", path);
    return -1;
  }
  const amp_function_info &step = *session->step;
  if (header[0] != fingerprint(step) ||
      header[3] != static_cast<uint64_t>(step.num_args)) {
    report(error, error_size,
           "checkpoint '%s' does not match the model: it was written for a "
           "training step with other arguments (shapes, types or roles)",
           path);
    return -1;
  }
  std::vector<Buffer> args(step.num_args);
  for (int32_t i = 0; i < step.num_args; ++i) {
    uint64_t size = 0;
    in.read(reinterpret_cast<char *>(&size), sizeof(size));
    uint64_t expected =
        step.args[i].role == AMP_ROLE_DATA ? 0 : session->args[i].size();
    if (!in || size != expected) {
      report(error, error_size,
             "checkpoint '%s' is truncated or does not match argument %d", path,
             i);
      return -1;
    }
    args[i] = Buffer(session->artifact, size);
    in.read(reinterpret_cast<char *>(args[i].data()),
            static_cast<std::streamsize>(size));
    if (!in) {
      report(error, error_size, "checkpoint '%s' is truncated", path);
      return -1;
    }
  }
  for (int32_t i = 0; i < step.num_args; ++i)
    if (step.args[i].role != AMP_ROLE_DATA)
      session->args[i].swap(args[i]);
  session->steps = static_cast<int64_t>(header[1]);
  session->skipped = static_cast<int64_t>(header[2]);
  return 0;
}

} // extern "C"
