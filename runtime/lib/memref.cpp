//===- memref.cpp - the memref helpers lowered code calls -----------------===//
//
// finalize-memref-to-llvm lowers a memref.copy between non-contiguous
// layouts to a call of `memrefCopy(elementSize, source, target)` taking
// unranked descriptors. MLIR's own implementation lives in
// libmlir_c_runner_utils; the runtime must not depend on MLIR, so it has
// its own.
//
//===----------------------------------------------------------------------===//

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};

/// The fields of a ranked descriptor of any rank, read in place.
struct Descriptor {
  char *aligned;
  int64_t offset;
  const int64_t *sizes;
  const int64_t *strides;

  explicit Descriptor(const UnrankedMemRef &memref) {
    auto *words = static_cast<int64_t *>(memref.descriptor);
    aligned = reinterpret_cast<char *>(words[1]);
    offset = words[2];
    sizes = words + 3;
    strides = words + 3 + memref.rank;
  }
};
} // namespace

extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                           UnrankedMemRef *target) {
  int64_t rank = source->rank;
  Descriptor from(*source), to(*target);
  int64_t count = 1;
  for (int64_t d = 0; d < rank; ++d)
    count *= from.sizes[d];
  if (count == 0)
    return;
  std::vector<int64_t> index(rank, 0);
  int64_t fromOffset = from.offset, toOffset = to.offset;
  for (int64_t done = 0; done < count; ++done) {
    std::memcpy(to.aligned + toOffset * elementSize,
                from.aligned + fromOffset * elementSize, elementSize);
    // Advance the multi-index, last dimension fastest.
    for (int64_t d = rank - 1; d >= 0; --d) {
      ++index[d];
      fromOffset += from.strides[d];
      toOffset += to.strides[d];
      if (index[d] < from.sizes[d])
        break;
      fromOffset -= from.strides[d] * from.sizes[d];
      toOffset -= to.strides[d] * to.sizes[d];
      index[d] = 0;
    }
  }
}
