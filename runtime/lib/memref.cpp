//===- memref.cpp - the memref helpers lowered code calls -----------------===//
//
// `finalize-memref-to-llvm` lowers a memref.copy between non-contiguous
// layouts to a call of `memrefCopy(elementSize, source, target)` taking
// unranked descriptors. MLIR's own implementation lives in
// libmlir_c_runner_utils; the runtime must not depend on MLIR, so it has
// its own.
//
// The copies a step makes are pads (a tensor into the interior of a zeroed
// buffer), zero insertion for strided convolution gradients and slices:
// millions of elements per step. Dimensions that are contiguous in both
// layouts are merged, and the innermost run is copied as one memcpy when
// both sides have unit stride, else by a loop typed by the element size.
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

/// One dimension of the copy: its size and the strides on both sides.
struct Dim {
  int64_t size, fromStride, toStride;
};

/// The copy's dimensions, outermost first, with size-1 dimensions dropped
/// and each dimension merged into the next inner one where both layouts
/// step over it contiguously.
std::vector<Dim> mergedDims(int64_t rank, const Descriptor &from,
                            const Descriptor &to) {
  std::vector<Dim> dims;
  for (int64_t d = 0; d < rank; ++d)
    if (from.sizes[d] != 1)
      dims.push_back({from.sizes[d], from.strides[d], to.strides[d]});
  std::vector<Dim> merged;
  for (const Dim &dim : dims) {
    if (!merged.empty()) {
      Dim &outer = merged.back();
      if (outer.fromStride == dim.fromStride * dim.size &&
          outer.toStride == dim.toStride * dim.size) {
        outer = {outer.size * dim.size, dim.fromStride, dim.toStride};
        continue;
      }
    }
    merged.push_back(dim);
  }
  return merged;
}

template <typename T>
void copyRun(char *to, const char *from, int64_t count, int64_t toStride,
             int64_t fromStride) {
  T *out = reinterpret_cast<T *>(to);
  const T *in = reinterpret_cast<const T *>(from);
  for (int64_t i = 0; i < count; ++i)
    std::memcpy(out + i * toStride, in + i * fromStride, sizeof(T));
}

/// Copies `count` elements along one dimension (strides in elements).
void copyInnermost(char *to, const char *from, int64_t count,
                   int64_t toStride, int64_t fromStride, int64_t elementSize) {
  if (toStride == 1 && fromStride == 1) {
    std::memcpy(to, from, count * elementSize);
    return;
  }
  switch (elementSize) {
  case 1:
    return copyRun<uint8_t>(to, from, count, toStride, fromStride);
  case 2:
    return copyRun<uint16_t>(to, from, count, toStride, fromStride);
  case 4:
    return copyRun<uint32_t>(to, from, count, toStride, fromStride);
  case 8:
    return copyRun<uint64_t>(to, from, count, toStride, fromStride);
  default:
    for (int64_t i = 0; i < count; ++i)
      std::memcpy(to + i * toStride * elementSize,
                  from + i * fromStride * elementSize, elementSize);
  }
}
} // namespace

extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                           UnrankedMemRef *target) {
  int64_t rank = source->rank;
  Descriptor from(*source), to(*target);
  for (int64_t d = 0; d < rank; ++d)
    if (from.sizes[d] == 0)
      return;
  char *fromBase = from.aligned + from.offset * elementSize;
  char *toBase = to.aligned + to.offset * elementSize;
  std::vector<Dim> dims = mergedDims(rank, from, to);
  if (dims.empty()) {
    std::memcpy(toBase, fromBase, elementSize);
    return;
  }
  Dim inner = dims.back();
  dims.pop_back();
  // Every run of the innermost dimension, outer multi-index last fastest.
  std::vector<int64_t> index(dims.size(), 0);
  int64_t fromOffset = 0, toOffset = 0;
  while (true) {
    copyInnermost(toBase + toOffset * elementSize,
                  fromBase + fromOffset * elementSize, inner.size,
                  inner.toStride, inner.fromStride, elementSize);
    int64_t d = static_cast<int64_t>(dims.size()) - 1;
    for (; d >= 0; --d) {
      fromOffset += dims[d].fromStride;
      toOffset += dims[d].toStride;
      if (++index[d] < dims[d].size)
        break;
      fromOffset -= dims[d].fromStride * dims[d].size;
      toOffset -= dims[d].toStride * dims[d].size;
      index[d] = 0;
    }
    if (d < 0)
      return;
  }
}
