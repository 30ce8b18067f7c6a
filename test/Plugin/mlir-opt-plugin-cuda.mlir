// Debian's mlir-opt-22 with our plugin lowers a mixed-precision step all the
// way for CUDA: kernels as sm_90 fatbins, GEMMs as libamprt_cuda calls.
// REQUIRES: cuda-toolkit
// RUN: %mlir_opt_22 --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   %amp_src_root/examples/mlp/train_step.mlir \
// RUN:   --pass-pipeline="builtin.module(amp-pipeline{precision=bf16},amp-lower-to-cuda)" | FileCheck %s

// CHECK-LABEL: llvm.func @train_step(
// A GEMM into a freshly zeroed buffer does not read it (beta = 0).
// CHECK: llvm.call @amp_rt_cuda_matmul_overwrite_bf16(
// CHECK: gpu.binary @train_step_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">
