//===- StepMemoryTest.cpp - the allocator compiled CPU steps call ---------===//
//
// A step frees and allocates the same sizes every call: a freed block must
// come back for the same (size, alignment), aligned as asked, and never for
// another size.
//
//===----------------------------------------------------------------------===//

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

extern "C" {
void *_mlir_memref_to_llvm_alloc(size_t size);
void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size);
void _mlir_memref_to_llvm_free(void *ptr);
}

namespace {

TEST(StepMemory, FreedBlockComesBackForTheSameSize) {
  void *first = _mlir_memref_to_llvm_aligned_alloc(64, 1 << 20);
  ASSERT_NE(first, nullptr);
  std::memset(first, 7, 1 << 20);
  _mlir_memref_to_llvm_free(first);
  void *second = _mlir_memref_to_llvm_aligned_alloc(64, 1 << 20);
  EXPECT_EQ(first, second);
  _mlir_memref_to_llvm_free(second);
}

TEST(StepMemory, OtherSizesGetOtherBlocks) {
  void *block = _mlir_memref_to_llvm_alloc(4096);
  _mlir_memref_to_llvm_free(block);
  void *bigger = _mlir_memref_to_llvm_alloc(8192);
  EXPECT_NE(block, bigger);
  std::memset(bigger, 1, 8192); // the whole size is usable
  _mlir_memref_to_llvm_free(bigger);
}

TEST(StepMemory, ABlockIsOnlyReusedForItsOwnSizeAndAlignment) {
  // (size, alignment) pairs that a hash of the two could confuse: a block
  // of 1000 bytes must never serve a request for 1255.
  void *block = _mlir_memref_to_llvm_aligned_alloc(256, 1000);
  _mlir_memref_to_llvm_free(block);
  void *other = _mlir_memref_to_llvm_aligned_alloc(64, 1255);
  EXPECT_NE(block, other);
  void *sameSizeOtherAlignment = _mlir_memref_to_llvm_aligned_alloc(64, 1000);
  EXPECT_NE(block, sameSizeOtherAlignment);
  _mlir_memref_to_llvm_free(other);
  _mlir_memref_to_llvm_free(sameSizeOtherAlignment);
}

TEST(StepMemory, LiveBlocksAreDistinct) {
  void *a = _mlir_memref_to_llvm_alloc(1000);
  void *b = _mlir_memref_to_llvm_alloc(1000);
  EXPECT_NE(a, b);
  _mlir_memref_to_llvm_free(a);
  _mlir_memref_to_llvm_free(b);
}

TEST(StepMemory, AlignmentIsHonoured) {
  for (size_t alignment : {16, 64, 256, 4096}) {
    void *block = _mlir_memref_to_llvm_aligned_alloc(alignment, 100);
    ASSERT_NE(block, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(block) % alignment, 0u)
        << "alignment " << alignment;
    _mlir_memref_to_llvm_free(block);
  }
}

TEST(StepMemory, FreeingNullIsANoOp) { _mlir_memref_to_llvm_free(nullptr); }

} // namespace
