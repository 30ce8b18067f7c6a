//===- cuda_mock.h - what the simulated driver counted ---------*- C++ -*-===//
//
// cuda_mock.cpp (libamprt_cuda_mock_driver) stands in for libcuda and
// cublaslt_mock.cpp (a libcublasLt.so.13) for cuBLASLt on the CPU; they
// count, from one amprt_mock_begin_step to the next, what a training step
// asked of the GPU. amprt-cuda-mock-step prints these per step.
//
//===----------------------------------------------------------------------===//

#ifndef AMPRT_TEST_CUDA_MOCK_H
#define AMPRT_TEST_CUDA_MOCK_H

#include <cstdint>
#include <functional>

struct amprt_mock_counts {
  int64_t launches = 0;      // cuLaunchKernel
  int64_t gemms = 0;         // cublasLtMatmul
  int64_t graphLaunches = 0; // cuGraphLaunch
  int64_t allocs = 0;        // cuMemAlloc, cuMemAllocManaged, cuMemAllocHost
  int64_t frees = 0;         // cuMemFree, cuMemFreeHost
  int64_t syncs = 0;         // stream, context and event synchronizations
  int64_t h2d = 0;           // copies from host memory to device memory
  int64_t d2h = 0;           // copies from device memory to host memory
  int64_t hostTouches = 0;   // device pages the host read or wrote
  int64_t heuristics = 0;    // cublasLtMatmulAlgoGetHeuristic
};

/// Starts counting afresh and closes the device pages the host opened.
void amprt_mock_begin_step();
amprt_mock_counts amprt_mock_step_counts();

/// For the simulated cuBLASLt: the counts to add to, and where the mock
/// reads or writes `pointer` (the shadow of a device address, any other
/// address as it is).
amprt_mock_counts &amprt_mock_counters();
void *amprt_mock_shadow(const void *pointer);
/// While a stream is captured: records `work` for the graph's replays and
/// returns true; otherwise false (run it now).
bool amprt_mock_record(std::function<void()> work);

#endif // AMPRT_TEST_CUDA_MOCK_H
