// The example MLP's FP16-AMP step through --amp-lower-to-cuda (compiles
// only: nothing here runs it; test/Integration/CUDA does where a GPU is).
// REQUIRES: cuda-toolkit
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline=precision=f16 -o %t.mlir
// RUN: amp-opt %t.mlir --amp-lower-to-cuda | FileCheck %s
// RUN: amp-opt %t.mlir --amp-lower-to-cuda | FileCheck %s --check-prefix=KERNELS
// RUN: amp-opt %t.mlir --amp-lower-to-cuda | FileCheck %s --check-prefix=LAUNCHES
// RUN: amp-opt %t.mlir --amp-lower-to-cuda | FileCheck %s --check-prefix=SYNCS
// RUN: amp-opt %t.mlir --amp-lower-to-cuda=wait-before-return=false | FileCheck %s --check-prefix=NOWAIT

// Host code: the five matmuls of the step (two forward, three backward)
// are cuBLASLt calls (plain GEMMs: their batch of 1 is dropped; each
// overwrites its output, beta 0, instead of a zero-fill kernel before it),
// the loop nests are kernel launches, and no buffer is allocated or freed:
// every intermediate is a view of the workspace (amp-plan-step-memory),
// the last argument, whose planned size the function carries.
// CHECK-LABEL: llvm.func @train_step(
// CHECK-SAME: amp.workspace_bytes = {{[1-9][0-9]*}} : i64
// CHECK-NOT: llvm.call @mgpuMemAlloc
// CHECK-NOT: llvm.call @mgpuMemFree
// CHECK-NOT: llvm.call @malloc
// CHECK: gpu.launch_func
// CHECK-COUNT-5: llvm.call @amp_rt_cuda_matmul_overwrite_f16(
// CHECK-NOT: llvm.call @amp_rt_cuda_{{(batch_)?}}matmul
// CHECK-NOT: llvm.call @mgpuMemAlloc
// CHECK-NOT: llvm.call @mgpuMemFree
// CHECK-NOT: llvm.call @malloc
// CHECK-LABEL: llvm.func @predict(

// Every outlined loop nest is an sm_90 fatbin (magic 0xBA55ED50).
// KERNELS: gpu.binary @train_step_kernel  [#gpu.object<#nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, properties = {{{.*}}}, "P\EDU\BA

// The step is 12 kernel launches, within the 16 asked of it (transposes
// fold into the GEMMs' operand
// layouts, amp-fuse-elementwise-ops; unit dimensions are dropped, so a
// cast on a GEMM's [1, m, n] result fuses with the bias add on its [m, n]
// view; sibling updates share one kernel, amp-fuse-elementwise-buffers,
// broadcast operands included, and elementwise producers join the
// reductions that read them, such as the ReLU gradient its bias
// gradient's; kernels that do not depend on each other, such as the
// optimizer's per parameter, are one launch,
// amp-merge-independent-launches): reductions are one kernel each (their
// parallel dimensions outermost), not one launch per batch row, and store
// their own initial values (amp-fuse-fills-into-parallel-loops); the last
// stage of the overflow check and the scale update are one-thread kernels
// (amp-sequential-code-to-gpu).
// LAUNCHES-LABEL: llvm.func @train_step(
// LAUNCHES-COUNT-12: gpu.launch_func
// LAUNCHES-NOT: gpu.launch_func
// LAUNCHES-LABEL: llvm.func @predict(

// Kernels, GEMMs, copies and frees are queued without waiting
// (amp-async-gpu-work), the host code that touched buffers runs in
// kernels, and kernels load the overflow flag themselves
// (amp-sink-loads-into-launches): the host waits for the stream once, to
// return. No host copy: results are computed in their out-params, other
// copies between whole buffers are mgpuMemcpy.
// SYNCS-LABEL: llvm.func @train_step(
// SYNCS-COUNT-1: llvm.call @mgpuStreamSynchronize(
// SYNCS-NOT: llvm.call @mgpuStreamSynchronize(
// SYNCS-NOT: llvm.intr.memcpy
// SYNCS-NOT: llvm.call @memrefCopy
// SYNCS-LABEL: llvm.func @predict(

// What amp-compile builds (amp_artifact.h v4): the step returns with its
// work queued; libamprt copies the loss back behind it and waits once.
// NOWAIT-LABEL: llvm.func @train_step(
// NOWAIT-NOT: llvm.call @mgpuStreamSynchronize(
// NOWAIT-LABEL: llvm.func @predict(
