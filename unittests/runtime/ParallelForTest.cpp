//===- ParallelForTest.cpp - amprt_parallel_for's chunks -------------------===//
//
// The chunks of a parallel loop nest must cover [0, count) exactly once,
// be disjoint, run on as many threads as asked (never more than count),
// and all be done when amprt_parallel_for returns.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <mutex>
#include <set>
#include <thread>
#include <utility>
#include <vector>

namespace {
struct Record {
  std::mutex mutex;
  std::vector<std::pair<int64_t, int64_t>> chunks;
  std::set<std::thread::id> threads;
};

void recordChunk(void *context, int64_t begin, int64_t end) {
  auto *record = static_cast<Record *>(context);
  std::lock_guard<std::mutex> lock(record->mutex);
  record->chunks.push_back({begin, end});
  record->threads.insert(std::this_thread::get_id());
}

/// Runs count iterations on `threads` threads; checks the cover and
/// returns how many threads ran a chunk.
size_t runAndCheck(int threads, int64_t count) {
  amprt_set_num_threads(threads);
  Record record;
  amprt_parallel_for(recordChunk, &record, count);
  std::sort(record.chunks.begin(), record.chunks.end());
  int64_t next = 0;
  for (auto [begin, end] : record.chunks) {
    EXPECT_EQ(begin, next) << "chunks overlap or leave a gap";
    EXPECT_LT(begin, end) << "an empty chunk was run";
    next = end;
  }
  EXPECT_EQ(next, count);
  EXPECT_LE(record.chunks.size(),
            static_cast<size_t>(std::min<int64_t>(threads, count)));
  return record.threads.size();
}

TEST(ParallelFor, ChunksCoverTheRangeOnTheThreads) {
  EXPECT_EQ(runAndCheck(3, 1000), 3u);
  EXPECT_EQ(runAndCheck(3, 5), 3u); // 2 + 2 + 1
  EXPECT_EQ(runAndCheck(4, 2), 2u); // never more threads than iterations
  EXPECT_EQ(runAndCheck(2, 7), 2u);
  EXPECT_EQ(runAndCheck(1, 1000), 1u);
}

TEST(ParallelFor, EmptyAndSingleRanges) {
  amprt_set_num_threads(2);
  Record record;
  amprt_parallel_for(recordChunk, &record, 0);
  EXPECT_TRUE(record.chunks.empty());
  amprt_parallel_for(recordChunk, &record, 1);
  ASSERT_EQ(record.chunks.size(), 1u);
  EXPECT_EQ(record.chunks[0], std::make_pair(int64_t{0}, int64_t{1}));
}

/// A nest inside a parallel region (a step called from the caller's own
/// OpenMP threads) runs on its calling thread.
void nested(void *context, int64_t begin, int64_t end) {
  auto *records = static_cast<std::vector<Record> *>(context);
  for (int64_t i = begin; i < end; ++i)
    amprt_parallel_for(recordChunk, &(*records)[i], 100);
}

TEST(ParallelFor, NestedCallsRunOnTheirThread) {
  amprt_set_num_threads(2);
  std::vector<Record> records(2);
  amprt_parallel_for(nested, &records, 2);
  for (Record &record : records) {
    ASSERT_EQ(record.chunks.size(), 1u);
    EXPECT_EQ(record.chunks[0], std::make_pair(int64_t{0}, int64_t{100}));
  }
}
} // namespace
