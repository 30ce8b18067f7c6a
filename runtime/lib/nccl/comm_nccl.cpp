//===- comm_nccl.cpp - libamprt_nccl: the NCCL communicator backend ------===//
//
// Loaded by amprt_comm_init("nccl") for CUDA artifacts, whose buffers live
// in GPU memory. Bootstrapped over MPI, the standard way: rank 0 makes the
// NCCL unique id and MPI broadcasts it; every rank then joins one NCCL
// communicator on the GPU of its local rank. NCCL and the CUDA driver are
// loaded with dlopen (libnccl.so.2, e.g. from PyPI's nvidia-nccl-cu13, and
// libcuda.so.1; $AMPRT_NCCL_LIBRARY and $AMPRT_CUDA_DRIVER_LIBRARY name
// others), so that the library builds and loads without them. Reductions
// run on the legacy default stream and are waited for before returning:
// the step's next op reads the result.
//
//===----------------------------------------------------------------------===//

#include "comm_backend.h"
#include "mpi_world.h"

#include <cuda.h>
#include <mpi.h>
#include <nccl.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

/// The entry points used, resolved from the loaded libraries.
struct Api {
  decltype(&ncclGetUniqueId) getUniqueId;
  decltype(&ncclCommInitRank) commInitRank;
  decltype(&ncclAllReduce) allReduce;
  decltype(&ncclBroadcast) broadcast;
  decltype(&ncclCommDestroy) commDestroy;
  decltype(&ncclGetErrorString) errorString;
  decltype(&cuInit) init;
  decltype(&cuDeviceGetCount) deviceCount;
  decltype(&cuDeviceGet) deviceGet;
  decltype(&cuDevicePrimaryCtxRetain) retainContext;
  decltype(&cuCtxSetCurrent) setContext;
  decltype(&cuStreamSynchronize) synchronize;
} api;

ncclComm_t comm = nullptr;
amprt::MpiWorld world;
amprt_comm_ops table;

template <typename T>
bool resolve(void *library, const char *name, T &slot, char *error,
             size_t size) {
  slot = reinterpret_cast<T>(dlsym(library, name));
  if (!slot)
    std::snprintf(error, size, "NCCL backend: %s not found", name);
  return slot != nullptr;
}

void *openLibrary(const char *variable, const char *fallback, char *error,
                  size_t size) {
  const char *path = std::getenv(variable);
  void *library = dlopen(path ? path : fallback, RTLD_NOW | RTLD_GLOBAL);
  if (!library)
    std::snprintf(error, size, "NCCL backend: cannot load %s (%s): %s",
                  path ? path : fallback,
                  path ? variable : "set $AMPRT_NCCL_LIBRARY or "
                                    "LD_LIBRARY_PATH",
                  dlerror());
  return library;
}

bool check(ncclResult_t result, const char *what, char *error, size_t size) {
  if (result == ncclSuccess)
    return true;
  std::snprintf(error, size, "%s: %s", what, api.errorString(result));
  return false;
}

bool checkDriver(CUresult result, const char *what, char *error,
                 size_t size) {
  if (result == CUDA_SUCCESS)
    return true;
  std::snprintf(error, size, "%s failed (CUDA error %d)", what,
                static_cast<int>(result));
  return false;
}

int allReduce(void *buffer, int64_t count, amp_dtype dtype,
              amprt_reduction reduction, char *error, size_t size) {
  ncclDataType_t type;
  switch (dtype) {
  case AMP_F32:
    type = ncclFloat32;
    break;
  case AMP_F16:
    type = ncclFloat16;
    break;
  case AMP_BF16:
    type = ncclBfloat16;
    break;
  case AMP_I32:
    type = ncclInt32;
    break;
  case AMP_I1:
    type = ncclUint8;
    break;
  default:
    std::snprintf(error, size, "NCCL backend: unsupported dtype %d",
                  static_cast<int>(dtype));
    return -1;
  }
  ncclRedOp_t op = reduction == AMPRT_REDUCE_MAX    ? ncclMax
                   : reduction == AMPRT_REDUCE_MEAN ? ncclAvg
                                                    : ncclSum;
  if (!check(api.allReduce(buffer, buffer, static_cast<size_t>(count), type,
                           op, comm, nullptr),
             "ncclAllReduce", error, size) ||
      !checkDriver(api.synchronize(nullptr), "cuStreamSynchronize", error,
                   size))
    return -1;
  return 0;
}

int broadcast(void *buffer, int64_t bytes, int root, char *error,
              size_t size) {
  if (!check(api.broadcast(buffer, buffer, static_cast<size_t>(bytes),
                           ncclUint8, root, comm, nullptr),
             "ncclBroadcast", error, size) ||
      !checkDriver(api.synchronize(nullptr), "cuStreamSynchronize", error,
                   size))
    return -1;
  return 0;
}

int barrier(char *error, size_t size) {
  if (MPI_Barrier(world.comm) != MPI_SUCCESS) {
    std::snprintf(error, size, "MPI_Barrier failed");
    return -1;
  }
  return 0;
}

void finalize() {
  if (comm)
    api.commDestroy(comm);
  comm = nullptr;
  world.leave();
}

/// The rank's GPU: its rank among the ranks of its machine, modulo the
/// GPUs it sees (or restrict each rank with CUDA_VISIBLE_DEVICES).
int localRank() {
  for (const char *name :
       {"OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (const char *value = std::getenv(name))
      return std::atoi(value);
  return 0;
}

} // namespace

extern "C" __attribute__((visibility("default"))) const amprt_comm_ops *
amprt_comm_nccl_open(char *error, size_t size) {
  void *nccl = openLibrary("AMPRT_NCCL_LIBRARY", "libnccl.so.2", error, size);
  void *driver = nccl ? openLibrary("AMPRT_CUDA_DRIVER_LIBRARY",
                                    "libcuda.so.1", error, size)
                      : nullptr;
  if (!driver ||
      !resolve(nccl, "ncclGetUniqueId", api.getUniqueId, error, size) ||
      !resolve(nccl, "ncclCommInitRank", api.commInitRank, error, size) ||
      !resolve(nccl, "ncclAllReduce", api.allReduce, error, size) ||
      !resolve(nccl, "ncclBroadcast", api.broadcast, error, size) ||
      !resolve(nccl, "ncclCommDestroy", api.commDestroy, error, size) ||
      !resolve(nccl, "ncclGetErrorString", api.errorString, error, size) ||
      !resolve(driver, "cuInit", api.init, error, size) ||
      !resolve(driver, "cuDeviceGetCount", api.deviceCount, error, size) ||
      !resolve(driver, "cuDeviceGet", api.deviceGet, error, size) ||
      !resolve(driver, "cuDevicePrimaryCtxRetain", api.retainContext, error,
               size) ||
      !resolve(driver, "cuCtxSetCurrent", api.setContext, error, size) ||
      !resolve(driver, "cuStreamSynchronize", api.synchronize, error, size))
    return nullptr;

  if (!world.join(error, size))
    return nullptr;
  MPI_Comm_rank(world.comm, &table.rank);
  MPI_Comm_size(world.comm, &table.size);

  int devices = 0;
  CUdevice device;
  CUcontext context;
  if (!checkDriver(api.init(0), "cuInit (is there a GPU and its driver?)",
                   error, size) ||
      !checkDriver(api.deviceCount(&devices), "cuDeviceGetCount", error,
                   size))
    return nullptr;
  if (devices < 1) {
    std::snprintf(error, size, "NCCL backend: no CUDA device");
    return nullptr;
  }
  if (!checkDriver(api.deviceGet(&device, localRank() % devices),
                   "cuDeviceGet", error, size) ||
      !checkDriver(api.retainContext(&context, device),
                   "cuDevicePrimaryCtxRetain", error, size) ||
      !checkDriver(api.setContext(context), "cuCtxSetCurrent", error, size))
    return nullptr;

  ncclUniqueId id;
  if (table.rank == 0 &&
      !check(api.getUniqueId(&id), "ncclGetUniqueId", error, size))
    return nullptr;
  MPI_Bcast(&id, sizeof id, MPI_BYTE, 0, world.comm);
  if (!check(api.commInitRank(&comm, table.size, id, table.rank),
             "ncclCommInitRank", error, size))
    return nullptr;
  table.name = "nccl";
  table.averages = 1;
  table.all_reduce = allReduce;
  table.broadcast = broadcast;
  table.barrier = barrier;
  table.finalize = finalize;
  return &table;
}
