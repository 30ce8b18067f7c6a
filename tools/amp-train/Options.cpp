//===- Options.cpp - amp-train's command line -----------------------------===//
//
// Parsed with CLI11 (Debian's libcli11-dev). Every numeric flag has a range:
// a negative, zero-where-meaningless or overflowing value is an error that
// names the flag and the range.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "Common.h"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <limits>

using namespace amp_train;

namespace {

/// The most steps a run may ask for: far beyond any real run, and small
/// enough that epochs x steps per epoch cannot overflow.
constexpr int64_t kMaxSteps = int64_t(1) << 40;
constexpr int64_t kMaxExamples = int64_t(1) << 40;

/// Declares every flag of `options` on `app`.
void addFlags(CLI::App &app, Options &options) {
  app.add_option("model", options.model, "MODEL.so or MODEL.mlir")
      ->required();
  app.add_option("--precision", options.precision,
                 "for an .mlir model: amp-compile's --precision (its default "
                 "when not given)")
      ->check(CLI::IsMember({"f32", "f16", "bf16"}));
  app.add_option("--amp-options", options.ampOptions,
                 "more amp-pipeline options for amp-compile");
  app.add_option("--target", options.target,
                 "for an .mlir model: amp-compile's --target")
      ->check(CLI::IsMember({"cpu", "cuda", "cuda-emulated"}));
  app.add_option("--cache-dir", options.cacheDir,
                 "where compiled .mlir models are kept (default "
                 "$AMP_MLIR_CACHE_DIR, else $XDG_CACHE_HOME/amp-mlir, else "
                 "~/.cache/amp-mlir)");
  app.add_option("--data", options.data,
                 "fashion-mnist, synthetic, tokens (default: tokens for a "
                 "step that takes token ids, else fashion-mnist), or "
                 "npz:FILE (arrays named after the step's data arguments)")
      ->check(CLI::Validator(
          [](std::string &text) -> std::string {
            if (text == "fashion-mnist" || text == "synthetic" ||
                text == "tokens" ||
                (text.rfind("npz:", 0) == 0 && text.size() > 4))
              return "";
            return "must be fashion-mnist, synthetic, tokens or npz:FILE, "
                   "got " + text;
          },
          "DATA"));
  app.add_option("--vocab", options.vocab,
                 "token ids in [0, N) for --data=tokens")
      ->check(CLI::Range(kClasses, int64_t(std::numeric_limits<int32_t>::max())));
  app.add_option("--data-dir", options.dataDir, "the IDX files");
  auto *epochs = app.add_option("--epochs", options.epochs, "epochs to train")
                     ->check(CLI::Range(int64_t(1), kMaxSteps));
  app.add_option("--steps", options.steps, "steps to train (instead of epochs)")
      ->check(CLI::Range(int64_t(1), kMaxSteps))
      ->excludes(epochs);
  app.add_option("--train-limit", options.trainLimit,
                 "use the first N training examples")
      ->check(CLI::Range(int64_t(1), kMaxExamples));
  app.add_option("--test-limit", options.testLimit,
                 "use the first N test examples")
      ->check(CLI::Range(int64_t(1), kMaxExamples));
  app.add_option("--seed", options.seed, "parameter init and shuffling")
      ->check(CLI::Validator(
          [](std::string &text) -> std::string {
            char *end = nullptr;
            errno = 0;
            std::strtoull(text.c_str(), &end, 10);
            if (text.empty() || text[0] == '-' || *end || errno == ERANGE)
              return "must be an integer in [0, 2^64), got " + text;
            return "";
          },
          "UINT64"));
  app.add_option("--batch", options.batch,
                 "check that the step was compiled for batch N")
      ->check(CLI::Range(int64_t(1), kMaxExamples));
  app.add_option("--threads", options.threads,
                 "threads of the step's GEMMs and convolutions (default: "
                 "every core, or OMP_NUM_THREADS)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--lr", options.lr,
                 "the learning rate, for a step that takes it")
      ->check(CLI::Validator(
          [](std::string &text) -> std::string {
            char *end = nullptr;
            double value = std::strtod(text.c_str(), &end);
            if (text.empty() || *end || !(value > 0) ||
                !(value <= std::numeric_limits<float>::max()))
              return "must be a positive finite number, got " + text;
            return "";
          },
          "POSITIVE"));
  app.add_option("--log", options.log, "step,epoch,loss,scale,skipped per step");
  app.add_option("--save", options.save, "write a checkpoint at the end");
  app.add_option("--resume", options.resume,
                 "continue from a checkpoint (bit-identically)");
  app.add_flag("--quiet", options.quiet, "no per-epoch lines");
  app.add_option("--poison-step", options.poisonStep,
                 "corrupt the batch of step N (1-based)")
      ->check(CLI::Range(int64_t(1), kMaxSteps));
  app.add_option("--poison", options.poison,
                 "overflow (pixels x 1e5, beyond f16) or nan")
      ->check(CLI::IsMember({"overflow", "nan"}));
  app.add_option("--poison-rank", options.poisonRank,
                 "under mpirun: the rank whose shard --poison-step corrupts")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()));
  app.add_flag("--print-digest", options.printDigest,
               "print FNV-1a digests of params and optimizer state (every "
               "rank, prefixed by its number, under mpirun)");
  app.add_option("--comm", options.comm,
                 "communicator of a data-parallel run: mpi, nccl (CUDA "
                 "artifacts), none, or auto (mpi when started by mpirun)")
      ->check(CLI::IsMember({"auto", "none", "mpi", "nccl"}));
  app.add_flag("--check-replicas", options.checkReplicas,
               "under mpirun: after every step, check that all ranks hold "
               "the same params and state");
}

} // namespace

std::string amp_train::getUsage() {
  Options options;
  CLI::App app("amp-train: train a compiled step", "amp-train");
  addFlags(app, options);
  return app.help();
}

std::optional<Options>
amp_train::parseOptions(const std::vector<std::string> &args,
                        std::string &error) {
  Options options;
  CLI::App app("amp-train: train a compiled step", "amp-train");
  addFlags(app, options);
  // CLI11 takes the arguments last first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp &) {
    Options help;
    help.help = true;
    return help;
  } catch (const CLI::ParseError &e) {
    error = e.what();
    return std::nullopt;
  }
  return options;
}
