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
// arguments are, in order, a batch of images [batch, 784] f32 in [0, 1] (or
// of token ids [batch, seq] i32, for --data=tokens) and the one-hot labels
// [batch, 10]; the artifact's `predict` function takes the images (ids) and
// then the params (in the step's order) and returns logits.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <vector>

namespace {

constexpr int64_t kPixels = 784;
constexpr int64_t kClasses = 10;

struct Options {
  std::string model;
  std::string precision = "f16";
  std::string ampOptions;
  std::string target = "cpu"; // for an .mlir model: amp-compile --target
  std::string data; // empty: fashion-mnist, or tokens for a step of ids
  int64_t vocab = 32;
  std::string dataDir = "/usr/share/datasets/fashion-mnist";
  int64_t epochs = 1;
  int64_t steps = -1; // overrides epochs when set
  int64_t trainLimit = -1;
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
  bool printDigest = false;
  int64_t batch = -1; // checked against the artifact's batch
  float lr = NAN;     // for a step that takes its learning rate
};

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "amp-train: error: %s\n", message.c_str());
  std::exit(1);
}

void usage() {
  std::printf(
      "usage: amp-train MODEL.so|MODEL.mlir [options]\n"
      "  --precision=f32|f16|bf16   for an .mlir model (default f16)\n"
      "  --amp-options=STR          more amp-pipeline options for amp-compile\n"
      "  --target=cpu|cuda          for an .mlir model (default cpu)\n"
      "  --data=fashion-mnist|synthetic|tokens   images, or synthetic token\n"
      "                             ids for a step that takes them (default)\n"
      "  --vocab=N                  token ids in [0, N) (default 32)\n"
      "  --data-dir=DIR             IDX files (default "
      "/usr/share/datasets/fashion-mnist)\n"
      "  --epochs=N | --steps=N     how long to train (default 1 epoch)\n"
      "  --train-limit=N --test-limit=N   use the first N examples only\n"
      "  --seed=S                   parameter init and shuffling (default 0)\n"
      "  --batch=N                  check that the step was compiled for batch "
      "N\n"
      "  --log=FILE.csv             step,epoch,loss,scale,skipped per step\n"
      "  --save=CKPT --resume=CKPT  checkpoints (resume continues "
      "bit-identically)\n"
      "  --quiet                    no per-epoch lines\n"
      "  --poison-step=N            corrupt the batch of step N (1-based):\n"
      "  --poison=overflow|nan        pixels x 1e5 (beyond f16) or NaN\n"
      "  --print-digest             print FNV-1a digests of params and "
      "state\n");
}

Options parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](const char *name) -> const char * {
      size_t length = std::strlen(name);
      if (arg.compare(0, length, name) == 0 && arg.size() > length &&
          arg[length] == '=')
        return argv[i] + length + 1;
      return nullptr;
    };
    auto integer = [&](const char *text) {
      char *end = nullptr;
      long long parsed = std::strtoll(text, &end, 10);
      if (!*text || *end)
        fail("'" + arg + "' needs an integer");
      return static_cast<int64_t>(parsed);
    };
    if (arg == "--help" || arg == "-h") {
      usage();
      std::exit(0);
    } else if (const char *v = value("--precision")) {
      options.precision = v;
    } else if (const char *v = value("--amp-options")) {
      options.ampOptions = v;
    } else if (const char *v = value("--target")) {
      options.target = v;
    } else if (const char *v = value("--data")) {
      options.data = v;
    } else if (const char *v = value("--vocab")) {
      options.vocab = integer(v);
      if (options.vocab < kClasses)
        fail("'" + arg + "' needs at least 10 tokens (one per class)");
    } else if (const char *v = value("--data-dir")) {
      options.dataDir = v;
    } else if (const char *v = value("--epochs")) {
      options.epochs = integer(v);
    } else if (const char *v = value("--steps")) {
      options.steps = integer(v);
    } else if (const char *v = value("--train-limit")) {
      options.trainLimit = integer(v);
    } else if (const char *v = value("--test-limit")) {
      options.testLimit = integer(v);
    } else if (const char *v = value("--lr")) {
      char *end = nullptr;
      options.lr = std::strtof(v, &end);
      if (!*v || *end || !(options.lr > 0) || !std::isfinite(options.lr))
        fail("'" + arg + "' needs a positive number");
    } else if (const char *v = value("--batch")) {
      options.batch = integer(v);
    } else if (const char *v = value("--seed")) {
      options.seed = static_cast<uint64_t>(integer(v));
    } else if (const char *v = value("--log")) {
      options.log = v;
    } else if (const char *v = value("--save")) {
      options.save = v;
    } else if (const char *v = value("--resume")) {
      options.resume = v;
    } else if (arg == "--quiet") {
      options.quiet = true;
    } else if (const char *v = value("--poison-step")) {
      options.poisonStep = integer(v);
    } else if (const char *v = value("--poison")) {
      options.poison = v;
      if (options.poison != "overflow" && options.poison != "nan")
        fail("unknown --poison '" + options.poison +
             "' (expected overflow or nan)");
    } else if (arg == "--print-digest") {
      options.printDigest = true;
    } else if (!arg.empty() && arg[0] != '-' && options.model.empty()) {
      options.model = arg;
    } else {
      fail("unknown argument '" + arg + "' (see --help)");
    }
  }
  if (options.model.empty())
    fail("no model given (see --help)");
  if (!options.data.empty() && options.data != "fashion-mnist" &&
      options.data != "synthetic" && options.data != "tokens")
    fail("unknown --data '" + options.data +
         "' (expected fashion-mnist, synthetic or tokens)");
  return options;
}

//===----------------------------------------------------------------------===//
// Data
//===----------------------------------------------------------------------===//

struct Dataset {
  int64_t count = 0;
  int64_t width = kPixels;     // values per example
  std::vector<float> images;   // count x 784, in [0, 1]; or
  std::vector<int32_t> tokens; // count x seq token ids
  std::vector<int32_t> labels;
};

/// Reads a gzip-compressed (or plain) IDX file whole.
std::vector<unsigned char> readIdx(const std::string &path) {
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file)
    fail("cannot open '" + path +
         "'. Fashion-MNIST comes with Debian's dataset-fashion-mnist package "
         "(apt-get install dataset-fashion-mnist), or pass --data-dir, or use "
         "--data=synthetic");
  std::vector<unsigned char> bytes;
  unsigned char buffer[1 << 16];
  int read;
  while ((read = gzread(file, buffer, sizeof(buffer))) > 0)
    bytes.insert(bytes.end(), buffer, buffer + read);
  int errnum = 0;
  const char *message = gzerror(file, &errnum);
  gzclose(file);
  if (read < 0 || errnum < 0)
    fail("'" + path + "' is corrupt: " + message);
  return bytes;
}

uint32_t bigEndian(const std::vector<unsigned char> &bytes, size_t offset) {
  return (uint32_t(bytes[offset]) << 24) | (uint32_t(bytes[offset + 1]) << 16) |
         (uint32_t(bytes[offset + 2]) << 8) | uint32_t(bytes[offset + 3]);
}

Dataset loadFashionMnist(const std::string &dir, const std::string &split,
                         int64_t limit) {
  std::string imagePath = dir + "/" + split + "-images-idx3-ubyte.gz";
  std::string labelPath = dir + "/" + split + "-labels-idx1-ubyte.gz";
  std::vector<unsigned char> images = readIdx(imagePath);
  std::vector<unsigned char> labels = readIdx(labelPath);
  if (images.size() < 16 || bigEndian(images, 0) != 0x803 ||
      bigEndian(images, 8) != 28 || bigEndian(images, 12) != 28)
    fail("'" + imagePath + "' is not an IDX file of 28x28 images");
  if (labels.size() < 8 || bigEndian(labels, 0) != 0x801)
    fail("'" + labelPath + "' is not an IDX label file");
  int64_t count = bigEndian(images, 4);
  if (static_cast<int64_t>(bigEndian(labels, 4)) != count)
    fail("'" + imagePath + "' and '" + labelPath +
         "' hold different numbers of examples");
  if (static_cast<int64_t>(images.size()) != 16 + count * kPixels ||
      static_cast<int64_t>(labels.size()) != 8 + count)
    fail("'" + imagePath + "' or '" + labelPath + "' is truncated");
  if (limit >= 0)
    count = std::min(count, limit);
  Dataset data;
  data.count = count;
  data.images.resize(count * kPixels);
  data.labels.resize(count);
  for (int64_t i = 0; i < count * kPixels; ++i)
    data.images[i] = images[16 + i] / 255.0f;
  for (int64_t i = 0; i < count; ++i) {
    data.labels[i] = labels[8 + i];
    if (data.labels[i] >= kClasses)
      fail("'" + labelPath + "' holds label " + std::to_string(data.labels[i]) +
           ", not in 0..9");
  }
  return data;
}

/// Images whose label is decided by a fixed random linear teacher: a
/// learnable problem of Fashion-MNIST's shape without the download.
Dataset syntheticData(int64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 17);
  std::uniform_real_distribution<float> pixel(0.0f, 1.0f);
  std::normal_distribution<float> weight(0.0f, 1.0f);
  std::vector<float> teacher(kPixels * kClasses);
  std::mt19937_64 teacherRng(12345);
  for (float &w : teacher)
    w = weight(teacherRng);
  Dataset data;
  data.count = count;
  data.images.resize(count * kPixels);
  data.labels.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    float *image = &data.images[i * kPixels];
    for (int64_t p = 0; p < kPixels; ++p)
      image[p] = pixel(rng);
    int32_t best = 0;
    float bestScore = -INFINITY;
    for (int32_t c = 0; c < kClasses; ++c) {
      float score = 0;
      for (int64_t p = 0; p < kPixels; ++p)
        score += (image[p] - 0.5f) * teacher[p * kClasses + c];
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    data.labels[i] = best;
  }
  return data;
}

/// Token sequences whose class shows in their tokens: each position holds,
/// with probability 1/4, a token congruent to the label mod 10, else any
/// token. A bag of words decides it well, so a model that embeds its ids
/// and pools them learns it; chance is 10%.
Dataset syntheticTokens(int64_t count, int64_t seq, int64_t vocab,
                        uint64_t seed) {
  std::mt19937_64 rng(seed * 7919 + 29);
  std::uniform_int_distribution<int32_t> label(0, kClasses - 1);
  std::uniform_int_distribution<int32_t> anyToken(0, vocab - 1);
  std::bernoulli_distribution signal(0.25);
  Dataset data;
  data.count = count;
  data.width = seq;
  data.tokens.resize(count * seq);
  data.labels.resize(count);
  for (int64_t i = 0; i < count; ++i) {
    int32_t c = label(rng);
    data.labels[i] = c;
    // Tokens congruent to c: c, c + 10, ... below vocab.
    std::uniform_int_distribution<int32_t> classToken(0, (vocab - 1 - c) /
                                                             kClasses);
    for (int64_t p = 0; p < seq; ++p)
      data.tokens[i * seq + p] =
          signal(rng) ? c + kClasses * classToken(rng) : anyToken(rng);
  }
  return data;
}

/// The order of epoch `epoch`: a permutation that depends only on the seed
/// and the epoch, so that a resumed run sees the same batches.
std::vector<int64_t> epochOrder(int64_t count, uint64_t seed, int64_t epoch) {
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed * 1000003ull + static_cast<uint64_t>(epoch));
  for (int64_t i = count - 1; i > 0; --i) {
    std::uniform_int_distribution<int64_t> pick(0, i);
    std::swap(order[i], order[pick(rng)]);
  }
  return order;
}

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

bool endsWith(const std::string &text, const std::string &suffix) {
  return text.size() >= suffix.size() &&
         text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// Compiles an .mlir model with the amp-compile next to this binary.
std::string compileModel(const Options &options, const char *argv0) {
  std::string self = argv0;
  std::string dir = self.find('/') == std::string::npos
                        ? std::string(".")
                        : self.substr(0, self.rfind('/'));
  std::string compiler = dir + "/amp-compile";
  struct stat info;
  if (stat(compiler.c_str(), &info) != 0)
    fail("cannot find amp-compile next to amp-train (" + compiler +
         ") to compile '" + options.model + "'");
  char pattern[] = "/tmp/amp-train-XXXXXX";
  if (!mkdtemp(pattern))
    fail("cannot create a temporary directory");
  std::string output = std::string(pattern) + "/model.so";
  std::vector<std::string> args = {compiler, options.model, "-o", output,
                                   "--precision=" + options.precision};
  if (!options.ampOptions.empty())
    args.push_back("--amp-options=" + options.ampOptions);
  args.push_back("--target=" + options.target);
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
  return output;
}

struct Trainer {
  const amp_function_info *step = nullptr;
  const amp_function_info *predict = nullptr;
  int64_t batch = 0;
  bool tokens = false;     // takes token ids [batch, width] i32
  int64_t width = kPixels; // values per example
  bool takesLearningRate = false;
  std::vector<int32_t> params; // argument indices of the step's params
};

Trainer bindModel(const amprt_artifact *artifact) {
  Trainer trainer;
  trainer.step = amprt_training_step(artifact);
  if (!trainer.step)
    fail("the artifact has no training step (no amp.loss result)");
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
      !(isMatrix(trainer.step->args[data[0]], kPixels) ||
        isTokens(trainer.step->args[data[0]])) ||
      !isMatrix(trainer.step->args[data[1]], kClasses) ||
      trainer.step->args[data[0]].shape[0] !=
          trainer.step->args[data[1]].shape[0])
    fail(std::string("training step '") + trainer.step->name +
         "' does not take (images [batch, 784] f32 or token ids [batch, seq] "
         "i32, one-hot labels [batch, 10] f32[, learning rate f32]) as its "
         "data arguments");
  const amp_tensor_info &input = trainer.step->args[data[0]];
  trainer.batch = input.shape[0];
  trainer.tokens = isTokens(input);
  trainer.width = input.shape[1];
  trainer.predict = amprt_find(artifact, "predict");
  if (trainer.predict) {
    const amp_function_info &p = *trainer.predict;
    bool ok = p.num_args == 1 + static_cast<int32_t>(trainer.params.size()) &&
              sameType(p.args[0], input) && p.num_results == 1 &&
              isMatrix(p.results[0], kClasses);
    for (size_t i = 0; ok && i < trainer.params.size(); ++i)
      ok = sameType(p.args[1 + i], trainer.step->args[trainer.params[i]]);
    if (!ok)
      fail("'predict' must take (the step's images or token ids, the step's "
           "params...) and return logits [batch, 10]");
  }
  return trainer;
}

/// One batch of the step's input: image rows or token-id rows.
struct InputBatch {
  int64_t width;
  std::vector<float> images;
  std::vector<int32_t> tokens;

  explicit InputBatch(const Trainer &trainer) : width(trainer.width) {
    if (trainer.tokens)
      tokens.resize(trainer.batch * width);
    else
      images.resize(trainer.batch * width);
  }
  void clear() {
    std::fill(images.begin(), images.end(), 0.0f);
    std::fill(tokens.begin(), tokens.end(), 0);
  }
  void setRow(int64_t row, const Dataset &data, int64_t example) {
    if (!tokens.empty())
      std::copy_n(&data.tokens[example * width], width, &tokens[row * width]);
    else
      std::copy_n(&data.images[example * width], width, &images[row * width]);
  }
  void *data() {
    return tokens.empty() ? static_cast<void *>(images.data()) : tokens.data();
  }
};

double evaluate(const amprt_artifact *artifact, const Trainer &trainer,
                amprt_session *session, const Dataset &test) {
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

void drawProgress(int64_t done, int64_t total, float loss, float scale) {
  int width = 30;
  int filled = total ? static_cast<int>(width * done / total) : width;
  std::fprintf(stderr, "\r  [%.*s%*s] %lld/%lld loss %.4f scale %g ", filled,
               "==============================", width - filled, "",
               static_cast<long long>(done), static_cast<long long>(total),
               loss, scale);
  std::fflush(stderr);
}

} // namespace

int main(int argc, char **argv) {
  Options options = parseOptions(argc, argv);
  options.progress = isatty(STDERR_FILENO) && !options.quiet;
  std::string path = endsWith(options.model, ".mlir")
                         ? compileModel(options, argv[0])
                         : options.model;

  char error[512];
  amprt_artifact *artifact = amprt_load(path.c_str(), error, sizeof(error));
  if (!artifact)
    fail(error);
  Trainer trainer = bindModel(artifact);
  if (trainer.takesLearningRate && std::isnan(options.lr))
    fail("the step takes its learning rate as an argument: pass --lr");
  if (!trainer.takesLearningRate && !std::isnan(options.lr))
    fail(
        "--lr given, but the learning rate is a constant of this step's graph");
  if (options.batch >= 0 && options.batch != trainer.batch)
    fail("the step was compiled for batch " + std::to_string(trainer.batch) +
         ", not " + std::to_string(options.batch) +
         " (the batch is part of the graph's shapes)");
  amprt_session *session =
      amprt_session_create(artifact, options.seed, error, sizeof(error));
  if (!session)
    fail(error);
  if (!options.resume.empty() &&
      amprt_session_load(session, options.resume.c_str(), error,
                         sizeof(error)) != 0)
    fail(error);

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
  int64_t perEpoch = train.count / trainer.batch;
  if (perEpoch == 0)
    fail("fewer training examples than one batch of " +
         std::to_string(trainer.batch));
  int64_t total =
      options.steps >= 0 ? options.steps : options.epochs * perEpoch;

  FILE *log = nullptr;
  if (!options.log.empty()) {
    bool append = !options.resume.empty();
    log = std::fopen(options.log.c_str(), append ? "a" : "w");
    if (!log)
      fail("cannot write log '" + options.log + "'");
    if (!append)
      std::fprintf(log, "step,epoch,loss,scale,skipped\n");
  }

  InputBatch input(trainer);
  std::vector<float> labels(trainer.batch * kClasses);
  const void *data[3] = {input.data(), labels.data(), &options.lr};
  std::vector<int64_t> order;
  int64_t orderEpoch = -1;
  int64_t nonFiniteBatches = 0;
  for (int64_t done = amprt_session_steps(session); done < total; ++done) {
    int64_t epoch = done / perEpoch, position = done % perEpoch;
    if (epoch != orderEpoch) {
      order = epochOrder(train.count, options.seed, epoch);
      orderEpoch = epoch;
    }
    std::fill(labels.begin(), labels.end(), 0.0f);
    bool finite = true;
    for (int64_t r = 0; r < trainer.batch; ++r) {
      int64_t example = order[position * trainer.batch + r];
      input.setRow(r, train, example);
      labels[r * kClasses + train.labels[example]] = 1.0f;
    }
    if (done + 1 == options.poisonStep)
      for (float &pixel : input.images)
        pixel = options.poison == "nan" ? NAN : pixel * 1e5f + 1e5f;
    for (float pixel : input.images)
      finite &= std::isfinite(pixel);
    // A batch with NaN or inf in its data is skipped before it can reach
    // the params (loss scaling only guards f16/bf16 steps).
    nonFiniteBatches += !finite;
    if (finite)
      amprt_session_step(session, data);
    else
      amprt_session_skip(session);
    float loss = amprt_session_loss(session);
    float scale = amprt_session_scale(session);
    int skipped = amprt_session_found_inf(session);
    if (log)
      std::fprintf(log, "%lld,%lld,%.9g,%.9g,%d\n",
                   static_cast<long long>(done + 1),
                   static_cast<long long>(epoch), loss, scale, skipped);
    if (options.progress && (done % 10 == 0 || done + 1 == total))
      drawProgress(done + 1, total, loss, scale);
    bool epochEnd = position + 1 == perEpoch || done + 1 == total;
    if (epochEnd && !options.quiet) {
      if (options.progress)
        std::fprintf(stderr, "\n");
      std::printf("epoch %lld step %lld loss %.4f scale %g skipped %lld\n",
                  static_cast<long long>(epoch + 1),
                  static_cast<long long>(done + 1), loss, scale,
                  static_cast<long long>(amprt_session_skipped(session)));
      std::fflush(stdout);
    }
  }
  if (log)
    std::fclose(log);
  if (nonFiniteBatches)
    std::fprintf(stderr,
                 "amp-train: warning: skipped %lld batches with non-finite "
                 "pixels\n",
                 static_cast<long long>(nonFiniteBatches));
  if (!options.save.empty() && amprt_session_save(session, options.save.c_str(),
                                                  error, sizeof(error)) != 0)
    fail(error);

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
