//===- Data.cpp - the examples amp-train trains and tests on -------------===//

#include "Data.h"

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

using namespace amp_train;

std::vector<unsigned char> amp_train::readIdx(const std::string &path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file)
    fail("cannot open '" + path +
         "'. Fashion-MNIST comes with Debian's dataset-fashion-mnist package "
         "(apt-get install dataset-fashion-mnist), or pass --data-dir, or use "
         "--data=synthetic");
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  int read;
  while ((read = gzread(file, buffer, sizeof(buffer))) > 0)
    bytes.insert(bytes.end(), buffer, buffer + read);
  int errnum = 0;
  const char *message = gzerror(file, &errnum);
  gzclose(file);
  if (read < 0 || errnum < 0)
    fail("'" + path + "' is corrupt: " + message);
  return bytes;
}

static uint32_t bigEndian(const std::vector<unsigned char> &bytes,
                          size_t offset) {
  return (uint32_t(bytes[offset]) << 24) | (uint32_t(bytes[offset + 1]) << 16) |
         (uint32_t(bytes[offset + 2]) << 8) | uint32_t(bytes[offset + 3]);
}

Dataset amp_train::loadFashionMnist(const std::string &dir,
                                    const std::string &split, int64_t limit) {
  std::string imagePath = dir + "/" + split + "-images-idx3-ubyte.gz";
  std::string labelPath = dir + "/" + split + "-labels-idx1-ubyte.gz";
  std::vector<unsigned char> images = readIdx(imagePath);
  std::vector<unsigned char> labels = readIdx(labelPath);
  if (images.size() < 16 || bigEndian(images, 0) != 0x803 ||
      bigEndian(images, 8) != 28 || bigEndian(images, 12) != 28)
    fail("'" + imagePath + "' is not an IDX file of 28x28 images");
  if (labels.size() < 8 || bigEndian(labels, 0) != 0x801)
    fail("'" + labelPath + "' is not an IDX label file");
  int64_t count = bigEndian(images, 4);
  if (static_cast<int64_t>(bigEndian(labels, 4)) != count)
    fail("'" + imagePath + "' and '" + labelPath +
         "' hold different numbers of examples");
  if (static_cast<int64_t>(images.size()) != 16 + count * kPixels ||
      static_cast<int64_t>(labels.size()) != 8 + count)
    fail("'" + imagePath + "' or '" + labelPath + "' is truncated");
  if (limit >= 0)
    count = std::min(count, limit);
  Dataset data;
  data.count = count;
  data.images.resize(count * kPixels);
  data.labels.resize(count);
  for (int64_t i = 0; i < count * kPixels; ++i)
    data.images[i] = images[16 + i] / 255.0f;
  for (int64_t i = 0; i < count; ++i) {
    data.labels[i] = labels[8 + i];
    if (data.labels[i] >= kClasses)
      fail("'" + labelPath + "' holds label " + std::to_string(data.labels[i]) +
           ", not in 0..9");
  }
  return data;
}

Dataset amp_train::syntheticData(int64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 17);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  std::normal_distribution<float> weight(0.0f, 1.0f);
  std::vector<float> teacher(kPixels * kClasses);
  std::mt19937_64 teacherRng(12345);
  for (float &w : teacher)
    w = weight(teacherRng);
  Dataset data;
  data.count = count;
  data.images.resize(count * kPixels);
  data.labels.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    float *image = &data.images[i * kPixels];
    for (int64_t p = 0; p < kPixels; ++p)
      image[p] = pixel(rng);
    int32_t best = 0;
    float bestScore = -INFINITY;
    for (int32_t c = 0; c < kClasses; ++c) {
      float score = 0;
      for (int64_t p = 0; p < kPixels; ++p)
        score += (image[p] - 0.5f) * teacher[p * kClasses + c];
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    data.labels[i] = best;
  }
  return data;
}

// A bag of words decides the token task well, so a model that embeds its
// ids and pools them learns it.
Dataset amp_train::syntheticTokens(int64_t count, int64_t seq, int64_t vocab,
                                   uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 29);
  std::uniform_int_distribution<int32_t> label(0, kClasses - 1);
  std::uniform_int_distribution<int32_t> anyToken(0, vocab - 1);
  std::bernoulli_distribution signal(0.25);
  Dataset data;
  data.count = count;
  data.width = seq;
  data.tokens.resize(count * seq);
  data.labels.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    int32_t c = label(rng);
    data.labels[i] = c;
    // Tokens congruent to c: c, c + 10, ... below vocab.
    std::uniform_int_distribution<int32_t> classToken(0, (vocab - 1 - c) /
                                                             kClasses);
    for (int64_t p = 0; p < seq; ++p)
      data.tokens[i * seq + p] =
          signal(rng) ? c + kClasses * classToken(rng) : anyToken(rng);
  }
  return data;
}

std::vector<int64_t> amp_train::epochOrder(int64_t count, uint64_t seed,
                                           int64_t epoch) {
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed * 1000003ull + static_cast<uint64_t>(epoch));
  for (int64_t i = count - 1; i > 0; --i) {
    std::uniform_int_distribution<int64_t> pick(0, i);
    std::swap(order[i], order[pick(rng)]);
  }
  return order;
}
