//===- CommTest.cpp - libamprt's communicator, one rank or many ----------===//
//
// Run alone (the "none" communicator: one rank), under `mpirun -np N`
// (auto picks MPI) and with the NCCL backend on a simulated NCCL: every expectation is written for any number of ranks,
// rank r contributing values made from r.
//
//===----------------------------------------------------------------------===//

#include "amprt.h"
#include "amprt_comm.h"
#include "strided_memref.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <string>
#include <vector>

extern "C" {
void _mlir_ciface_amp_rt_all_reduce_f32(StridedMemRef<float, 1> *buffer,
                                        int32_t reduction);
void _mlir_ciface_amp_rt_all_reduce_i1(StridedMemRef<uint8_t, 1> *buffer,
                                       int32_t reduction);
}

namespace {

int rank() { return amprt_comm_rank(); }
int size() { return amprt_comm_size(); }

TEST(Comm, SecondChoiceIsRefused) {
  char error[256] = "";
  EXPECT_EQ(amprt_comm_init("none", error, sizeof error), -1);
  EXPECT_NE(std::string(error).find("already chosen"), std::string::npos)
      << error;
}

TEST(Comm, SumMeanMaxOfF32) {
  char error[256] = "";
  float n = static_cast<float>(size());
  std::vector<float> sum = {float(rank() + 1), -1.0f, 0.5f};
  ASSERT_EQ(amprt_comm_all_reduce(sum.data(), 3, AMP_F32, AMPRT_REDUCE_SUM,
                                  error, sizeof error),
            0)
      << error;
  EXPECT_EQ(sum[0], n * (n + 1) / 2);
  EXPECT_EQ(sum[1], -n);
  EXPECT_EQ(sum[2], 0.5f * n);

  std::vector<float> mean = {float(rank() + 1), 3.0f};
  ASSERT_EQ(amprt_comm_all_reduce(mean.data(), 2, AMP_F32, AMPRT_REDUCE_MEAN,
                                  error, sizeof error),
            0);
  EXPECT_EQ(mean[0], (n + 1) / 2);
  EXPECT_EQ(mean[1], 3.0f);

  float max = float(rank());
  ASSERT_EQ(amprt_comm_all_reduce(&max, 1, AMP_F32, AMPRT_REDUCE_MAX, error,
                                  sizeof error),
            0);
  EXPECT_EQ(max, n - 1);
}

// A gradient that overflowed on one rank overflows everywhere: the sum
// carries inf and NaN to every rank.
TEST(Comm, NonFiniteValuesReachEveryRank) {
  char error[256] = "";
  std::vector<float> values = {1.0f, 1.0f};
  if (rank() == size() - 1) {
    values[0] = INFINITY;
    values[1] = NAN;
  }
  ASSERT_EQ(amprt_comm_all_reduce(values.data(), 2, AMP_F32, AMPRT_REDUCE_MEAN,
                                  error, sizeof error),
            0);
  EXPECT_TRUE(std::isinf(values[0]));
  EXPECT_TRUE(std::isnan(values[1]));
}

TEST(Comm, SixteenBitSumsRoundOnce) {
  char error[256] = "";
  float n = static_cast<float>(size());
  for (amp_dtype dtype : {AMP_F16, AMP_BF16}) {
    bool half = dtype == AMP_F16;
    auto encode = [&](float value) {
      return half ? amprt_f32_to_f16(value) : amprt_f32_to_bf16(value);
    };
    auto decode = [&](uint16_t value) {
      return half ? amprt_f16_to_f32(value) : amprt_bf16_to_f32(value);
    };
    std::vector<uint16_t> values = {encode(float(rank() + 1)), encode(0.25f)};
    ASSERT_EQ(amprt_comm_all_reduce(values.data(), 2, dtype, AMPRT_REDUCE_SUM,
                                    error, sizeof error),
              0)
        << error;
    EXPECT_EQ(decode(values[0]), n * (n + 1) / 2);
    EXPECT_EQ(decode(values[1]), 0.25f * n);
    uint16_t mean = encode(float(2 * (rank() + 1)));
    ASSERT_EQ(amprt_comm_all_reduce(&mean, 1, dtype, AMPRT_REDUCE_MEAN, error,
                                    sizeof error),
              0);
    EXPECT_EQ(decode(mean), n + 1);
  }
}

TEST(Comm, FlagsAndCounts) {
  char error[256] = "";
  uint8_t flag = rank() == size() - 1;
  ASSERT_EQ(amprt_comm_all_reduce(&flag, 1, AMP_I1, AMPRT_REDUCE_MAX, error,
                                  sizeof error),
            0);
  EXPECT_EQ(flag, 1);
  int32_t count = 10;
  ASSERT_EQ(amprt_comm_all_reduce(&count, 1, AMP_I32, AMPRT_REDUCE_SUM, error,
                                  sizeof error),
            0);
  EXPECT_EQ(count, 10 * size());
}

TEST(Comm, ReductionsWithoutAMeaningAreRefused) {
  char error[256] = "";
  uint8_t flag = 1;
  EXPECT_EQ(amprt_comm_all_reduce(&flag, 1, AMP_I1, AMPRT_REDUCE_MEAN, error,
                                  sizeof error),
            -1);
  EXPECT_NE(std::string(error).find("no all-reduce"), std::string::npos);
  double wide = 1;
  EXPECT_EQ(amprt_comm_all_reduce(&wide, 1, AMP_F64, AMPRT_REDUCE_SUM, error,
                                  sizeof error),
            -1);
  EXPECT_EQ(amprt_comm_all_reduce(nullptr, 4, AMP_F32, AMPRT_REDUCE_SUM, error,
                                  sizeof error),
            -1);
  EXPECT_NE(std::string(error).find("bad buffer"), std::string::npos);
}

TEST(Comm, BroadcastFromRoot) {
  char error[256] = "";
  std::vector<int64_t> values = {rank(), 7 * rank()};
  ASSERT_EQ(amprt_comm_broadcast(values.data(), sizeof(int64_t) * 2, 0, error,
                                 sizeof error),
            0);
  EXPECT_EQ(values, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(amprt_comm_broadcast(values.data(), 8, size(), error, sizeof error),
            -1);
  EXPECT_EQ(amprt_comm_barrier(error, sizeof error), 0);
}

// What a compiled step calls: a 1-D strided view (every other element
// here), reduced in place, the elements between untouched; the counters
// see the call and its payload.
TEST(Comm, StepEntryPointsReduceStridedViews) {
  float n = static_cast<float>(size());
  std::vector<float> storage = {float(rank()), -5.0f, 2.0f, -5.0f, 4.0f};
  StridedMemRef<float, 1> view{storage.data(), storage.data(), 0, {3}, {2}};
  int64_t calls = amprt_comm_step_calls(), bytes = amprt_comm_step_bytes();
  _mlir_ciface_amp_rt_all_reduce_f32(&view, AMPRT_REDUCE_MEAN);
  EXPECT_EQ(storage[0], (n - 1) / 2);
  EXPECT_EQ(storage[1], -5.0f);
  EXPECT_EQ(storage[2], 2.0f);
  EXPECT_EQ(storage[3], -5.0f);
  EXPECT_EQ(storage[4], 4.0f);
  EXPECT_EQ(amprt_comm_step_calls(), calls + 1);
  EXPECT_EQ(amprt_comm_step_bytes(), bytes + 12);

  uint8_t flags[2] = {0, uint8_t(rank() == 0)};
  StridedMemRef<uint8_t, 1> flagView{flags, flags, 1, {1}, {1}};
  _mlir_ciface_amp_rt_all_reduce_i1(&flagView, AMPRT_REDUCE_MAX);
  EXPECT_EQ(flags[0], 0);
  EXPECT_EQ(flags[1], 1);
}

} // namespace

int main(int argc, char **argv) {
  testing::InitGoogleTest(&argc, argv);
  char error[256] = "";
  // An unknown choice is refused and leaves the communicator unchosen.
  if (amprt_comm_init("carrier-pigeon", error, sizeof error) != -1 ||
      std::string(error).find("unknown communicator") == std::string::npos) {
    std::fprintf(stderr, "an unknown communicator was accepted: %s\n", error);
    return 1;
  }
  // AMPRT_TEST_COMM picks the backend (nccl with the mock); auto otherwise.
  const char *choice = std::getenv("AMPRT_TEST_COMM");
  if (amprt_comm_init(choice ? choice : "auto", error, sizeof error) != 0) {
    std::fprintf(stderr, "cannot start the communicator: %s\n", error);
    return 1;
  }
  std::printf("communicator %s: rank %d of %d\n", amprt_comm_backend(),
              amprt_comm_rank(), amprt_comm_size());
  int status = RUN_ALL_TESTS();
  amprt_comm_finalize();
  return status;
}
