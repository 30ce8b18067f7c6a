//===- step_memory.cpp - the allocator compiled CPU steps call ------------===//
//
// A step allocates the same buffers, of the same static sizes, on every
// call. Through malloc each large one is a fresh mmap, so every step paid
// for page faults and zeroing of all its temporaries (a third of the wide
// MLP's f32 step). The CPU pipeline lowers memref.alloc/dealloc to MLIR's
// generic allocation functions, defined here: freed blocks are kept per
// (size, alignment) and handed out again, so from the second step on a step
// touches no new memory. What is kept is bounded by AMPRT_STEP_CACHE_BYTES
// (default 16 GiB; what is freed beyond it goes back to the system).
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace {

/// Written just before every block this allocator hands out.
struct BlockHeader {
  uint64_t size;
  uint32_t alignment;
  uint32_t magic;
};
constexpr uint32_t kMagic = 0xA3C0FFEEu;

/// Where the header goes: the payload starts `headerRoom(alignment)` bytes
/// into the raw allocation, keeping the payload aligned.
size_t headerRoom(size_t alignment) {
  return alignment < sizeof(BlockHeader) ? sizeof(BlockHeader) : alignment;
}

BlockHeader *headerOf(void *payload) {
  return reinterpret_cast<BlockHeader *>(static_cast<char *>(payload) -
                                         sizeof(BlockHeader));
}

class BlockCache {
public:
  void *allocate(size_t size, size_t alignment) {
    if (alignment < alignof(std::max_align_t))
      alignment = alignof(std::max_align_t);
    {
      std::lock_guard<std::mutex> lock(mutex);
      auto it = free.find({size, alignment});
      if (it != free.end() && !it->second.empty()) {
        void *payload = it->second.back();
        it->second.pop_back();
        cachedBytes -= size;
        return payload;
      }
    }
    size_t room = headerRoom(alignment);
    // aligned_alloc wants a multiple of the alignment.
    size_t total = (room + size + alignment - 1) / alignment * alignment;
    char *raw = static_cast<char *>(std::aligned_alloc(alignment, total));
    if (!raw)
      return nullptr;
    void *payload = raw + room;
    *headerOf(payload) = {size, static_cast<uint32_t>(alignment), kMagic};
    return payload;
  }

  void release(void *payload) {
    if (!payload)
      return;
    BlockHeader header = *headerOf(payload);
    if (header.magic != kMagic)
      std::abort(); // not ours: a compiler/runtime mismatch, never silent
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (cachedBytes + header.size <= limit) {
        free[{header.size, header.alignment}].push_back(payload);
        cachedBytes += header.size;
        return;
      }
    }
    std::free(static_cast<char *>(payload) - headerRoom(header.alignment));
  }

private:
  static uint64_t limitFromEnvironment() {
    const char *value = std::getenv("AMPRT_STEP_CACHE_BYTES");
    if (value && *value) {
      char *end = nullptr;
      unsigned long long parsed = std::strtoull(value, &end, 10);
      if (end && *end == '\0')
        return parsed;
    }
    return uint64_t(16) << 30;
  }

  std::mutex mutex;
  // Freed blocks by (size, alignment): only an exact match is reused.
  std::map<std::pair<uint64_t, uint64_t>, std::vector<void *>> free;
  uint64_t cachedBytes = 0;
  uint64_t limit = limitFromEnvironment();
};

BlockCache &cache() {
  // Never destroyed: steps may free during static destruction elsewhere.
  static BlockCache *instance = new BlockCache;
  return *instance;
}

} // namespace

extern "C" {

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return cache().allocate(size, alignof(std::max_align_t));
}

void *_mlir_memref_to_llvm_aligned_alloc(size_t alignment, size_t size) {
  return cache().allocate(size, alignment);
}

void _mlir_memref_to_llvm_free(void *ptr) { cache().release(ptr); }

} // extern "C"
