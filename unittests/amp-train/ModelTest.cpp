//===- ModelTest.cpp - binding a step to the data contract ----------------===//

#include "Model.h"

#include <gtest/gtest.h>

using namespace amp_train;

namespace {

/// A hand-made artifact description (what amp-compile's shim exports).
struct FakeStep {
  std::vector<std::vector<int64_t>> shapes;
  std::vector<amp_tensor_info> args, results;
  amp_function_info info{};

  void add(std::vector<amp_tensor_info> &list, amp_dtype dtype, amp_role role,
           std::vector<int64_t> shape) {
    shapes.push_back(shape);
    list.push_back(
        {dtype, role, -1, static_cast<int32_t>(shape.size()), nullptr});
  }
  const amp_function_info *finish(const char *name) {
    size_t s = 0;
    for (amp_tensor_info &t : args)
      t.shape = shapes[s++].data();
    for (amp_tensor_info &t : results)
      t.shape = shapes[s++].data();
    info = {name,
            static_cast<int32_t>(args.size()),
            args.data(),
            static_cast<int32_t>(results.size()),
            results.data(),
            0.0f,
            0,
            nullptr};
    return &info;
  }
};

TEST(Model, BindsImagesLabelsAndParams) {
  FakeStep step;
  step.add(step.args, AMP_F32, AMP_ROLE_DATA, {64, 784});
  step.add(step.args, AMP_F32, AMP_ROLE_DATA, {64, 10});
  step.add(step.args, AMP_F32, AMP_ROLE_PARAM, {784, 10});
  step.add(step.args, AMP_F32, AMP_ROLE_STATE, {784, 10});
  step.add(step.results, AMP_F32, AMP_ROLE_LOSS, {});
  FakeStep predict;
  predict.add(predict.args, AMP_F32, AMP_ROLE_DATA, {64, 784});
  predict.add(predict.args, AMP_F32, AMP_ROLE_DATA, {784, 10});
  predict.add(predict.results, AMP_F32, AMP_ROLE_OUTPUT, {64, 10});
  std::string error;
  std::optional<ModelBinding> model =
      bindModel(step.finish("train_step"), predict.finish("predict"), error);
  ASSERT_TRUE(model) << error;
  EXPECT_EQ(model->batch, 64);
  EXPECT_FALSE(model->tokens);
  EXPECT_FALSE(model->takesLearningRate);
  EXPECT_EQ(model->params, (std::vector<int32_t>{2}));
  EXPECT_NE(model->predict, nullptr);
}

TEST(Model, BindsTokensAndALearningRate) {
  FakeStep step;
  step.add(step.args, AMP_I32, AMP_ROLE_DATA, {8, 16});
  step.add(step.args, AMP_F32, AMP_ROLE_DATA, {8, 10});
  step.add(step.args, AMP_F32, AMP_ROLE_DATA, {});
  step.add(step.results, AMP_F32, AMP_ROLE_LOSS, {});
  std::string error;
  std::optional<ModelBinding> model =
      bindModel(step.finish("train_step"), nullptr, error);
  ASSERT_TRUE(model) << error;
  EXPECT_TRUE(model->tokens);
  EXPECT_EQ(model->width, 16);
  EXPECT_TRUE(model->takesLearningRate);
  InputBatch batch(*model);
  EXPECT_EQ(batch.tokens.size(), 8u * 16u);
  EXPECT_TRUE(batch.images.empty());
}

TEST(Model, RefusesOtherSignatures) {
  std::string error;
  EXPECT_FALSE(bindModel(nullptr, nullptr, error));
  EXPECT_NE(error.find("no training step"), std::string::npos);

  FakeStep wrongLabels;
  wrongLabels.add(wrongLabels.args, AMP_F32, AMP_ROLE_DATA, {64, 784});
  wrongLabels.add(wrongLabels.args, AMP_F32, AMP_ROLE_DATA, {64, 5});
  EXPECT_FALSE(bindModel(wrongLabels.finish("s"), nullptr, error));
  EXPECT_NE(error.find("does not take (images"), std::string::npos);

  FakeStep step;
  step.add(step.args, AMP_F32, AMP_ROLE_DATA, {64, 784});
  step.add(step.args, AMP_F32, AMP_ROLE_DATA, {64, 10});
  step.add(step.args, AMP_F32, AMP_ROLE_PARAM, {784, 10});
  FakeStep predict; // forgets the param
  predict.add(predict.args, AMP_F32, AMP_ROLE_DATA, {64, 784});
  predict.add(predict.results, AMP_F32, AMP_ROLE_OUTPUT, {64, 10});
  EXPECT_FALSE(bindModel(step.finish("s"), predict.finish("predict"), error));
  EXPECT_NE(error.find("'predict' must take"), std::string::npos);
}

TEST(Model, InputBatchCopiesRows) {
  ModelBinding model;
  model.batch = 2;
  model.width = kPixels;
  Dataset data = syntheticData(3, 1);
  InputBatch batch(model);
  batch.setRow(1, data, 2);
  EXPECT_EQ(batch.images[kPixels], data.images[2 * kPixels]);
  EXPECT_EQ(batch.data(), batch.images.data());
  batch.clear();
  EXPECT_EQ(batch.images[kPixels], 0.0f);
}

} // namespace
