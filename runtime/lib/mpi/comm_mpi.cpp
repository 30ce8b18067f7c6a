//===- comm_mpi.cpp - libamprt_mpi: the MPI communicator backend ----------===//
//
// Loaded by amprt_comm_init("mpi"). Reduces over a duplicate of
// MPI_COMM_WORLD. MPI has no 16-bit float types: f16 and bf16 travel as
// MPI_UINT16_T with user-defined sum and max operations that add in f32 and
// round each partial result. Whether every rank receives bit-identical
// results is up to the MPI library's algorithm (Open MPI's reduce the
// same partial sums for every rank); amp-train checks it with
// --check-replicas.
//
//===----------------------------------------------------------------------===//

#include "comm_backend.h"
#include "mpi_world.h"

#include "amprt.h"
#include "float_convert.h"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdio>

namespace {

amprt::MpiWorld world;
MPI_Op sumF16 = MPI_OP_NULL, maxF16 = MPI_OP_NULL, sumBF16 = MPI_OP_NULL,
       maxBF16 = MPI_OP_NULL;
amprt_comm_ops table;

template <bool Half, bool Max>
void combine16(void *in, void *inout, int *length, MPI_Datatype *) {
  // MPI passes distinct buffers; saying so lets the loop vectorize.
  const uint16_t *__restrict a = static_cast<const uint16_t *>(in);
  uint16_t *__restrict b = static_cast<uint16_t *>(inout);
  int count = *length;
  for (int i = 0; i < count; ++i) {
    float x = Half ? amprt::halfToFloat(a[i]) : amprt::bfloat16ToFloat(a[i]);
    float y = Half ? amprt::halfToFloat(b[i]) : amprt::bfloat16ToFloat(b[i]);
    // A NaN wins a maximum, so that an overflow is never hidden.
    float r = !Max ? x + y : (x != x ? x : (y != y || y > x) ? y : x);
    b[i] = Half ? amprt::floatToHalf(r) : amprt::floatToBfloat16(r);
  }
}

void describe(int code, char *error, size_t size, const char *what) {
  char message[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, message, &length);
  std::snprintf(error, size, "%s: %.*s", what, length, message);
}

int allReduce(void *buffer, int64_t count, amp_dtype dtype,
              amprt_reduction reduction, char *error, size_t size) {
  bool max = reduction == AMPRT_REDUCE_MAX;
  MPI_Datatype type;
  MPI_Op op = max ? MPI_MAX : MPI_SUM;
  size_t bytes;
  switch (dtype) {
  case AMP_F32:
    type = MPI_FLOAT;
    bytes = 4;
    break;
  case AMP_I32:
    type = MPI_INT32_T;
    bytes = 4;
    break;
  case AMP_I1:
    type = MPI_UINT8_T;
    bytes = 1;
    break;
  case AMP_F16:
    type = MPI_UINT16_T;
    op = max ? maxF16 : sumF16;
    bytes = 2;
    break;
  case AMP_BF16:
    type = MPI_UINT16_T;
    op = max ? maxBF16 : sumBF16;
    bytes = 2;
    break;
  default:
    std::snprintf(error, size, "MPI backend: unsupported dtype %d",
                  static_cast<int>(dtype));
    return -1;
  }
  // MPI counts are ints.
  auto *bytesPointer = static_cast<char *>(buffer);
  for (int64_t done = 0; done < count;) {
    int chunk = static_cast<int>(std::min<int64_t>(count - done, INT_MAX));
    int code = MPI_Allreduce(MPI_IN_PLACE, bytesPointer + done * bytes, chunk,
                             type, op, world.comm);
    if (code != MPI_SUCCESS) {
      describe(code, error, size, "MPI_Allreduce");
      return -1;
    }
    done += chunk;
  }
  return 0;
}

int broadcast(void *buffer, int64_t bytes, int root, char *error,
              size_t size) {
  auto *data = static_cast<char *>(buffer);
  for (int64_t done = 0; done < bytes;) {
    int chunk = static_cast<int>(std::min<int64_t>(bytes - done, INT_MAX));
    int code = MPI_Bcast(data + done, chunk, MPI_BYTE, root, world.comm);
    if (code != MPI_SUCCESS) {
      describe(code, error, size, "MPI_Bcast");
      return -1;
    }
    done += chunk;
  }
  return 0;
}

int barrier(char *error, size_t size) {
  int code = MPI_Barrier(world.comm);
  if (code != MPI_SUCCESS) {
    describe(code, error, size, "MPI_Barrier");
    return -1;
  }
  return 0;
}

void finalize() {
  for (MPI_Op *op : {&sumF16, &maxF16, &sumBF16, &maxBF16})
    if (*op != MPI_OP_NULL)
      MPI_Op_free(op);
  world.leave();
}

} // namespace

extern "C" __attribute__((visibility("default"))) const amprt_comm_ops *
amprt_comm_mpi_open(char *error, size_t size) {
  if (!world.join(error, size))
    return nullptr;
  // Errors come back as codes, with a message, instead of aborting inside
  // MPI.
  MPI_Comm_set_errhandler(world.comm, MPI_ERRORS_RETURN);
  MPI_Op_create(&combine16<true, false>, 1, &sumF16);
  MPI_Op_create(&combine16<true, true>, 1, &maxF16);
  MPI_Op_create(&combine16<false, false>, 1, &sumBF16);
  MPI_Op_create(&combine16<false, true>, 1, &maxBF16);
  table.name = "mpi";
  table.averages = 0;
  MPI_Comm_rank(world.comm, &table.rank);
  MPI_Comm_size(world.comm, &table.size);
  table.all_reduce = allReduce;
  table.broadcast = broadcast;
  table.barrier = barrier;
  table.finalize = finalize;
  return &table;
}
