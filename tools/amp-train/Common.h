//===- Common.h - what every part of amp-train shares -----------*- C++ -*-===//

#ifndef AMP_TRAIN_COMMON_H
#define AMP_TRAIN_COMMON_H

#include <cstdint>
#include <string>

namespace amp_train {

/// The data contract: 28x28 images (or token rows) and 10 classes.
constexpr int64_t kPixels = 784;
constexpr int64_t kClasses = 10;

/// Prints "amp-train: error: MESSAGE" and exits with status 1.
[[noreturn]] void fail(const std::string &message);

} // namespace amp_train

#endif // AMP_TRAIN_COMMON_H
