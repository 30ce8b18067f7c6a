//===- Model.cpp - the compiled step amp-train drives ---------------------===//

#include "Model.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

using namespace amp_train;

/// The bytes of `path`, or nothing when it cannot be read.
static std::optional<std::string> readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  if (in.bad())
    return std::nullopt;
  return bytes;
}

std::string amp_train::getCacheDirectory(const Options &options) {
  if (!options.cacheDir.empty())
    return options.cacheDir;
  if (const char *dir = std::getenv("AMP_MLIR_CACHE_DIR"); dir && *dir)
    return dir;
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/amp-mlir";
  if (const char *home = std::getenv("HOME"); home && *home)
    return std::string(home) + "/.cache/amp-mlir";
  return "/tmp/amp-mlir-cache-" + std::to_string(getuid());
}

/// `mkdir -p`.
static bool makeDirectories(const std::string &path) {
  for (size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
      return false;
    if (slash == std::string::npos)
      return true;
  }
}

CompiledModel amp_train::compileModel(const Options &options,
                                      const char *argv0, bool reuse) {
  std::string self = argv0;
  std::string dir = self.find('/') == std::string::npos
                        ? std::string(".")
                        : self.substr(0, self.rfind('/'));
  std::string compiler = dir + "/amp-compile";
  std::optional<std::string> compilerBytes = readFile(compiler);
  if (!compilerBytes)
    fail("cannot find amp-compile next to amp-train (" + compiler +
         ") to compile '" + options.model + "'");
  std::optional<std::string> source = readFile(options.model);
  if (!source)
    fail("cannot read '" + options.model + "': " + std::strerror(errno));

  std::vector<std::string> flags;
  if (!options.precision.empty())
    flags.push_back("--precision=" + options.precision);
  if (!options.ampOptions.empty())
    flags.push_back("--amp-options=" + options.ampOptions);
  if (!options.target.empty())
    flags.push_back("--target=" + options.target);
  if (options.dataParallel)
    flags.push_back("--data-parallel");

  // The artifact depends on the source, the flags and the compiler: the
  // cache key hashes all three (XXH3, 128 bits).
  XXH3_state_t *state = XXH3_createState();
  XXH3_128bits_reset(state);
  auto hashPart = [&](const std::string &part) {
    uint64_t size = part.size();
    XXH3_128bits_update(state, &size, sizeof(size));
    XXH3_128bits_update(state, part.data(), part.size());
  };
  hashPart(*source);
  for (const std::string &flag : flags)
    hashPart(flag);
  hashPart(*compilerBytes);
  XXH128_hash_t key = XXH3_128bits_digest(state);
  XXH3_freeState(state);
  char name[40];
  std::snprintf(name, sizeof(name), "%016llx%016llx",
                static_cast<unsigned long long>(key.high64),
                static_cast<unsigned long long>(key.low64));

  std::string cache = getCacheDirectory(options);
  if (!makeDirectories(cache))
    fail("cannot create the cache directory '" + cache +
         "': " + std::strerror(errno) + " (set --cache-dir)");
  std::string output = cache + "/" + name + ".so";
  struct stat info;
  if (reuse && ::stat(output.c_str(), &info) == 0)
    return {output, /*fromCache=*/true};

  // amp-compile links next to the output and renames: a failed or
  // interrupted compile leaves no entry.
  std::vector<std::string> args = {compiler, options.model, "-o", output};
  args.insert(args.end(), flags.begin(), flags.end());
  pid_t pid = fork();
  if (pid == 0) {
    std::vector<char *> cargs;
    for (std::string &a : args)
      cargs.push_back(a.data());
    cargs.push_back(nullptr);
    execv(compiler.c_str(), cargs.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    fail("amp-compile failed on '" + options.model + "'");
  return {output, /*fromCache=*/false};
}

std::optional<ModelBinding>
amp_train::bindModel(const amp_function_info *step,
                     const amp_function_info *predict, std::string &error) {
  ModelBinding trainer;
  trainer.step = step;
  if (!trainer.step) {
    error = "the artifact has no training step (no amp.loss result)";
    return std::nullopt;
  }
  std::vector<int32_t> data;
  for (int32_t i = 0; i < trainer.step->num_args; ++i) {
    const amp_tensor_info &arg = trainer.step->args[i];
    if (arg.role == AMP_ROLE_DATA)
      data.push_back(i);
    else if (arg.role == AMP_ROLE_PARAM)
      trainer.params.push_back(i);
  }
  auto isMatrix = [](const amp_tensor_info &t, int64_t columns) {
    return t.dtype == AMP_F32 && t.rank == 2 && t.shape[1] == columns;
  };
  // Images: any f32 shape [batch, ...] with 784 values per example (flat,
  // or [batch, 1, 28, 28] as a convolutional model takes them).
  auto isImages = [](const amp_tensor_info &t) {
    int64_t values = 1;
    for (int32_t d = 1; d < t.rank; ++d)
      values *= t.shape[d];
    return t.dtype == AMP_F32 && t.rank >= 2 && values == kPixels;
  };
  auto isClassIndices = [](const amp_tensor_info &t) {
    return t.dtype == AMP_I32 && t.rank == 1;
  };
  auto isTokens = [](const amp_tensor_info &t) {
    return t.dtype == AMP_I32 && t.rank == 2 && t.shape[1] > 0;
  };
  auto sameType = [](const amp_tensor_info &a, const amp_tensor_info &b) {
    return a.rank == b.rank && a.dtype == b.dtype &&
           std::equal(a.shape, a.shape + a.rank, b.shape);
  };
  // An optional third data argument, a scalar f32, is the learning rate.
  if (data.size() == 3 && trainer.step->args[data[2]].rank == 0 &&
      trainer.step->args[data[2]].dtype == AMP_F32) {
    trainer.takesLearningRate = true;
    data.pop_back();
  }
  if (data.size() != 2 ||
      !(isImages(trainer.step->args[data[0]]) ||
        isTokens(trainer.step->args[data[0]])) ||
      !(isMatrix(trainer.step->args[data[1]], kClasses) ||
        isClassIndices(trainer.step->args[data[1]])) ||
      trainer.step->args[data[0]].shape[0] !=
          trainer.step->args[data[1]].shape[0]) {
    error = std::string("training step '") + trainer.step->name +
            "' does not take (images [batch, 784 values] f32 or token ids "
            "[batch, seq] i32, one-hot labels [batch, 10] f32 or class "
            "indices [batch] i32[, learning rate f32]) as its data arguments";
    return std::nullopt;
  }
  const amp_tensor_info &input = trainer.step->args[data[0]];
  trainer.batch = input.shape[0];
  trainer.tokens = isTokens(input);
  trainer.width = trainer.tokens ? input.shape[1] : kPixels;
  trainer.classIndices = isClassIndices(trainer.step->args[data[1]]);
  trainer.predict = predict;
  if (trainer.predict) {
    const amp_function_info &p = *trainer.predict;
    std::vector<int32_t> state;
    for (int32_t i = 0; i < trainer.step->num_args; ++i)
      if (trainer.step->args[i].role == AMP_ROLE_STATE)
        state.push_back(i);
    int32_t extra =
        p.num_args - 1 - static_cast<int32_t>(trainer.params.size());
    bool ok = extra >= 0 && extra <= static_cast<int32_t>(state.size()) &&
              sameType(p.args[0], input) && p.num_results == 1 &&
              isMatrix(p.results[0], kClasses);
    for (size_t i = 0; ok && i < trainer.params.size(); ++i)
      ok = sameType(p.args[1 + i], trainer.step->args[trainer.params[i]]);
    if (ok)
      trainer.predictState.assign(state.end() - extra, state.end());
    for (int32_t i = 0; ok && i < extra; ++i)
      ok = sameType(p.args[1 + trainer.params.size() + i],
                    trainer.step->args[trainer.predictState[i]]);
    if (!ok) {
      error = "'predict' must take (the step's images or token ids, the "
              "step's params..., its last state arguments...) and return "
              "logits [batch, 10]";
      return std::nullopt;
    }
  }
  return trainer;
}

InputBatch::InputBatch(const ModelBinding &model) : width(model.width) {
  if (model.tokens)
    tokens.resize(model.batch * width);
  else
    images.resize(model.batch * width);
}

void InputBatch::clear() {
  std::fill(images.begin(), images.end(), 0.0f);
  std::fill(tokens.begin(), tokens.end(), 0);
}

void InputBatch::setRow(int64_t row, const Dataset &data, int64_t example) {
  if (!tokens.empty())
    std::copy_n(&data.tokens[example * width], width, &tokens[row * width]);
  else
    std::copy_n(&data.images[example * width], width, &images[row * width]);
}

void *InputBatch::data() {
  return tokens.empty() ? static_cast<void *>(images.data()) : tokens.data();
}

double amp_train::evaluate(const amprt_artifact *artifact,
                           const ModelBinding &trainer, amprt_session *session,
                           const Dataset &test) {
  InputBatch input(trainer);
  std::vector<float> logits(trainer.batch * kClasses);
  std::vector<void *> buffers;
  int64_t correct = 0;
  for (int64_t start = 0; start < test.count; start += trainer.batch) {
    int64_t rows = std::min(trainer.batch, test.count - start);
    input.clear();
    for (int64_t r = 0; r < rows; ++r)
      input.setRow(r, test, start + r);
    buffers.clear();
    buffers.push_back(input.data());
    for (int32_t index : trainer.params)
      buffers.push_back(amprt_session_argument(session, index));
    for (int32_t index : trainer.predictState)
      buffers.push_back(amprt_session_argument(session, index));
    buffers.push_back(logits.data());
    amprt_call(artifact, trainer.predict, buffers.data());
    for (int64_t r = 0; r < rows; ++r) {
      const float *row = &logits[r * kClasses];
      int32_t best =
          static_cast<int32_t>(std::max_element(row, row + kClasses) - row);
      correct += best == test.labels[start + r];
    }
  }
  return test.count ? 100.0 * correct / test.count : 0.0;
}
