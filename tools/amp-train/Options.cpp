//===- Options.cpp - amp-train's command line -----------------------------===//

#include "Options.h"

#include "Common.h"

#include <cstdlib>
#include <cstring>

using namespace amp_train;

const char *amp_train::getUsage() {
  return "usage: amp-train MODEL.so|MODEL.mlir [options]\n"
         "  --precision=f32|f16|bf16   for an .mlir model (amp-compile's "
         "default)\n"
         "  --amp-options=STR          more amp-pipeline options for "
         "amp-compile\n"
         "  --target=cpu|cuda          for an .mlir model (amp-compile's "
         "default)\n"
         "  --data=fashion-mnist|synthetic|tokens   images, or synthetic "
         "token\n"
         "                             ids for a step that takes them "
         "(default)\n"
         "  --vocab=N                  token ids in [0, N) (default 32)\n"
         "  --data-dir=DIR             IDX files (default "
         "/usr/share/datasets/fashion-mnist)\n"
         "  --epochs=N | --steps=N     how long to train (default 1 epoch)\n"
         "  --train-limit=N --test-limit=N   use the first N examples only\n"
         "  --seed=S                   parameter init and shuffling (default "
         "0)\n"
         "  --batch=N                  check that the step was compiled for "
         "batch N\n"
         "  --lr=X                     for a step that takes its learning "
         "rate\n"
         "  --log=FILE.csv             step,epoch,loss,scale,skipped per step\n"
         "  --save=CKPT --resume=CKPT  checkpoints (resume continues "
         "bit-identically)\n"
         "  --quiet                    no per-epoch lines\n"
         "  --poison-step=N            corrupt the batch of step N "
         "(1-based):\n"
         "  --poison=overflow|nan        pixels x 1e5 (beyond f16) or NaN\n"
         "  --print-digest             print FNV-1a digests of params and "
         "state\n";
}

std::optional<Options>
amp_train::parseOptions(const std::vector<std::string> &args,
                        std::string &error) {
  Options options;
  for (const std::string &arg : args) {
    auto value = [&](const char *name) -> const char * {
      size_t length = std::strlen(name);
      if (arg.compare(0, length, name) == 0 && arg.size() > length &&
          arg[length] == '=')
        return arg.c_str() + length + 1;
      return nullptr;
    };
    auto integer = [&](const char *text, int64_t &out) {
      char *end = nullptr;
      long long parsed = std::strtoll(text, &end, 10);
      if (!*text || *end) {
        error = "'" + arg + "' needs an integer";
        return false;
      }
      out = static_cast<int64_t>(parsed);
      return true;
    };
    if (arg == "--help" || arg == "-h") {
      options.help = true;
      return options;
    } else if (const char *v = value("--precision")) {
      options.precision = v;
    } else if (const char *v = value("--amp-options")) {
      options.ampOptions = v;
    } else if (const char *v = value("--target")) {
      options.target = v;
    } else if (const char *v = value("--data")) {
      options.data = v;
    } else if (const char *v = value("--vocab")) {
      if (!integer(v, options.vocab))
        return std::nullopt;
      if (options.vocab < kClasses) {
        error = "'" + arg + "' needs at least 10 tokens (one per class)";
        return std::nullopt;
      }
    } else if (const char *v = value("--data-dir")) {
      options.dataDir = v;
    } else if (const char *v = value("--epochs")) {
      if (!integer(v, options.epochs))
        return std::nullopt;
    } else if (const char *v = value("--steps")) {
      if (!integer(v, options.steps))
        return std::nullopt;
    } else if (const char *v = value("--train-limit")) {
      if (!integer(v, options.trainLimit))
        return std::nullopt;
    } else if (const char *v = value("--test-limit")) {
      if (!integer(v, options.testLimit))
        return std::nullopt;
    } else if (const char *v = value("--lr")) {
      char *end = nullptr;
      options.lr = std::strtof(v, &end);
      if (!*v || *end || !(options.lr > 0) || !std::isfinite(options.lr)) {
        error = "'" + arg + "' needs a positive number";
        return std::nullopt;
      }
    } else if (const char *v = value("--batch")) {
      if (!integer(v, options.batch))
        return std::nullopt;
    } else if (const char *v = value("--seed")) {
      int64_t seed = 0;
      if (!integer(v, seed))
        return std::nullopt;
      options.seed = static_cast<uint64_t>(seed);
    } else if (const char *v = value("--log")) {
      options.log = v;
    } else if (const char *v = value("--save")) {
      options.save = v;
    } else if (const char *v = value("--resume")) {
      options.resume = v;
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (const char *v = value("--poison-step")) {
      if (!integer(v, options.poisonStep))
        return std::nullopt;
    } else if (const char *v = value("--poison")) {
      options.poison = v;
      if (options.poison != "overflow" && options.poison != "nan") {
        error = "unknown --poison '" + options.poison +
                "' (expected overflow or nan)";
        return std::nullopt;
      }
    } else if (arg == "--print-digest") {
      options.printDigest = true;
    } else if (!arg.empty() && arg[0] != '-' && options.model.empty()) {
      options.model = arg;
    } else {
      error = "unknown argument '" + arg + "' (see --help)";
      return std::nullopt;
    }
  }
  if (options.model.empty()) {
    error = "no model given (see --help)";
    return std::nullopt;
  }
  if (!options.data.empty() && options.data != "fashion-mnist" &&
      options.data != "synthetic" && options.data != "tokens") {
    error = "unknown --data '" + options.data +
            "' (expected fashion-mnist, synthetic or tokens)";
    return std::nullopt;
  }
  return options;
}
