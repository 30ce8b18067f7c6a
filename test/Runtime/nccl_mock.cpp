//===- nccl_mock.cpp - NCCL and the CUDA driver, simulated over MPI -------===//
//
// Just enough of libnccl and libcuda for libamprt_nccl's logic to run on
// the CPU under mpirun: "device" buffers are host memory, the unique id
// travels as the backend sends it, and the collectives are MPI's on host
// memory (16-bit floats widened to f32, as a stand-in for NCCL's own
// arithmetic). It counts what the backend asks (collectives, stream
// synchronizations) and prints the counts when the communicator is
// destroyed; it checks the backend's use of NCCL, not NCCL.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"

#include <cuda.h>
#include <mpi.h>
#include <nccl.h>

#include <cstdio>
#include <cstring>
#include <vector>

namespace {
constexpr char kMagic[] = "amp-nccl-mock";
int allReduces = 0, broadcasts = 0, syncs = 0, averages = 0;
} // namespace

struct ncclComm {
  int rank, size;
};

extern "C" {

ncclResult_t ncclGetUniqueId(ncclUniqueId *id) {
  std::memset(id, 0, sizeof *id);
  std::memcpy(id->internal, kMagic, sizeof kMagic);
  return ncclSuccess;
}

ncclResult_t ncclCommInitRank(ncclComm_t *comm, int nranks, ncclUniqueId id,
                              int rank) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  // Every rank must hold rank 0's id: the backend broadcasts it.
  if (std::memcmp(id.internal, kMagic, sizeof kMagic) != 0 || nranks != size)
    return ncclInvalidArgument;
  *comm = new ncclComm{rank, nranks};
  return ncclSuccess;
}

ncclResult_t ncclAllReduce(const void *send, void *recv, size_t count,
                           ncclDataType_t type, ncclRedOp_t op,
                           ncclComm_t comm, cudaStream_t) {
  if (send != recv || (op != ncclSum && op != ncclMax && op != ncclAvg))
    return ncclInvalidArgument;
  ++allReduces;
  averages += op == ncclAvg;
  MPI_Op mpiOp = op == ncclMax ? MPI_MAX : MPI_SUM;
  int n = static_cast<int>(count);
  switch (type) {
  case ncclFloat32: {
    MPI_Allreduce(MPI_IN_PLACE, recv, n, MPI_FLOAT, mpiOp, MPI_COMM_WORLD);
    if (op == ncclAvg)
      for (size_t i = 0; i < count; ++i)
        static_cast<float *>(recv)[i] /= comm->size;
    return ncclSuccess;
  }
  case ncclInt32:
    MPI_Allreduce(MPI_IN_PLACE, recv, n, MPI_INT32_T, mpiOp, MPI_COMM_WORLD);
    return ncclSuccess;
  case ncclUint8:
    MPI_Allreduce(MPI_IN_PLACE, recv, n, MPI_UINT8_T, mpiOp, MPI_COMM_WORLD);
    return ncclSuccess;
  case ncclFloat16:
  case ncclBfloat16: {
    bool half = type == ncclFloat16;
    auto *bits = static_cast<uint16_t *>(recv);
    std::vector<float> wide(count);
    for (size_t i = 0; i < count; ++i)
      wide[i] = half ? amprt_f16_to_f32(bits[i]) : amprt_bf16_to_f32(bits[i]);
    MPI_Allreduce(MPI_IN_PLACE, wide.data(), n, MPI_FLOAT, mpiOp,
                  MPI_COMM_WORLD);
    for (size_t i = 0; i < count; ++i) {
      float value = op == ncclAvg ? wide[i] / comm->size : wide[i];
      bits[i] = half ? amprt_f32_to_f16(value) : amprt_f32_to_bf16(value);
    }
    return ncclSuccess;
  }
  default:
    return ncclInvalidArgument;
  }
}

ncclResult_t ncclBroadcast(const void *send, void *recv, size_t count,
                           ncclDataType_t type, int root, ncclComm_t,
                           cudaStream_t) {
  if (send != recv || type != ncclUint8)
    return ncclInvalidArgument;
  ++broadcasts;
  MPI_Bcast(recv, static_cast<int>(count), MPI_BYTE, root, MPI_COMM_WORLD);
  return ncclSuccess;
}

ncclResult_t ncclCommDestroy(ncclComm_t comm) {
  std::fprintf(stderr,
               "nccl-mock: rank %d: %d all-reduces (%d averages), %d "
               "broadcasts, %d stream syncs\n",
               comm->rank, allReduces, averages, broadcasts, syncs);
  delete comm;
  return ncclSuccess;
}

const char *ncclGetErrorString(ncclResult_t result) {
  return result == ncclInvalidArgument ? "invalid argument (mock)"
                                       : "error (mock)";
}

CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return ordinal == 0 ? CUDA_SUCCESS : CUDA_ERROR_INVALID_DEVICE;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *context, CUdevice) {
  static int token;
  *context = reinterpret_cast<CUcontext>(&token);
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
CUresult cuStreamSynchronize(CUstream) {
  ++syncs;
  return CUDA_SUCCESS;
}

} // extern "C"
