//===- OptionsTest.cpp - amp-train's command line -------------------------===//

#include "Options.h"

#include <gtest/gtest.h>

using namespace amp_train;

namespace {

std::optional<Options> parse(std::vector<std::string> args,
                             std::string *error = nullptr) {
  std::string message;
  std::optional<Options> options = parseOptions(args, message);
  if (error)
    *error = message;
  return options;
}

TEST(Options, Defaults) {
  std::optional<Options> options = parse({"model.so"});
  ASSERT_TRUE(options);
  EXPECT_EQ(options->model, "model.so");
  EXPECT_EQ(options->precision, ""); // amp-compile's default
  EXPECT_EQ(options->target, "");
  EXPECT_EQ(options->epochs, 1);
  EXPECT_EQ(options->steps, -1);
  EXPECT_EQ(options->vocab, 32);
  EXPECT_TRUE(std::isnan(options->lr));
  EXPECT_FALSE(options->help);
}

TEST(Options, EveryFlag) {
  std::string error;
  std::optional<Options> options =
      parse({"--precision=bf16",  "--amp-options=loss-scaling=none",
             "--target=cuda",     "--data=tokens",
             "--vocab=64",        "--data-dir=/d",
             "--epochs=3",        "--cache-dir=/c",
             "--train-limit=100", "--test-limit=50",
             "--lr=0.5",          "--batch=64",
             "--threads=3",
             "--seed=9",          "--log=l.csv",
             "--save=s.ckpt",     "--resume=r.ckpt",
             "--quiet",           "--poison-step=2",
             "--poison=nan",      "--print-digest",
             "step.mlir"},
            &error);
  ASSERT_TRUE(options) << error;
  EXPECT_EQ(options->precision, "bf16");
  EXPECT_EQ(options->ampOptions, "loss-scaling=none");
  EXPECT_EQ(options->target, "cuda");
  EXPECT_EQ(options->data, "tokens");
  EXPECT_EQ(options->vocab, 64);
  EXPECT_EQ(options->dataDir, "/d");
  EXPECT_EQ(options->cacheDir, "/c");
  EXPECT_EQ(options->epochs, 3);
  EXPECT_EQ(options->steps, -1);
  EXPECT_EQ(options->trainLimit, 100);
  EXPECT_EQ(options->testLimit, 50);
  EXPECT_FLOAT_EQ(options->lr, 0.5f);
  EXPECT_EQ(options->batch, 64);
  EXPECT_EQ(options->threads, 3);
  EXPECT_EQ(options->seed, 9u);
  EXPECT_EQ(options->log, "l.csv");
  EXPECT_EQ(options->save, "s.ckpt");
  EXPECT_EQ(options->resume, "r.ckpt");
  EXPECT_TRUE(options->quiet);
  EXPECT_EQ(options->poisonStep, 2);
  EXPECT_EQ(options->poison, "nan");
  EXPECT_TRUE(options->printDigest);
  EXPECT_EQ(options->model, "step.mlir");
}

TEST(Options, HelpNeedsNoModel) {
  std::optional<Options> options = parse({"--help"});
  ASSERT_TRUE(options);
  EXPECT_TRUE(options->help);
  EXPECT_NE(getUsage().find("--epochs"), std::string::npos);
}

TEST(Options, Errors) {
  struct Case {
    std::vector<std::string> args;
    const char *error;
  } cases[] = {
      // Every numeric flag names itself and its range.
      {{}, "model is required"},
      {{"m.so", "--epochs=two"}, "--epochs: Value two not in range 1 to"},
      {{"m.so", "--epochs=0"}, "--epochs: Value 0 not in range 1 to"},
      {{"m.so", "--epochs=-1"}, "--epochs: Value -1 not in range 1 to"},
      {{"m.so", "--epochs=9223372036854775807"},
       "--epochs: Value 9223372036854775807 not in range 1 to 1099511627776"},
      {{"m.so", "--steps=-3"}, "--steps: Value -3 not in range 1 to"},
      {{"m.so", "--steps=2", "--epochs=1"}, "excludes"},
      {{"m.so", "--batch=-5"}, "--batch: Value -5 not in range 1 to"},
      {{"m.so", "--train-limit=-7"}, "--train-limit: Value -7 not in range"},
      {{"m.so", "--test-limit=0"}, "--test-limit: Value 0 not in range"},
      {{"m.so", "--poison-step=0"}, "--poison-step: Value 0 not in range"},
      {{"m.so", "--vocab=9"}, "--vocab: Value 9 not in range 10 to"},
      {{"m.so", "--vocab=4294967306"},
       "--vocab: Value 4294967306 not in range 10 to 2147483647"},
      {{"m.so", "--seed=-1"}, "must be an integer in [0, 2^64), got -1"},
      {{"m.so", "--lr=-1"}, "must be a positive finite number, got -1"},
      {{"m.so", "--threads=0"}, "--threads: Value 0 not in range 1 to 4096"},
      {{"m.so", "--lr=inf"}, "must be a positive finite number, got inf"},
      {{"m.so", "--poison=zero"}, "--poison: zero not in {overflow,nan}"},
      {{"m.so", "--data=cifar"},
       "--data: must be fashion-mnist, synthetic, tokens or npz:FILE, got cifar"},
      {{"m.so", "--data=npz:"}, "--data: must be fashion-mnist"},
      {{"m.so", "--precision=f8"}, "--precision: f8 not in"},
      {{"m.so", "--frobnicate"}, "not expected: --frobnicate"},
      {{"a.so", "b.so"}, "not expected: b.so"},
  };
  for (const Case &c : cases) {
    std::string error;
    EXPECT_FALSE(parse(c.args, &error));
    EXPECT_NE(error.find(c.error), std::string::npos)
        << "got '" << error << "', expected '" << c.error << "'";
  }
}

} // namespace
