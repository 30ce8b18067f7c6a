//===- MemrefCopyTest.cpp - memrefCopy against an element-wise copy -------===//
//
// memrefCopy merges contiguous dimensions and copies runs at once; every
// layout must still land each element where an element-by-element copy
// puts it, and write nothing else.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace {
struct UnrankedMemRef {
  int64_t rank;
  void *descriptor;
};
} // namespace

extern "C" void memrefCopy(int64_t elementSize, UnrankedMemRef *source,
                           UnrankedMemRef *target);

namespace {

/// A strided view of a byte buffer, as a ranked descriptor's words.
struct View {
  std::vector<int64_t> words;
  UnrankedMemRef unranked;

  View(char *base, int64_t offset, const std::vector<int64_t> &sizes,
       const std::vector<int64_t> &strides) {
    words.push_back(reinterpret_cast<int64_t>(base));
    words.push_back(reinterpret_cast<int64_t>(base));
    words.push_back(offset);
    words.insert(words.end(), sizes.begin(), sizes.end());
    words.insert(words.end(), strides.begin(), strides.end());
    unranked = {static_cast<int64_t>(sizes.size()), words.data()};
  }
};

/// Element-by-element reference: the offset of each multi-index.
void referenceCopy(int64_t elementSize, const char *from, int64_t fromOffset,
                   const std::vector<int64_t> &fromStrides, char *to,
                   int64_t toOffset, const std::vector<int64_t> &toStrides,
                   const std::vector<int64_t> &sizes) {
  int64_t count = 1;
  for (int64_t s : sizes)
    count *= s;
  for (int64_t linear = 0; linear < count; ++linear) {
    int64_t rest = linear, f = fromOffset, t = toOffset;
    for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
      int64_t i = rest % sizes[d];
      rest /= sizes[d];
      f += i * fromStrides[d];
      t += i * toStrides[d];
    }
    std::memcpy(to + t * elementSize, from + f * elementSize, elementSize);
  }
}

/// Row-major strides of `sizes`, each dimension padded by `pad` elements.
std::vector<int64_t> paddedStrides(const std::vector<int64_t> &sizes,
                                   const std::vector<int64_t> &pad,
                                   int64_t &extent) {
  std::vector<int64_t> strides(sizes.size());
  int64_t stride = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides[d] = stride;
    stride *= sizes[d] + pad[d];
  }
  extent = stride;
  return strides;
}

void checkCopy(int64_t elementSize, const std::vector<int64_t> &sizes,
               const std::vector<int64_t> &fromStrides, int64_t fromOffset,
               int64_t fromExtent, const std::vector<int64_t> &toStrides,
               int64_t toOffset, int64_t toExtent) {
  std::mt19937 random(17);
  std::vector<char> from((fromOffset + fromExtent) * elementSize);
  for (char &c : from)
    c = static_cast<char>(random());
  std::vector<char> expected((toOffset + toExtent) * elementSize, 0x5a);
  std::vector<char> actual = expected;
  referenceCopy(elementSize, from.data(), fromOffset, fromStrides,
                expected.data(), toOffset, toStrides, sizes);
  View source(from.data(), fromOffset, sizes, fromStrides);
  View target(actual.data(), toOffset, sizes, toStrides);
  memrefCopy(elementSize, &source.unranked, &target.unranked);
  EXPECT_EQ(actual, expected);
}

TEST(MemrefCopy, PadIntoTheInteriorOfALargerBuffer) {
  // A 2x3x5x5 tensor into a 2x3x7x7 buffer at (0, 0, 1, 1), as tensor.pad.
  std::vector<int64_t> sizes = {2, 3, 5, 5};
  int64_t fromExtent, toExtent;
  auto from = paddedStrides(sizes, {0, 0, 0, 0}, fromExtent);
  auto to = paddedStrides(sizes, {0, 0, 2, 2}, toExtent);
  for (int64_t elementSize : {2, 4, 8})
    checkCopy(elementSize, sizes, from, 0, fromExtent, to, 8, toExtent);
}

TEST(MemrefCopy, ZeroInsertionWithStrideTwo) {
  // A 3x4x6 tensor into every other row and column of a 3x8x12 buffer, as
  // a strided convolution's input gradient is built.
  std::vector<int64_t> sizes = {3, 4, 6};
  checkCopy(4, sizes, {24, 6, 1}, 0, 72, {96, 24, 2}, 0, 3 * 96);
}

TEST(MemrefCopy, TransposedSource) {
  std::vector<int64_t> sizes = {4, 3, 5};
  // The source is a 5x3x4 buffer read as its transpose.
  checkCopy(4, sizes, {1, 4, 12}, 0, 60, {15, 5, 1}, 0, 60);
  checkCopy(2, sizes, {1, 4, 12}, 3, 60, {15, 5, 1}, 0, 60);
  checkCopy(1, sizes, {1, 4, 12}, 0, 60, {15, 5, 1}, 2, 60);
}

TEST(MemrefCopy, UnitDimensionsAndScalars) {
  checkCopy(4, {1, 7, 1, 3}, {21, 3, 3, 1}, 0, 21, {1000, 5, 77, 1}, 4, 40);
  checkCopy(8, {1, 1}, {9, 9}, 2, 1, {3, 3}, 1, 1);
  checkCopy(4, {}, {}, 5, 1, {}, 0, 1);
  // An element size the typed loops do not have.
  checkCopy(3, {4, 2}, {2, 1}, 0, 8, {1, 4}, 0, 8);
}

TEST(MemrefCopy, EmptyCopyWritesNothing) {
  checkCopy(4, {3, 0, 2}, {0, 2, 1}, 0, 1, {0, 2, 1}, 0, 1);
}

TEST(MemrefCopy, RandomLayouts) {
  std::mt19937 random(3);
  for (int trial = 0; trial < 200; ++trial) {
    int64_t rank = 1 + random() % 4;
    std::vector<int64_t> sizes(rank), fromPad(rank), toPad(rank);
    for (int64_t d = 0; d < rank; ++d) {
      sizes[d] = 1 + random() % 5;
      fromPad[d] = random() % 2 ? 0 : random() % 3;
      toPad[d] = random() % 2 ? 0 : random() % 3;
    }
    int64_t fromExtent, toExtent;
    auto from = paddedStrides(sizes, fromPad, fromExtent);
    auto to = paddedStrides(sizes, toPad, toExtent);
    int64_t elementSize = int64_t(1) << (random() % 4);
    checkCopy(elementSize, sizes, from, random() % 4, fromExtent, to,
              random() % 4, toExtent);
  }
}

} // namespace
