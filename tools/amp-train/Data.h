//===- Data.h - the examples amp-train trains and tests on -----*- C++ -*-===//
//
// Fashion-MNIST from its IDX files, a synthetic image task and synthetic
// token sequences, and the per-epoch order of the examples.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAIN_DATA_H
#define AMP_TRAIN_DATA_H

#include "Common.h"

#include <string>
#include <vector>

namespace amp_train {

struct Dataset {
  int64_t count = 0;
  int64_t width = kPixels;     // values per example
  std::vector<float> images;   // count x 784, in [0, 1]; or
  std::vector<int32_t> tokens; // count x seq token ids
  std::vector<int32_t> labels;
};

/// Reads a gzip-compressed (or plain) IDX file whole; fails on a missing
/// or corrupt file.
std::vector<unsigned char> readIdx(const std::string &path);

/// `split` ("train" or "t10k") of Fashion-MNIST from `dir`, at most `limit`
/// examples (all when negative); fails on a malformed or truncated file.
Dataset loadFashionMnist(const std::string &dir, const std::string &split,
                         int64_t limit);

/// Images whose label is decided by a fixed random linear teacher: a
/// learnable problem of Fashion-MNIST's shape without the download.
Dataset syntheticData(int64_t count, uint64_t seed);

/// Token sequences whose class shows in their tokens: each position holds,
/// with probability 1/4, a token congruent to the label mod 10, else any
/// token in [0, vocab). Chance is 10%.
Dataset syntheticTokens(int64_t count, int64_t seq, int64_t vocab,
                        uint64_t seed);

/// The order of epoch `epoch`: a permutation that depends only on the seed
/// and the epoch, so that a resumed run sees the same batches.
std::vector<int64_t> epochOrder(int64_t count, uint64_t seed, int64_t epoch);

} // namespace amp_train

#endif // AMP_TRAIN_DATA_H
