//===- amp-train.cpp - train a compiled step on Fashion-MNIST or synthetic data
//
//   amp-train model.so|model.mlir [--precision=f32|f16|bf16] [--epochs=N |
//             --steps=N] [--data=fashion-mnist|synthetic|tokens] [--seed=S]
//             [--log=train.csv] [--save=ckpt] [--resume=ckpt] ...
//
// MLIR-free: it loads the artifact through libamprt. Given an .mlir file it
// first runs amp-compile (found next to this binary).
//
// Data contract of the step (the example MLP follows it): its data
// arguments are, in order, a batch of images f32 in [0, 1] with 784 values
// per example (or of token ids [batch, seq] i32, for --data=tokens) and the
// labels, one-hot [batch, 10] f32 or class indices [batch] i32; the
// artifact's `predict` function takes the images (ids), the params (in the
// step's order) and possibly the step's last state arguments (batch-norm
// statistics), and returns logits.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Data.h"
#include "Model.h"
#include "Options.h"
#include "TrainingLoop.h"

#include <unistd.h>

#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace amp_train;

static bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int main(int argc, char **argv) {
  std::string error;
  std::optional<Options> parsed =
      parseOptions(std::vector<std::string>(argv + 1, argv + argc), error);
  if (!parsed)
    fail(error);
  Options options = *parsed;
  if (options.help) {
    std::fputs(getUsage().c_str(), stdout);
    return 0;
  }
  options.progress = isatty(STDERR_FILENO) && !options.quiet;
  // A full disk (or `ulimit -f`) makes a write fail with a reason instead
  // of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  // A temporary left by an interrupted save is never a checkpoint.
  if (!options.save.empty() && ::unlink((options.save + ".tmp").c_str()) == 0)
    std::fprintf(stderr,
                 "amp-train: note: removed '%s.tmp', left by an interrupted "
                 "save\n",
                 options.save.c_str());

  char message[512];
  amprt_artifact *artifact = nullptr;
  if (endsWith(options.model, ".mlir")) {
    CompiledModel compiled = compileModel(options, argv[0]);
    artifact = amprt_load(compiled.path.c_str(), message, sizeof(message));
    // A damaged cache entry (not one that fails for another reason, such
    // as a missing driver) is compiled again.
    if (!artifact && compiled.fromCache &&
        amprt_check_artifact_file(compiled.path.c_str(), nullptr, 0) != 0) {
      std::fprintf(stderr, "amp-train: note: %s; compiling again\n", message);
      ::unlink(compiled.path.c_str());
      compiled = compileModel(options, argv[0], /*reuse=*/false);
      artifact = amprt_load(compiled.path.c_str(), message, sizeof(message));
    }
  } else {
    artifact = amprt_load(options.model.c_str(), message, sizeof(message));
  }
  if (!artifact)
    fail(message);
  std::optional<ModelBinding> bound = bindModel(
      amprt_training_step(artifact), amprt_find(artifact, "predict"), error);
  if (!bound)
    fail(error);
  const ModelBinding &trainer = *bound;
  if (trainer.takesLearningRate && std::isnan(options.lr))
    fail("the step takes its learning rate as an argument: pass --lr");
  if (!trainer.takesLearningRate && !std::isnan(options.lr))
    fail(
        "--lr given, but the learning rate is a constant of this step's graph");
  if (options.batch >= 0 && options.batch != trainer.batch)
    fail("the step was compiled for batch " + std::to_string(trainer.batch) +
         ", not " + std::to_string(options.batch) +
         " (the batch is part of the graph's shapes)");
  if (options.threads > 0)
    amprt_set_num_threads(options.threads);
  amprt_session *session =
      amprt_session_create(artifact, options.seed, message, sizeof(message));
  if (!session)
    fail(message);
  if (!options.resume.empty() &&
      amprt_session_load(session, options.resume.c_str(), message,
                         sizeof(message)) != 0)
    fail(message);

  if (options.data.empty())
    options.data = trainer.tokens ? "tokens" : "fashion-mnist";
  if (trainer.tokens && options.data != "tokens")
    fail("the step takes token ids [batch, " + std::to_string(trainer.width) +
         "] i32, not images: use --data=tokens");
  if (!trainer.tokens && options.data == "tokens")
    fail("--data=tokens needs a step that takes token ids [batch, seq] i32; "
         "this one takes images [batch, 784] f32");
  if (trainer.tokens && options.poisonStep >= 0)
    fail("--poison-step corrupts pixels; this step takes token ids");

  Dataset train, test;
  int64_t trainCount = options.trainLimit >= 0 ? options.trainLimit : 8192;
  int64_t testCount = options.testLimit >= 0 ? options.testLimit : 2048;
  if (options.data == "fashion-mnist") {
    train = loadFashionMnist(options.dataDir, "train", options.trainLimit);
    test = loadFashionMnist(options.dataDir, "t10k", options.testLimit);
  } else if (options.data == "tokens") {
    train = syntheticTokens(trainCount, trainer.width, options.vocab, 1);
    test = syntheticTokens(testCount, trainer.width, options.vocab, 2);
  } else {
    train = syntheticData(trainCount, 1);
    test = syntheticData(testCount, 2);
  }
  int64_t nonFiniteBatches = runTrainingLoop(session, trainer, options, train);
  if (nonFiniteBatches)
    std::fprintf(stderr,
                 "amp-train: warning: skipped %lld batches with non-finite "
                 "pixels\n",
                 static_cast<long long>(nonFiniteBatches));
  if (!options.save.empty() &&
      amprt_session_save(session, options.save.c_str(), message,
                         sizeof(message)) != 0)
    fail(message);

  if (options.printDigest)
    std::printf("params-digest %016llx state-digest %016llx\n",
                static_cast<unsigned long long>(
                    amprt_session_digest(session, AMP_ROLE_PARAM)),
                static_cast<unsigned long long>(
                    amprt_session_digest(session, AMP_ROLE_STATE)));
  std::printf("steps %lld skipped %lld final-scale %g\n",
              static_cast<long long>(amprt_session_steps(session)),
              static_cast<long long>(amprt_session_skipped(session)),
              amprt_session_scale(session));
  if (trainer.predict)
    std::printf("test accuracy %.2f%% (%lld examples)\n",
                evaluate(artifact, trainer, session, test),
                static_cast<long long>(test.count));
  else
    std::printf("no 'predict' function in the artifact: no test accuracy\n");
  amprt_session_destroy(session);
  amprt_unload(artifact);
  return 0;
}
