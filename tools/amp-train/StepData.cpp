//===- StepData.cpp - training examples as the step's data arguments ------===//

#include "StepData.h"

#include "amprt.h"

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace amp_train;

/// A column of `count` examples of `T`, `width` values each.
template <typename T>
static DataColumn makeColumn(std::string name, amp_dtype dtype,
                             const std::vector<T> &values, int64_t width) {
  DataColumn column;
  column.name = std::move(name);
  column.dtype = dtype;
  column.exampleBytes = width * sizeof(T);
  column.values.resize(values.size() * sizeof(T));
  std::memcpy(column.values.data(), values.data(), column.values.size());
  return column;
}

/// The learning rate `lr` as the column of argument `name`, fed whole
/// every step.
static DataColumn makeLearningRate(std::string name, float lr) {
  DataColumn rate =
      makeColumn(std::move(name), AMP_F32, std::vector<float>{lr}, 1);
  rate.perExample = false;
  return rate;
}

StepData amp_train::getStepData(Dataset data, const ModelBinding &model,
                                float lr) {
  StepData result;
  result.examples = data.count;
  if (model.tokens)
    result.columns.push_back(
        makeColumn("tokens", AMP_I32, data.tokens, model.width));
  else
    result.columns.push_back(
        makeColumn("images", AMP_F32, data.images, model.width));
  data.images = {};
  data.tokens = {};
  if (model.classIndices) {
    result.columns.push_back(makeColumn("labels", AMP_I32, data.labels, 1));
  } else {
    std::vector<float> oneHot(data.count * kClasses, 0.0f);
    for (int64_t i = 0; i < data.count; ++i)
      oneHot[i * kClasses + data.labels[i]] = 1.0f;
    result.columns.push_back(makeColumn("labels", AMP_F32, oneHot, kClasses));
  }
  if (model.takesLearningRate) {
    result.columns.push_back(makeLearningRate("lr", lr));
  }
  return result;
}

/// The step's name of `dtype` ("f32", ...), as amp-compile's types say it.
static std::string getDTypeName(amp_dtype dtype) {
  switch (dtype) {
  case AMP_F32:
    return "f32";
  case AMP_F16:
    return "f16";
  case AMP_BF16:
    return "bf16";
  case AMP_I32:
    return "i32";
  case AMP_I1:
    return "i1";
  case AMP_F64:
    return "f64";
  case AMP_I64:
    return "i64";
  }
  return "?";
}

/// The numpy array types an argument of `dtype` takes.
static std::vector<NpyType> getAcceptedTypes(amp_dtype dtype) {
  switch (dtype) {
  case AMP_F32:
    return {NpyType::Float32};
  case AMP_F16:
    return {NpyType::Float16};
  case AMP_F64:
    return {NpyType::Float64};
  case AMP_I32:
    return {NpyType::Int32, NpyType::Int64};
  case AMP_I64:
    return {NpyType::Int64, NpyType::Int32};
  case AMP_I1:
    return {NpyType::Bool};
  case AMP_BF16:
    return {};
  }
  return {};
}

/// The values of `array` as `dtype`: a copy, or a conversion between the
/// integer widths that checks every value fits.
static bool convertValues(const NpyArray &array, amp_dtype dtype,
                          std::vector<unsigned char> &out,
                          std::string &error) {
  int64_t count = array.getNumElements();
  if (array.type == NpyType::Int64 && dtype == AMP_I32) {
    out.resize(count * sizeof(int32_t));
    for (int64_t i = 0; i < count; ++i) {
      int64_t value;
      std::memcpy(&value, &array.bytes[i * sizeof(value)], sizeof(value));
      if (value < INT32_MIN || value > INT32_MAX) {
        error = "element " + std::to_string(i) + " is " +
                std::to_string(value) + ", beyond int32";
        return false;
      }
      int32_t narrow = static_cast<int32_t>(value);
      std::memcpy(&out[i * sizeof(narrow)], &narrow, sizeof(narrow));
    }
    return true;
  }
  if (array.type == NpyType::Int32 && dtype == AMP_I64) {
    out.resize(count * sizeof(int64_t));
    for (int64_t i = 0; i < count; ++i) {
      int32_t value;
      std::memcpy(&value, &array.bytes[i * sizeof(value)], sizeof(value));
      int64_t wide = value;
      std::memcpy(&out[i * sizeof(wide)], &wide, sizeof(wide));
    }
    return true;
  }
  out = array.bytes;
  return true;
}

static std::string describeShape(const amp_tensor_info &arg,
                                 bool withExamples) {
  std::string text = "(";
  for (int32_t d = withExamples ? 1 : 0; d < arg.rank; ++d)
    text += std::string(d > (withExamples ? 1 : 0) ? ", " : "") +
            std::to_string(arg.shape[d]);
  if (withExamples)
    text = "(examples" + std::string(arg.rank > 1 ? ", " : "") + text.substr(1);
  return text + (!withExamples && arg.rank == 1 ? ",)" : ")");
}

std::optional<NamedBinding>
amp_train::bindNamedArrays(const amp_function_info &step,
                           std::map<std::string, NpyArray> arrays, float lr,
                           std::string &error) {
  NamedBinding binding;
  std::string held;
  for (const auto &entry : arrays)
    held += (held.empty() ? "" : ", ") + entry.first;
  std::string learningRate;
  int64_t examples = -1;
  std::string examplesFrom;
  for (int32_t i = 0; i < step.num_args; ++i) {
    const amp_tensor_info &arg = step.args[i];
    if (arg.role != AMP_ROLE_DATA)
      continue;
    std::string name = arg.name;
    std::string what = "data argument '" + name + "' (" +
                       getDTypeName(arg.dtype) + " " +
                       describeShape(arg, false) + ")";
    auto found = arrays.find(name);
    if (found == arrays.end()) {
      if (arg.rank == 0 && arg.dtype == AMP_F32 && learningRate.empty()) {
        learningRate = name;
        binding.data.columns.push_back(makeLearningRate(name, lr));
        continue;
      }
      error = "the file has no array '" + name + "' for the step's " + what +
              "; it holds " + (held.empty() ? "no arrays" : held);
      return std::nullopt;
    }
    const NpyArray &array = found->second;
    std::vector<NpyType> accepted = getAcceptedTypes(arg.dtype);
    if (std::find(accepted.begin(), accepted.end(), array.type) ==
        accepted.end()) {
      std::string names;
      for (NpyType type : accepted)
        names += std::string(names.empty() ? "" : " or ") +
                 getNpyTypeName(type);
      error = "array '" + name + "' is " + getNpyTypeName(array.type) +
              ", but the step's " + what + " takes " +
              (names.empty() ? "no numpy type amp-train reads" : names);
      return std::nullopt;
    }
    DataColumn column;
    column.name = name;
    column.dtype = arg.dtype;
    column.perExample = arg.rank > 0;
    bool shapeOk = static_cast<int32_t>(array.shape.size()) == arg.rank;
    for (int32_t d = column.perExample ? 1 : 0; shapeOk && d < arg.rank; ++d)
      shapeOk = array.shape[d] == arg.shape[d];
    if (!shapeOk || (column.perExample && array.shape[0] == 0)) {
      error = "array '" + name + "' has shape " + array.describeShape() +
              ", but the step's " + what + " takes " +
              describeShape(arg, column.perExample) +
              (column.perExample ? ", split along the first dimension into "
                                   "batches of " +
                                       std::to_string(arg.shape[0])
                                 : "");
      return std::nullopt;
    }
    if (column.perExample) {
      if (binding.batch == 0) {
        binding.batch = arg.shape[0];
      } else if (arg.shape[0] != binding.batch) {
        error = "the step's " + what + " has batch " +
                std::to_string(arg.shape[0]) + " and another data argument " +
                std::to_string(binding.batch) +
                "; amp-train splits every data argument along its first "
                "dimension, the batch";
        return std::nullopt;
      }
      if (examples >= 0 && array.shape[0] != examples) {
        error = "array '" + name + "' holds " +
                std::to_string(array.shape[0]) + " examples and array '" +
                examplesFrom + "' " + std::to_string(examples);
        return std::nullopt;
      }
      examples = array.shape[0];
      examplesFrom = name;
    }
    std::string conversion;
    if (!convertValues(array, arg.dtype, column.values, conversion)) {
      error = "array '" + name + "': " + conversion;
      return std::nullopt;
    }
    column.exampleBytes =
        column.values.size() / (column.perExample ? examples : 1);
    arrays.erase(found);
    binding.data.columns.push_back(std::move(column));
  }
  if (binding.batch == 0) {
    error = std::string("training step '") + step.name +
            "' has no data argument with a batch dimension to feed";
    return std::nullopt;
  }
  if (!learningRate.empty() && std::isnan(lr)) {
    error = "the file has no array '" + learningRate +
            "' for the step's scalar f32 data argument: it is the learning "
            "rate, pass --lr";
    return std::nullopt;
  }
  binding.data.examples = examples;
  binding.learningRate = learningRate;
  for (const auto &[key, value] : arrays)
    binding.unused.push_back(key);
  return binding;
}
