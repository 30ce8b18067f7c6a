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
  std::optional<Options> options =
      parse({"--precision=bf16",  "--amp-options=loss-scaling=none",
             "--target=cuda",     "--data=tokens",
             "--vocab=64",        "--data-dir=/d",
             "--epochs=3",        "--steps=7",
             "--train-limit=100", "--test-limit=50",
             "--lr=0.5",          "--batch=64",
             "--seed=9",          "--log=l.csv",
             "--save=s.ckpt",     "--resume=r.ckpt",
             "--quiet",           "--poison-step=2",
             "--poison=nan",      "--print-digest",
             "step.mlir"});
  ASSERT_TRUE(options);
  EXPECT_EQ(options->precision, "bf16");
  EXPECT_EQ(options->ampOptions, "loss-scaling=none");
  EXPECT_EQ(options->target, "cuda");
  EXPECT_EQ(options->data, "tokens");
  EXPECT_EQ(options->vocab, 64);
  EXPECT_EQ(options->dataDir, "/d");
  EXPECT_EQ(options->epochs, 3);
  EXPECT_EQ(options->steps, 7);
  EXPECT_EQ(options->trainLimit, 100);
  EXPECT_EQ(options->testLimit, 50);
  EXPECT_FLOAT_EQ(options->lr, 0.5f);
  EXPECT_EQ(options->batch, 64);
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
  EXPECT_NE(std::string(getUsage()).find("--epochs=N"), std::string::npos);
}

TEST(Options, Errors) {
  struct Case {
    std::vector<std::string> args;
    const char *error;
  } cases[] = {
      {{}, "no model given (see --help)"},
      {{"m.so", "--epochs=two"}, "'--epochs=two' needs an integer"},
      {{"m.so", "--steps="}, "'--steps=' needs an integer"},
      {{"m.so", "--vocab=9"}, "'--vocab=9' needs at least 10 tokens"},
      {{"m.so", "--lr=-1"}, "'--lr=-1' needs a positive number"},
      {{"m.so", "--lr=inf"}, "'--lr=inf' needs a positive number"},
      {{"m.so", "--poison=zero"}, "unknown --poison 'zero'"},
      {{"m.so", "--data=cifar"}, "unknown --data 'cifar'"},
      {{"m.so", "--frobnicate"}, "unknown argument '--frobnicate'"},
      {{"a.so", "b.so"}, "unknown argument 'b.so'"},
  };
  for (const Case &c : cases) {
    std::string error;
    EXPECT_FALSE(parse(c.args, &error));
    EXPECT_NE(error.find(c.error), std::string::npos)
        << "got '" << error << "', expected '" << c.error << "'";
  }
}

} // namespace
