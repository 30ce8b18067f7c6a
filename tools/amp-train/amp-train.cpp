//===- amp-train.cpp - train a compiled step on built-in data or an .npz -===//
//
//   amp-train model.so|model.mlir [--precision=f32|f16|bf16] [--epochs=N |
//             --steps=N] [--data=fashion-mnist|synthetic|tokens|npz:FILE]
//             [--seed=S] [--log=train.csv] [--save=ckpt] [--resume=ckpt] ...
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
// With --data=npz:FILE any step trains: every data argument takes the
// array of the file named after it (amp.name), split along its first
// dimension into batches (StepData.h); there is no test accuracy.
//
//===----------------------------------------------------------------------===//

#include "Common.h"
#include "Data.h"
#include "Distributed.h"
#include "Model.h"
#include "Npz.h"
#include "Options.h"
#include "StepData.h"
#include "TrainingLoop.h"

#include "amprt_comm.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
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
  // Under mpirun every rank runs this; rank 0 speaks for all.
  Ranks ranks = startCommunicator(options.comm);
  if (options.poisonRank >= ranks.size)
    fail("--poison-rank=" + std::to_string(options.poisonRank) + " but there " +
         (ranks.size == 1 ? "is 1 rank" : "are " + std::to_string(ranks.size) +
                                               " ranks"));
  if (ranks.size > 1) {
    options.dataParallel = true;
    if (!ranks.isRoot())
      options.quiet = true;
  }
  options.progress = isatty(STDERR_FILENO) && !options.quiet;
  // A full disk (or `ulimit -f`) makes a write fail with a reason instead
  // of killing the process.
  std::signal(SIGXFSZ, SIG_IGN);
  // A temporary left by an interrupted save is never a checkpoint.
  if (!options.save.empty() && ranks.isRoot() &&
      ::unlink((options.save + ".tmp").c_str()) == 0)
    std::fprintf(stderr,
                 "amp-train: note: removed '%s.tmp', left by an interrupted "
                 "save\n",
                 options.save.c_str());

  char message[512];
  amprt_artifact *artifact = nullptr;
  if (endsWith(options.model, ".mlir")) {
    // Rank 0 compiles; the others then find its artifact in the cache.
    if (!ranks.isRoot())
      waitForAllRanks();
    CompiledModel compiled = compileModel(options, argv[0]);
    if (ranks.isRoot() && ranks.size > 1)
      waitForAllRanks();
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
  // The step's collectives get its device buffers: MPI would read them on
  // the host (a crash unless MPI is CUDA-aware); NCCL reduces on the GPU.
  if (amprt_artifact_on_device(artifact) && ranks.size > 1 &&
      std::string(amprt_comm_backend()) == "mpi")
    fail("'" + options.model +
         "' is a CUDA artifact, whose buffers are GPU device memory: its "
         "data-parallel step needs --comm=nccl, not mpi");
  const amp_function_info *step = amprt_training_step(artifact);
  if (!step)
    fail("the artifact has no training step (no amp.loss result)");
  bool fromFile = options.data.rfind("npz:", 0) == 0;
  std::optional<ModelBinding> bound;
  std::optional<NamedBinding> named;
  if (fromFile) {
    std::string path = options.data.substr(4);
    std::optional<std::map<std::string, NpyArray>> arrays =
        readNpz(path, error);
    if (!arrays)
      fail(error);
    named = bindNamedArrays(*step, std::move(*arrays), options.lr, error);
    if (!named)
      fail("'" + path + "': " + error);
    for (const std::string &name : named->unused)
      std::fprintf(stderr,
                   "amp-train: note: array '%s' of '%s' is not a data "
                   "argument of the step; not used\n",
                   name.c_str(), path.c_str());
    if (options.trainLimit >= 0)
      named->data.examples = std::min(named->data.examples, options.trainLimit);
  } else {
    bound = bindModel(step, amprt_find(artifact, "predict"), error);
    if (!bound)
      fail(error + " (--data=npz:FILE trains any step)");
  }
  bool takesLearningRate =
      fromFile ? !named->learningRate.empty() : bound->takesLearningRate;
  int64_t batch = fromFile ? named->batch : bound->batch;
  if (takesLearningRate && std::isnan(options.lr))
    fail("the step takes its learning rate as an argument: pass --lr");
  if (!takesLearningRate && !std::isnan(options.lr))
    fail(
        "--lr given, but the learning rate is a constant of this step's graph");
  if (options.batch >= 0 && options.batch != batch)
    fail("the step was compiled for batch " + std::to_string(batch) +
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
  checkReplicas(session, ranks,
                options.resume.empty() ? "at the start"
                                       : "after loading '" + options.resume +
                                             "'");

  Dataset test;
  StepData train;
  if (fromFile) {
    train = std::move(named->data);
  } else {
    const ModelBinding &trainer = *bound;
    if (options.data.empty())
      options.data = trainer.tokens ? "tokens" : "fashion-mnist";
    if (trainer.tokens && options.data != "tokens")
      fail("the step takes token ids [batch, " + std::to_string(trainer.width) +
           "] i32, not images: use --data=tokens");
    if (!trainer.tokens && options.data == "tokens")
      fail("--data=tokens needs a step that takes token ids [batch, seq] i32; "
           "this one takes images [batch, 784] f32");
    int64_t trainCount = options.trainLimit >= 0 ? options.trainLimit : 8192;
    int64_t testCount = options.testLimit >= 0 ? options.testLimit : 2048;
    Dataset examples;
    if (options.data == "fashion-mnist") {
      examples = loadFashionMnist(options.dataDir, "train", options.trainLimit);
      test = loadFashionMnist(options.dataDir, "t10k", options.testLimit);
    } else if (options.data == "tokens") {
      examples = syntheticTokens(trainCount, trainer.width, options.vocab, 1);
      test = syntheticTokens(testCount, trainer.width, options.vocab, 2);
    } else {
      examples = syntheticData(trainCount, 1);
      test = syntheticData(testCount, 2);
    }
    train = getStepData(std::move(examples), trainer, options.lr);
  }
  if (options.poisonStep >= 0 &&
      (train.columns[0].dtype != AMP_F32 || !train.columns[0].perExample))
    fail("--poison-step corrupts the f32 values of the step's first data "
         "argument; '" + train.columns[0].name + "' is not f32 per example");
  int64_t stepsBefore = amprt_session_steps(session);
  auto started = std::chrono::steady_clock::now();
  int64_t nonFiniteBatches =
      runTrainingLoop(session, batch, options, train, ranks);
  double seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - started)
                       .count();
  if (nonFiniteBatches && ranks.isRoot())
    std::fprintf(stderr,
                 "amp-train: warning: skipped %lld batches with non-finite "
                 "data\n",
                 static_cast<long long>(nonFiniteBatches));
  if (!options.save.empty() && ranks.isRoot() &&
      amprt_session_save(session, options.save.c_str(), message,
                         sizeof(message)) != 0)
    fail(message);

  if (options.printDigest)
    std::printf("%sparams-digest %016llx state-digest %016llx\n",
                ranks.size > 1
                    ? ("rank " + std::to_string(ranks.rank) + " ").c_str()
                    : "",
                static_cast<unsigned long long>(
                    amprt_session_digest(session, AMP_ROLE_PARAM)),
                static_cast<unsigned long long>(
                    amprt_session_digest(session, AMP_ROLE_STATE)));
  int64_t stepsRun = amprt_session_steps(session) - stepsBefore;
  if (!ranks.isRoot()) {
    amprt_session_destroy(session);
    amprt_unload(artifact);
    amprt_comm_finalize();
    return 0;
  }
  std::printf("steps %lld skipped %lld final-scale %g\n",
              static_cast<long long>(amprt_session_steps(session)),
              static_cast<long long>(amprt_session_skipped(session)),
              amprt_session_scale(session));
  if (fromFile)
    std::printf("trained on %lld examples of '%s': no test accuracy\n",
                static_cast<long long>(train.examples),
                options.data.substr(4).c_str());
  else if (bound->predict)
    std::printf("test accuracy %.2f%% (%lld examples)\n",
                evaluate(artifact, *bound, session, test),
                static_cast<long long>(test.count));
  else
    std::printf("no 'predict' function in the artifact: no test accuracy\n");
  // Throughput of the training loop alone (no startup, compilation or
  // evaluation), and what the step exchanged.
  if (stepsRun > 0)
    std::printf("trained %lld steps in %.3f s (%.0f examples/s)\n",
                static_cast<long long>(stepsRun), seconds,
                double(stepsRun * batch * ranks.size) / seconds);
  if (ranks.size > 1 && stepsRun > 0)
    std::printf("data-parallel: %d ranks (%s), per step %.3g all-reduce "
                "calls of %.0f bytes in all\n",
                ranks.size, amprt_comm_backend(),
                double(amprt_comm_step_calls()) / double(stepsRun),
                double(amprt_comm_step_bytes()) / double(stepsRun));
  amprt_session_destroy(session);
  amprt_unload(artifact);
  amprt_comm_finalize();
  return 0;
}
