//===- TrainingLoop.cpp - steps, logging and progress ---------------------===//

#include "TrainingLoop.h"

#include "amprt_comm.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace amp_train;

/// The f32 values of `bytes` as fault injection corrupts them: NaN, or
/// scaled beyond f16's range.
static void poison(std::vector<unsigned char> &bytes, bool nan) {
  for (size_t i = 0; i + sizeof(float) <= bytes.size(); i += sizeof(float)) {
    float value;
    std::memcpy(&value, &bytes[i], sizeof(value));
    value = nan ? NAN : value * 1e5f + 1e5f;
    std::memcpy(&bytes[i], &value, sizeof(value));
  }
}

static bool allFinite(const std::vector<unsigned char> &bytes) {
  for (size_t i = 0; i + sizeof(float) <= bytes.size(); i += sizeof(float)) {
    float value;
    std::memcpy(&value, &bytes[i], sizeof(value));
    if (!std::isfinite(value))
      return false;
  }
  return true;
}

static void drawProgress(int64_t done, int64_t total, float loss, float scale) {
  int width = 30;
  int filled = total ? static_cast<int>(width * done / total) : width;
  std::fprintf(stderr, "\r  [%.*s%*s] %lld/%lld loss %.4f scale %g ", filled,
               "==============================", width - filled, "",
               static_cast<long long>(done), static_cast<long long>(total),
               loss, scale);
  std::fflush(stderr);
}

int64_t amp_train::runTrainingLoop(amprt_session *session, int64_t batch,
                                   const Options &options, StepData &train,
                                   const Ranks &ranks) {
  int64_t globalBatch = batch * ranks.size;
  int64_t perEpoch = train.examples / globalBatch;
  if (perEpoch == 0)
    fail("fewer training examples (" + std::to_string(train.examples) +
         ") than one batch of " + std::to_string(globalBatch) +
         (ranks.size > 1 ? " (" + std::to_string(batch) + " per rank x " +
                               std::to_string(ranks.size) + " ranks)"
                         : std::string()));
  if (options.steps < 0 &&
      options.epochs > std::numeric_limits<int64_t>::max() / perEpoch)
    fail("--epochs=" + std::to_string(options.epochs) + " of " +
         std::to_string(perEpoch) + " steps each is more steps than can be "
         "counted");
  int64_t total =
      options.steps >= 0 ? options.steps : options.epochs * perEpoch;
  int64_t already = amprt_session_steps(session);
  if (already >= total && ranks.isRoot())
    std::fprintf(stderr,
                 "amp-train: note: the session is at step %lld, not before "
                 "the %lld steps asked for: nothing to train\n",
                 static_cast<long long>(already),
                 static_cast<long long>(total));

  // Every line is checked: a full disk ends the run with the reason
  // instead of a log with holes.
  FILE *log = nullptr;
  auto logFailed = [&] {
    fail("cannot write log '" + options.log + "': " + std::strerror(errno));
  };
  if (!options.log.empty() && ranks.isRoot()) {
    bool append = !options.resume.empty();
    log = std::fopen(options.log.c_str(), append ? "a" : "w");
    if (!log)
      logFailed();
    // A resumed run appends to its log, or starts one.
    if (std::ftell(log) == 0 &&
        std::fprintf(log, "step,epoch,loss,scale,skipped\n") < 0)
      logFailed();
  }

  // One batch buffer per per-example column; the others are passed whole.
  std::vector<std::vector<unsigned char>> batches(train.columns.size());
  std::vector<const void *> data(train.columns.size());
  for (size_t c = 0; c < train.columns.size(); ++c) {
    const DataColumn &column = train.columns[c];
    if (column.perExample) {
      batches[c].resize(batch * column.exampleBytes);
      data[c] = batches[c].data();
    } else {
      data[c] = column.values.data();
    }
  }
  std::vector<int64_t> order;
  int64_t orderEpoch = -1;
  int64_t nonFiniteBatches = 0;
  for (int64_t done = amprt_session_steps(session); done < total; ++done) {
    int64_t epoch = done / perEpoch, position = done % perEpoch;
    if (epoch != orderEpoch) {
      order = epochOrder(train.examples, options.seed, epoch);
      orderEpoch = epoch;
    }
    for (size_t c = 0; c < train.columns.size(); ++c) {
      const DataColumn &column = train.columns[c];
      if (!column.perExample)
        continue;
      for (int64_t r = 0; r < batch; ++r) {
        int64_t example =
            order[position * globalBatch + ranks.rank * batch + r];
        std::memcpy(&batches[c][r * column.exampleBytes],
                    &column.values[example * column.exampleBytes],
                    column.exampleBytes);
      }
    }
    if (done + 1 == options.poisonStep && ranks.rank == options.poisonRank)
      poison(batches[0], options.poison == "nan");
    bool finite = true;
    for (size_t c = 0; c < train.columns.size(); ++c)
      if (train.columns[c].dtype == AMP_F32 && train.columns[c].perExample)
        finite &= allFinite(batches[c]);
    // A batch with NaN or inf in its data is skipped before it can reach
    // the params (loss scaling only guards f16/bf16 steps); by every rank,
    // which must all run the step's collectives or none.
    if (ranks.size > 1)
      finite = !onAnyRank(!finite);
    nonFiniteBatches += !finite;
    if (finite) {
      amprt_session_step(session, data.data());
      // Every rank stops here together: they all run the same artifact.
      if (ranks.size > 1 && amprt_comm_step_calls() == 0)
        fail("the step ran without a single all-reduce: it was not compiled "
             "for data parallelism, and the ranks would train apart "
             "(amp-compile --data-parallel, or give amp-train the .mlir)");
    } else {
      amprt_session_skip(session);
    }
    float loss = amprt_session_loss(session);
    // An overflowed step's NaN is printed as "nan" whatever its sign bit
    // (x86's default NaN has it set; it means nothing to a reader).
    if (std::isnan(loss))
      loss = std::fabs(loss);
    float scale = amprt_session_scale(session);
    int skipped = amprt_session_found_inf(session);
    if (log && std::fprintf(log, "%lld,%lld,%.9g,%.9g,%d\n",
                            static_cast<long long>(done + 1),
                            static_cast<long long>(epoch), loss, scale,
                            skipped) < 0)
      logFailed();
    if (options.checkReplicas)
      checkReplicas(session, ranks, "after step " + std::to_string(done + 1));
    if (!ranks.isRoot())
      continue;
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
  if (log && (std::fflush(log) != 0 || std::ferror(log))) {
    int saved = errno;
    std::fclose(log);
    errno = saved;
    logFailed();
  }
  if (log && std::fclose(log) != 0)
    logFailed();
  return nonFiniteBatches;
}
