//===- Options.h - amp-train's command line ---------------------*- C++ -*-===//

#ifndef AMP_TRAIN_OPTIONS_H
#define AMP_TRAIN_OPTIONS_H

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace amp_train {

struct Options {
  std::string model;
  // For an .mlir model, passed to amp-compile when given (its defaults
  // apply otherwise).
  std::string precision;
  std::string ampOptions;
  std::string target;
  std::string cacheDir; // empty: $AMP_MLIR_CACHE_DIR or the XDG cache
  std::string data; // empty: fashion-mnist, or tokens for a step of ids
  int64_t vocab = 32;
  std::string dataDir = "/usr/share/datasets/fashion-mnist";
  int64_t epochs = 1;
  int64_t steps = -1;      // instead of epochs when set
  int64_t trainLimit = -1; // all examples when not set
  int64_t testLimit = -1;
  uint64_t seed = 0;
  std::string log;
  std::string save;
  std::string resume;
  bool quiet = false;
  bool progress = true;
  // Fault injection, to check that a bad batch is skipped and nothing lost.
  int64_t poisonStep = -1;
  std::string poison = "overflow";
  int poisonRank = 0; // whose shard --poison-step corrupts
  bool printDigest = false;
  // Data parallelism: the communicator, and a per-step replica check.
  std::string comm = "auto";
  bool checkReplicas = false;
  bool dataParallel = false; // set when there are several ranks
  int64_t batch = -1; // checked against the artifact's batch
  float lr = NAN;     // for a step that takes its learning rate
  int threads = 0;    // 0: the runtime's default, every core
  bool help = false;
};

/// The usage text of --help.
std::string getUsage();

/// Parses the arguments after the program name. On a bad argument, returns
/// nothing and says why in `error`.
std::optional<Options> parseOptions(const std::vector<std::string> &args,
                                    std::string &error);

} // namespace amp_train

#endif // AMP_TRAIN_OPTIONS_H
