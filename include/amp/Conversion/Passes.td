//===- Passes.td - amp lowering passes ---------------------*- tablegen -*-===//

#ifndef AMP_CONVERSION_PASSES_TD
#define AMP_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def LowerAMPOpsPass : Pass<"amp-lower-ops"> {
  let summary = "Lower every amp op to linalg, arith and tensor";
  let description = [{
    Gives the amp ops their meaning in upstream dialects on tensors, ready
    for one-shot bufferization and the CPU or GPU pipelines:

    * `amp.grad` is its operand; `amp.loss_grad` is 1.0 of the loss type;
    * `amp.unscale` is one elementwise linalg.generic per gradient
      (multiply by 1/scale in f32) and one any-non-finite reduction chained
      over all gradients (`|x| >= inf`, unordered, so NaN counts);
    * `amp.update_scale` and `amp.skip_if_inf` are scalar arith on
      extracted values;
    * `amp.all_reduce` of a bucket becomes one `amp.all_reduce` of a 1-D
      tensor packing the bucket (insert_slice into tensor.empty, reshapes
      back after). That op stays: bufferization turns it into the runtime
      call that reduces the buffer in place.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def ContractionsToRuntimeCallsPass
    : Pass<"amp-contractions-to-runtime-calls", "::mlir::ModuleOp"> {
  let summary = "Replace buffer contractions by calls to libamprt's GEMM";
  let description = [{
    After bufferization, every linalg op that is a GEMM, named
    (`linalg.matmul`, `linalg.batch_matmul`, with any indexing maps) or
    generic, with f32, f16 or bf16 inputs and an f32 accumulator, becomes a
    call to `amp_rt_matmul_<type>` / `amp_rt_batch_matmul_<type>` (C
    interface, fully dynamic strided memrefs). A GEMM is an op whose body is
    `out + a * b` (inputs possibly widened by `arith.extf`) and whose loops
    of extent > 1 are one m, one n, one k and at most one batch loop
    (`linalg::inferContractionDims`); its operands are passed as strided
    views (`memref.reinterpret_cast` of the operand's base), so transposed
    operands, folded reshapes and an operand shared by every batch (stride
    0) need no copy. libamprt runs f32 and bf16 on oneDNN in their own
    precision and widens f16 to f32; all accumulate in f32 into the output,
    as the linalg ops do. On the CPU, 2-D convolutions (NHWC, NCHW,
    grouped, depthwise) become calls of libamprt's oneDNN convolutions
    (`runtime/include/amprt_conv.def`): a zero-padded input copy is replaced
    by the call's own padding, a contraction into zeros (a fill, or a copy
    of filled zeros) overwrites its output (the `_overwrite` calls; where
    the zeros come from is decided before any call is made), and a
    convolution whose filter is a copy of a buffer flipped in H and W (a
    data gradient) reads its taps in reverse order (the `_reversed` calls)
    from that copy made in order, or from the copied buffer itself.
    Other contractions stay loops; with
    `require-all` each one is an error saying why. With `runtime=cuda` the callees are
    libamprt_cuda's `amp_rt_cuda_*` cuBLASLt GEMMs on device buffers instead (the CUDA
    path); distinct names keep both runtimes loadable in one process.
    There an operand (A, B or C) with static strides neither of whose
    matrix dimensions is contiguous, which cuBLASLt cannot read, is first
    copied into a dense buffer (`memref.copy`, a kernel later; C is copied
    back after the call), so the runtime never gathers through the host.

    On the CPU (`round-operands`, the default), an f16/bf16 copy of an f32
    buffer (a lone elementwise `arith.truncf` over all of it, such as the
    cast of a step's input batch) that nothing but 2-D GEMMs reads, each
    as its A, with nothing writing the f32 buffer in between, is not made:
    those GEMMs become libamprt's `amp_rt_rounding_matmul_*` calls
    (`runtime/include/amprt_rounding_gemm.def`), which read the f32 buffer
    and round a block of rows of A at a time (64, and in bf16 at least a
    quarter of A) into a scratch buffer of the step.
    The results are those of the copy; the step's memory holds a block
    instead of the whole copy.
  }];
  let options = [
    Option<"runtime", "runtime", "::mlir::amp::GemmRuntime",
           /*default=*/"::mlir::amp::GemmRuntime::CPU",
           "The runtime whose GEMMs are called",
           "::mlir::amp::kGemmRuntimes">,
    Option<"requireAll", "require-all", "bool", /*default=*/"false",
           "Fail on a contraction that stays a loop nest, saying why">,
    Option<"roundOperands", "round-operands", "bool", /*default=*/"true",
           "On the CPU, let f16/bf16 GEMMs round an f32 A block by block "
           "themselves instead of reading a rounded copy only they read">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::memref::MemRefDialect"];
}

def GemmOutputsInLowPrecisionPass
    : Pass<"amp-gemm-outputs-in-low-precision", "::mlir::ModuleOp"> {
  let summary = "Let an f16/bf16 GEMM round its own output instead of a cast "
                "reading its f32 result";
  let description = [{
    After `amp-contractions-to-runtime-calls`: a GEMM call that overwrites
    an f32 buffer which nothing but one elementwise `arith.truncf` to the
    inputs' f16 or bf16 reads (a painted graph's matmul whose result feeds
    low-precision ops, such as a transformer's q/k/v projection) becomes
    the runtime's `_to_f16` / `_to_bf16` GEMM writing the cast's output
    itself: cuBLASLt, or libamprt (oneDNN's bf16 matmul writes bf16; f16
    is narrowed from an f32 product), rounds the f32 sum once, to nearest
    even, as the cast did. The cast's loop nest (a kernel on the GPU) and
    the f32 buffer in the step's memory disappear; the values are the
    same bits. Part of the CUDA and emulated CUDA lowerings; not of the
    CPU's, where it measured no faster (f16 slower). The cast's
    output must be a dense buffer holding the f32 buffer's elements in the
    same order, and nothing between the GEMM and the cast may touch it.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def EmulateGPULaunchesPass
    : Pass<"amp-emulate-gpu-launches", "::mlir::func::FuncOp"> {
  let summary = "Run gpu.launch bodies as sequential loops on the host";
  let description = [{
    A testing aid for the CUDA path on machines without a GPU: every
    `gpu.launch` (before kernel outlining) becomes six nested `scf.for`
    loops over its blocks and threads, running the body with the block and
    thread ids bound to the loop indices. The tiled, mapped and
    bounds-checked kernels of `--amp-lower-to-cuda` then execute on the CPU
    and must compute what the CPU path computes
    (`amp-compile --target=cuda-emulated`). Launches that use workgroup or
    private memory, clusters or an async token are refused (the bodies
    amp-mlir generates use none, nor barriers).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def BuffersToDeviceMemoryPass
    : Pass<"amp-buffers-to-device-memory", "::mlir::ModuleOp"> {
  let summary = "Allocate the host code's buffers in GPU device memory";
  let description = [{
    On the CUDA path every loop nest is a kernel and every contraction a
    cuBLASLt call, so a step's host code only queues work and its buffers
    live in device memory (`cuMemAlloc`, which the host cannot read; not
    managed memory, whose pages migrate and which can hang a GPU when
    oversubscribed): each `memref.alloc` in a host function becomes
    `gpu.alloc async` and each `memref.dealloc` an async `gpu.dealloc`,
    neither waited for (libamprt_cuda hands out and frees blocks in stream
    order; `amp-async-gpu-work` chains them). A constant gets a device copy
    at the top of the function. A `memref.copy` between two whole buffers
    (static, identity layouts, constants included) becomes a `gpu.memcpy`.
    Kernels inside `gpu.module` are left alone. Errors: a `memref.alloca`
    (host stack), and any host operation left that reads or writes a
    buffer's elements (a load, a store, a strided copy), which would fault
    on the GPU. The runtime allocates the step's arguments in device
    memory too and copies data in and out.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def AsyncGPUWorkPass : Pass<"amp-async-gpu-work", "::mlir::ModuleOp"> {
  let summary = "Queue a host function's GPU work without waiting, and wait only where the host touches memory";
  let description = [{
    In each host function (after `gpu-kernel-outlining`), the GPU work of a
    block becomes one chain of async operations: every `gpu.launch_func`,
    `gpu.dealloc`, `gpu.memcpy` and `gpu.memset` depends on the one before.
    Calls of functions marked `amp.stream_ordered` (libamprt_cuda's
    cuBLASLt GEMMs) are queued on the same stream and need no token;
    `gpu.alloc` queues nothing (libamprt_cuda's block cache hands blocks
    out in stream order): it takes the chain's stream and needs no wait. The host waits
    for the chain (`gpu.wait`) only before an operation that may touch
    memory itself (a load, a store, a host loop, an unknown call) and
    before the block's terminator. Host waits already in the block are
    merged into these. Nested blocks of host operations get chains of their
    own. libamprt_cuda runs every stream on one stream, so program order
    holds across chains. With `wait-before-return=false` a function returns
    with its work still queued: its caller waits (libamprt copies a step's
    loss back behind it and then waits once).
  }];
  let options = [
    Option<"waitBeforeReturn", "wait-before-return", "bool",
           /*default=*/"true",
           "Wait for the function's GPU work before it returns">,
  ];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

def ParallelChunksToRuntimePass
    : Pass<"amp-parallel-chunks-to-runtime", "::mlir::ModuleOp"> {
  let summary = "Run the calls of amp.parallel_chunk functions on libamprt's threads";
  let description = [{
    On the LLVM dialect, after `convert-func-to-llvm`: every call
    `@f(0, n, args...)` of a function marked `amp.parallel_chunk`
    (`amp-outline-parallel-chunks`) becomes
    `amprt_parallel_for(@f_task, &args, n)`, where the arguments are stored
    in a stack struct and `@f_task(context, begin, end)` loads them and
    calls `@f(begin, end, args...)`. libamprt splits `[0, n)` among its
    OpenMP threads (the thread pool oneDNN uses; `amprt_set_num_threads`)
    and returns when every chunk is done. A call whose begin is not the
    constant 0 stays a plain call.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // AMP_CONVERSION_PASSES_TD
