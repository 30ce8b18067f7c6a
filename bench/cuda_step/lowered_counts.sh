#!/usr/bin/env bash
# What each example's CUDA step asks of the GPU, counted in its lowered IR
# (no GPU, no driver needed; the counts test/Examples/mlp-lower-to-cuda.mlir
# checks for the MLP, for every example):
#   bench/cuda_step/lowered_counts.sh [PRECISION...]     (default: f32 f16 bf16)
# Each step is the module amp-compile --target=cuda builds (its
# mixed-precision options, --emit-mlir), lowered by --amp-lower-to-cuda
# with updates in place, as amp-compile lowers it, but with the host
# waiting for the stream before returning (amp-opt's default; an artifact
# leaves that wait to libamprt). Counted in @train_step only: kernel
# launches (gpu.launch_func), runtime GEMM calls, calls that allocate or
# free memory, stream synchronizations, host memcpys (llvm.intr.memcpy,
# memrefCopy) and device-to-device copies queued on the stream
# (mgpuMemcpy; the batch's copy in and the results' copy out are
# libamprt's, outside the step).
set -euo pipefail
# shellcheck source=bench/cuda_step/common.sh
source "$(dirname "$0")/common.sh"
echo "| step | precision | launches | GEMMs | alloc/free calls | stream syncs | host memcpys | device-to-device copies |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for example in $examples; do
  for precision in $precisions; do
    "$bin/amp-compile" "$root/examples/$example" --target=cuda --precision="$precision" \
      --emit-mlir="$work/step.mlir" -o "$work/step.so"
    "$bin/amp-opt" "$work/step.mlir" --amp-lower-to-cuda=update-in-place=true -o "$work/lowered.mlir"
    awk '/llvm.func @train_step\(/,/^  }/' "$work/lowered.mlir" > "$work/train_step.mlir"
    count() { grep -cE "$1" "$work/train_step.mlir" || true; }
    echo "| examples/$example | $precision | $(count 'gpu.launch_func') |" \
      "$(count 'llvm.call @amp_rt_cuda_(batch_)?matmul') |" \
      "$(count 'llvm.call @(mgpuMemAlloc|mgpuMemFree|malloc|free|aligned_alloc|amprt_cuda_alloc|amprt_cuda_free)\(') |" \
      "$(count 'llvm.call @mgpuStreamSynchronize\(') |" \
      "$(count 'llvm.intr.memcpy|llvm.call @memrefCopy\(') |" \
      "$(count 'llvm.call @mgpuMemcpy\(') |"
  done
done
