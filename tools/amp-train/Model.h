//===- Model.h - the compiled step amp-train drives -------------*- C++ -*-===//
//
// Compiling an .mlir model with amp-compile, binding the artifact's
// training step and `predict` to the data contract, the input batches, and
// the test accuracy.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAIN_MODEL_H
#define AMP_TRAIN_MODEL_H

#include "Data.h"
#include "Options.h"

#include "amprt.h"

#include <optional>
#include <string>
#include <vector>

namespace amp_train {

/// Where compiled models are cached: --cache-dir, else $AMP_MLIR_CACHE_DIR,
/// else $XDG_CACHE_HOME/amp-mlir, else ~/.cache/amp-mlir.
std::string getCacheDirectory(const Options &options);

struct CompiledModel {
  std::string path;
  bool fromCache = false;
};

/// The artifact of `options.model` compiled by the amp-compile next to
/// `argv0` with the options' flags, from the cache when `reuse` and an
/// entry for the same source, flags and compiler exists; fails when it
/// cannot compile.
CompiledModel compileModel(const Options &options, const char *argv0,
                           bool reuse = true);

/// How the step's arguments meet the data contract.
struct ModelBinding {
  const amp_function_info *step = nullptr;
  const amp_function_info *predict = nullptr;
  int64_t batch = 0;
  bool tokens = false;     // takes token ids [batch, width] i32
  int64_t width = kPixels; // values per example
  bool takesLearningRate = false;
  bool classIndices = false;   // labels are class indices [batch] i32
  std::vector<int32_t> params; // argument indices of the step's params
  // Argument indices of the step's state that `predict` reads after the
  // params: its last ones (buffers such as batch-norm statistics).
  std::vector<int32_t> predictState;
};

/// Checks that `step` takes (images [batch, 784 values] f32 or token ids
/// [batch, seq] i32, one-hot labels [batch, 10] f32 or class indices
/// [batch] i32[, learning rate f32]) and that `predict` (optional) takes
/// the same input, the params and possibly the step's last state arguments
/// (buffers), and returns logits; says why not in `error`.
std::optional<ModelBinding> bindModel(const amp_function_info *step,
                                      const amp_function_info *predict,
                                      std::string &error);

/// One batch of the step's input: image rows or token-id rows.
struct InputBatch {
  int64_t width;
  std::vector<float> images;
  std::vector<int32_t> tokens;

  explicit InputBatch(const ModelBinding &model);
  void clear();
  void setRow(int64_t row, const Dataset &data, int64_t example);
  void *data();
};

/// The percentage of `test` that `predict` classifies right with the
/// session's params.
double evaluate(const amprt_artifact *artifact, const ModelBinding &model,
                amprt_session *session, const Dataset &test);

} // namespace amp_train

#endif // AMP_TRAIN_MODEL_H
