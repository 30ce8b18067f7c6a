//===- TrainingLoop.cpp - steps, logging and progress ---------------------===//

#include "TrainingLoop.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>

using namespace amp_train;

static void drawProgress(int64_t done, int64_t total, float loss, float scale) {
  int width = 30;
  int filled = total ? static_cast<int>(width * done / total) : width;
  std::fprintf(stderr, "\r  [%.*s%*s] %lld/%lld loss %.4f scale %g ", filled,
               "==============================", width - filled, "",
               static_cast<long long>(done), static_cast<long long>(total),
               loss, scale);
  std::fflush(stderr);
}

int64_t amp_train::runTrainingLoop(amprt_session *session,
                                   const ModelBinding &trainer,
                                   const Options &options,
                                   const Dataset &train) {
  int64_t perEpoch = train.count / trainer.batch;
  if (perEpoch == 0)
    fail("fewer training examples than one batch of " +
         std::to_string(trainer.batch));
  if (options.steps < 0 &&
      options.epochs > std::numeric_limits<int64_t>::max() / perEpoch)
    fail("--epochs=" + std::to_string(options.epochs) + " of " +
         std::to_string(perEpoch) + " steps each is more steps than can be "
         "counted");
  int64_t total =
      options.steps >= 0 ? options.steps : options.epochs * perEpoch;
  int64_t already = amprt_session_steps(session);
  if (already >= total)
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
  if (!options.log.empty()) {
    bool append = !options.resume.empty();
    log = std::fopen(options.log.c_str(), append ? "a" : "w");
    if (!log)
      logFailed();
    if (!append && std::fprintf(log, "step,epoch,loss,scale,skipped\n") < 0)
      logFailed();
  }

  InputBatch input(trainer);
  // One-hot rows or class indices, as the step takes them.
  std::vector<float> labels(trainer.batch * kClasses);
  std::vector<int32_t> classes(trainer.batch);
  const void *data[3] = {input.data(),
                         trainer.classIndices
                             ? static_cast<const void *>(classes.data())
                             : labels.data(),
                         &options.lr};
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
      classes[r] = train.labels[example];
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
    if (log && std::fprintf(log, "%lld,%lld,%.9g,%.9g,%d\n",
                            static_cast<long long>(done + 1),
                            static_cast<long long>(epoch), loss, scale,
                            skipped) < 0)
      logFailed();
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
