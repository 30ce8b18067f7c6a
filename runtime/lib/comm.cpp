//===- comm.cpp - the communicator of data-parallel steps -----------------===//
//
// One communicator per process (amprt_comm.h): "none" in libamprt itself,
// "mpi" loaded from libamprt_mpi.so beside libamprt. The entry points of
// amprt_collectives.def, which compiled steps call, reduce through it.
//
//===----------------------------------------------------------------------===//

#include "amprt_comm.h"

#include "amprt.h"
#include "comm_backend.h"
#include "float_convert.h"
#include "report.h"
#include "strided_memref.h"

#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

using amprt::report;

int noneAllReduce(void *, int64_t, amp_dtype, amprt_reduction, char *,
                  size_t) {
  return 0;
}
int noneBroadcast(void *, int64_t, int, char *, size_t) { return 0; }
int noneBarrier(char *, size_t) { return 0; }
void noneFinalize() {}

const amprt_comm_ops kNone = {"none",        0,           1,
                              1,             noneAllReduce, noneBroadcast,
                              noneBarrier,   noneFinalize};

const amprt_comm_ops *backend = &kNone;
bool chosen = false;
std::atomic<int64_t> stepCalls{0}, stepBytes{0};

/// Whether a launcher started this process as one of several ranks.
bool launchedByMpirun() {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"})
    if (std::getenv(name))
      return true;
  return false;
}

/// `name` (a backend library) from libamprt's own directory, else the
/// loader's path.
void *openBackendLibrary(const std::string &name, std::string &why) {
  Dl_info self{};
  std::vector<std::string> candidates;
  if (dladdr(reinterpret_cast<void *>(&amprt_comm_init), &self) &&
      self.dli_fname) {
    std::string path = self.dli_fname;
    size_t slash = path.rfind('/');
    if (slash != std::string::npos)
      candidates.push_back(path.substr(0, slash + 1) + name);
  }
  candidates.push_back(name);
  for (const std::string &candidate : candidates) {
    // RTLD_GLOBAL: Open MPI loads its own components, which look for the
    // symbols of libmpi in the global scope.
    if (void *handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_GLOBAL))
      return handle;
    const char *message = dlerror();
    why = message ? message : "unknown dlopen error";
  }
  return nullptr;
}

bool supports(amp_dtype dtype, amprt_reduction reduction) {
  switch (dtype) {
  case AMP_F32:
  case AMP_F16:
  case AMP_BF16:
    return reduction == AMPRT_REDUCE_SUM || reduction == AMPRT_REDUCE_MEAN ||
           reduction == AMPRT_REDUCE_MAX;
  case AMP_I32:
    return reduction == AMPRT_REDUCE_SUM || reduction == AMPRT_REDUCE_MAX;
  case AMP_I1:
    return reduction == AMPRT_REDUCE_MAX;
  default:
    return false;
  }
}

/// Divides the 16-bit `values` by `divisor`, rounding once: one loop per
/// type, so that it vectorizes.
template <bool Half>
void divide16(uint16_t *values, int64_t count, float divisor) {
  for (int64_t i = 0; i < count; ++i) {
    float value =
        Half ? amprt::halfToFloat(values[i]) : amprt::bfloat16ToFloat(values[i]);
    value /= divisor;
    values[i] =
        Half ? amprt::floatToHalf(value) : amprt::floatToBfloat16(value);
  }
}

/// Divides `buffer` by the number of ranks, rounding once.
void divideBySize(void *buffer, int64_t count, amp_dtype dtype, int size) {
  float divisor = static_cast<float>(size);
  if (dtype == AMP_F32) {
    auto *values = static_cast<float *>(buffer);
    for (int64_t i = 0; i < count; ++i)
      values[i] /= divisor;
  } else if (dtype == AMP_F16) {
    divide16<true>(static_cast<uint16_t *>(buffer), count, divisor);
  } else {
    divide16<false>(static_cast<uint16_t *>(buffer), count, divisor);
  }
}

/// What a compiled step's collective does: reduce or stop the process. A
/// rank that went on alone would wait forever in its next collective, or
/// train a replica that differs from the others.
template <typename T>
void reduceStepBuffer(StridedMemRef<T, 1> *buffer, int32_t reduction,
                      amp_dtype dtype) {
  int64_t count = buffer->sizes[0];
  stepCalls.fetch_add(1, std::memory_order_relaxed);
  stepBytes.fetch_add(count * static_cast<int64_t>(sizeof(T)),
                      std::memory_order_relaxed);
  if (backend->size == 1 || count == 0)
    return;
  T *data = buffer->aligned + buffer->offset;
  // The packed bucket is contiguous by construction; anything else is
  // staged through a dense copy.
  std::vector<T> staged;
  bool dense = buffer->strides[0] == 1;
  if (!dense) {
    staged.resize(count);
    for (int64_t i = 0; i < count; ++i)
      staged[i] = data[i * buffer->strides[0]];
  }
  char error[512];
  if (amprt_comm_all_reduce(dense ? data : staged.data(), count, dtype,
                            static_cast<amprt_reduction>(reduction), error,
                            sizeof error) != 0) {
    std::fprintf(stderr,
                 "libamprt: rank %d: the step's all-reduce failed: %s\n",
                 backend->rank, error);
    std::abort();
  }
  if (!dense)
    for (int64_t i = 0; i < count; ++i)
      data[i * buffer->strides[0]] = staged[i];
}

} // namespace

extern "C" {

int amprt_comm_init(const char *name, char *error, size_t error_size) {
  if (chosen) {
    report(error, error_size,
             "the communicator was already chosen (%s); it is chosen once "
             "per process",
             backend->name);
    return -1;
  }
  std::string choice = name ? name : "auto";
  if (choice == "auto")
    choice = launchedByMpirun() ? "mpi" : "none";
  if (choice == "none") {
    chosen = true;
    return 0;
  }
  if (choice != "mpi" && choice != "nccl") {
    report(error, error_size,
           "unknown communicator '%s' (none, mpi, nccl or auto)",
           choice.c_str());
    return -1;
  }
  bool nccl = choice == "nccl";
  std::string library = nccl ? "libamprt_nccl.so" : "libamprt_mpi.so";
  std::string why;
  void *handle = openBackendLibrary(library, why);
  if (!handle) {
    report(error, error_size,
           "cannot load %s (this libamprt was built without %s, or its "
           "libraries are not installed): %s",
           library.c_str(), nccl ? "NCCL, CUDA and MPI" : "MPI", why.c_str());
    return -1;
  }
  const char *entry = nccl ? AMPRT_COMM_NCCL_OPEN : AMPRT_COMM_MPI_OPEN;
  auto open = reinterpret_cast<amprt_comm_open_fn>(dlsym(handle, entry));
  if (!open) {
    report(error, error_size, "%s does not export %s", library.c_str(),
           entry);
    return -1;
  }
  const amprt_comm_ops *opened = open(error, error_size);
  if (!opened)
    return -1;
  backend = opened;
  chosen = true;
  stepCalls = 0;
  stepBytes = 0;
  return 0;
}

void amprt_comm_finalize(void) {
  backend->finalize();
  backend = &kNone;
}

const char *amprt_comm_backend(void) { return backend->name; }
int amprt_comm_rank(void) { return backend->rank; }
int amprt_comm_size(void) { return backend->size; }

int amprt_comm_all_reduce(void *buffer, int64_t count, amp_dtype dtype,
                          amprt_reduction reduction, char *error,
                          size_t error_size) {
  if (!supports(dtype, reduction)) {
    report(error, error_size,
             "no all-reduce %d of dtype %d (f32/f16/bf16: sum, mean, max; "
             "i32: sum, max; i1: max)",
             static_cast<int>(reduction), static_cast<int>(dtype));
    return -1;
  }
  if (count < 0 || (count > 0 && !buffer)) {
    report(error, error_size, "bad buffer (count %lld)",
             static_cast<long long>(count));
    return -1;
  }
  if (backend->size == 1 || count == 0)
    return 0;
  bool divide = reduction == AMPRT_REDUCE_MEAN && !backend->averages;
  // A 16-bit mean divides first: the sum of N values, each within range,
  // can overflow (f16's 65504: scaled gradients often come close), the sum
  // of their N-ths cannot. f32 divides the sum, rounding once.
  bool divideFirst = divide && dtype != AMP_F32;
  if (divideFirst)
    divideBySize(buffer, count, dtype, backend->size);
  if (backend->all_reduce(buffer, count, dtype,
                          divide ? AMPRT_REDUCE_SUM : reduction, error,
                          error_size) != 0)
    return -1;
  if (divide && !divideFirst)
    divideBySize(buffer, count, dtype, backend->size);
  return 0;
}

int amprt_comm_broadcast(void *buffer, int64_t bytes, int root, char *error,
                         size_t error_size) {
  if (root < 0 || root >= backend->size || bytes < 0 ||
      (bytes > 0 && !buffer)) {
    report(error, error_size, "bad broadcast (root %d of %d, %lld bytes)",
             root, backend->size, static_cast<long long>(bytes));
    return -1;
  }
  if (backend->size == 1 || bytes == 0)
    return 0;
  return backend->broadcast(buffer, bytes, root, error, error_size);
}

int amprt_comm_barrier(char *error, size_t error_size) {
  return backend->barrier(error, error_size);
}

int64_t amprt_comm_step_calls(void) { return stepCalls.load(); }
int64_t amprt_comm_step_bytes(void) { return stepBytes.load(); }

#define AMPRT_ALL_REDUCE(NAME, ELEMENT_TYPE, C_TYPE, DTYPE)                    \
  void _mlir_ciface_amp_rt_##NAME(StridedMemRef<C_TYPE, 1> *buffer,            \
                                  int32_t reduction) {                         \
    reduceStepBuffer(buffer, reduction, DTYPE);                                \
  }
#include "amprt_collectives.def"

} // extern "C"
