//===- DataTest.cpp - amp-train's data sources ----------------------------===//

#include "Data.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <unistd.h>

using namespace amp_train;

namespace {

TEST(Data, SyntheticImagesAreDeterministicAndLabelled) {
  Dataset a = syntheticData(64, 3), b = syntheticData(64, 3),
          other = syntheticData(64, 4);
  EXPECT_EQ(a.count, 64);
  ASSERT_EQ(a.images.size(), size_t(64 * kPixels));
  EXPECT_EQ(a.images, b.images);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_NE(a.images, other.images);
  for (float pixel : a.images)
    EXPECT_TRUE(pixel >= 0.0f && pixel <= 1.0f);
  std::set<int32_t> classes(a.labels.begin(), a.labels.end());
  EXPECT_GT(classes.size(), 3u); // the teacher uses several classes
  for (int32_t label : a.labels)
    EXPECT_TRUE(label >= 0 && label < kClasses);
}

TEST(Data, SyntheticTokensCarryTheirClass) {
  const int64_t count = 400, seq = 16, vocab = 32;
  Dataset data = syntheticTokens(count, seq, vocab, 1);
  ASSERT_EQ(data.tokens.size(), size_t(count * seq));
  EXPECT_EQ(data.width, seq);
  int64_t matching = 0;
  for (int64_t i = 0; i < count; ++i)
    for (int64_t p = 0; p < seq; ++p) {
      int32_t token = data.tokens[i * seq + p];
      ASSERT_TRUE(token >= 0 && token < vocab);
      matching += token % kClasses == data.labels[i];
    }
  // 1/4 of the tokens carry the class, and 1/10 of the others by chance:
  // 0.25 + 0.75 * 0.1 = 0.325 of all (within a few standard deviations).
  double fraction = double(matching) / double(count * seq);
  EXPECT_NEAR(fraction, 0.325, 0.03);
}

TEST(Data, EpochOrderIsASeededPermutation) {
  std::vector<int64_t> order = epochOrder(1000, 7, 2);
  std::vector<int64_t> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 1000; ++i)
    ASSERT_EQ(sorted[i], i);
  EXPECT_EQ(order, epochOrder(1000, 7, 2)); // a resumed run sees the same
  EXPECT_NE(order, epochOrder(1000, 7, 3)); // another epoch, another order
  EXPECT_NE(order, epochOrder(1000, 8, 2)); // another seed, another order
}

/// A fresh directory under /tmp, removed with everything in it when the test
/// ends, or at exit() in a death test's child, which never unwinds.
struct ScratchDir {
  ScratchDir() {
    char name[] = "/tmp/amp-train-data-XXXXXX";
    EXPECT_NE(mkdtemp(name), nullptr);
    path = name;
    live().insert(path);
    static bool registered = (std::atexit(removeLive), true);
    (void)registered;
  }
  ~ScratchDir() {
    std::filesystem::remove_all(path);
    live().erase(path);
  }
  static std::set<std::string> &live() {
    static std::set<std::string> dirs;
    return dirs;
  }
  static void removeLive() {
    for (const std::string &dir : live())
      std::filesystem::remove_all(dir);
  }
  std::string path;
};

/// Writes a gzip'd IDX pair of `count` examples to `dir`; the image file
/// loses its last `truncate` bytes.
void writeIdx(const std::string &dir, int64_t count, size_t truncate = 0) {
  auto put32 = [](std::vector<unsigned char> &bytes, uint32_t value) {
    for (int shift = 24; shift >= 0; shift -= 8)
      bytes.push_back(static_cast<unsigned char>(value >> shift));
  };
  std::vector<unsigned char> images, labels;
  put32(images, 0x803);
  put32(images, count);
  put32(images, 28);
  put32(images, 28);
  for (int64_t i = 0; i < count * kPixels; ++i)
    images.push_back(static_cast<unsigned char>(i % 256));
  put32(labels, 0x801);
  put32(labels, count);
  for (int64_t i = 0; i < count; ++i)
    labels.push_back(static_cast<unsigned char>(i % kClasses));
  images.resize(images.size() - truncate);
  for (auto [name, bytes] :
       {std::pair{"/train-images-idx3-ubyte.gz", &images},
        std::pair{"/train-labels-idx1-ubyte.gz", &labels}}) {
    gzFile file = gzopen((std::string(dir) + name).c_str(), "wb");
    gzwrite(file, bytes->data(), static_cast<unsigned>(bytes->size()));
    gzclose(file);
  }
}

TEST(Data, LoadsIdxFiles) {
  ScratchDir scratch;
  writeIdx(scratch.path, 5);
  const std::string &dir = scratch.path;
  Dataset data = loadFashionMnist(dir, "train", -1);
  EXPECT_EQ(data.count, 5);
  EXPECT_FLOAT_EQ(data.images[1], 1.0f / 255.0f);
  EXPECT_EQ(data.labels, (std::vector<int32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(loadFashionMnist(dir, "train", 2).count, 2);
}

TEST(DataDeathTest, RefusesBadIdxFiles) {
  // libamprt's BLAS has started threads: re-execute for each death test.
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  ScratchDir truncated;
  writeIdx(truncated.path, 5, 100);
  EXPECT_EXIT(loadFashionMnist(truncated.path, "train", -1),
              testing::ExitedWithCode(1), "is truncated");
  EXPECT_EXIT(loadFashionMnist("/nonexistent", "train", -1),
              testing::ExitedWithCode(1), "dataset-fashion-mnist");
}

} // namespace
