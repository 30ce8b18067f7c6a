//===- StepData.h - training examples as the step's data arguments -*- C++ -*-===//
//
// Whatever the data (Fashion-MNIST, synthetic, an .npz file), the training
// loop sees one column per data argument of the step, in argument order:
// per-example values split along the batch, or one value fed every step
// (the learning rate, a constant mask).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAIN_STEPDATA_H
#define AMP_TRAIN_STEPDATA_H

#include "Data.h"
#include "Model.h"
#include "Npz.h"

#include "amp_artifact.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace amp_train {

struct DataColumn {
  std::string name; // the argument's, for messages
  amp_dtype dtype = AMP_F32;
  bool perExample = true;
  size_t exampleBytes = 0;           // of one example, or of the whole value
  std::vector<unsigned char> values; // examples x exampleBytes, or one value
};

struct StepData {
  int64_t examples = 0;
  std::vector<DataColumn> columns; // one per data argument, in order
};

/// The built-in examples in the layout `model` takes: images or token ids,
/// one-hot labels or class indices, and the learning rate `lr` when the
/// step takes it.
StepData getStepData(Dataset data, const ModelBinding &model, float lr);

/// How a step whose data comes from an .npz file is driven.
struct NamedBinding {
  int64_t batch = 0;
  StepData data;
  std::string learningRate;        // the argument fed --lr, if any
  std::vector<std::string> unused; // arrays of the file no argument reads
};

/// Binds every data argument of `step` to the array of `arrays` with its
/// name: an argument of rank >= 1 is split along its first dimension (the
/// batch, the same for all), so its array has shape [examples,
/// rest of the argument's shape...]; a rank-0 argument takes a rank-0
/// array every step, except that the one rank-0 f32 argument missing from
/// the file is the learning rate (`lr`, NaN when not given). int32
/// arguments also take int64 arrays whose values fit. On a missing name,
/// a wrong shape or dtype, returns nothing and says which and why in
/// `error`.
std::optional<NamedBinding>
bindNamedArrays(const amp_function_info &step,
                std::map<std::string, NpyArray> arrays, float lr,
                std::string &error);

} // namespace amp_train

#endif // AMP_TRAIN_STEPDATA_H
