//===- Passes.td - amp transformation passes ---------------*- tablegen -*-===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AutocastPass : Pass<"amp-autocast", "::mlir::ModuleOp"> {
  let summary = "Paint every op low precision or f32 from a policy and insert casts";
  let description = [{
    Rewrites FP32 functions into mixed precision. Every op is put in a
    category by the precision policy:

    * allow: contractions and convolutions; low-precision operands, f32
      accumulation (an f32 result, cast once if its consumers are low);
    * deny: numerically sensitive ops (exp, log, pow, reciprocal, rsqrt,
      sums, softmax); always f32, and they make the infer ops downstream
      of them f32 too (as TF's AutoMixedPrecision does);
    * infer: elementwise ops that run low between low ops, or when all
      their float inputs are low;
    * clear: data movement; follows its neighbours in both directions.

    Painting is one decision per function over forward and backward
    together; casts go only on the boundaries between colours, each value
    is cast at most once per type, casts the input already has are reused,
    and a widening cast is never narrowed again. Everything downstream of
    `amp.grad` (the optimizer) and the ops computing only the `amp.loss`
    result stay f32. Integer, boolean and f64 values are never touched.
    Function signatures are unchanged.

    `amp.keep_f32` and `amp.force_low` on an op override the painting.
    Ops the policy does not know stay f32 and get a remark.

    Policy files are JSON objects whose keys `allow`, `deny`, `infer`,
    `clear` and `remove` each hold a list of op names; `precision` may give
    the target type. Options given on the command line apply after the file.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect"
  ];
  let options = [
    Option<"precision", "precision", "::mlir::amp::LowPrecision",
           /*default=*/"::mlir::amp::kDefaultLowPrecision",
           "Low-precision type",
           "::mlir::amp::kLowPrecisions">,
    ListOption<"allowOps", "allow", "std::string",
               "Op names moved to the allow category">,
    ListOption<"denyOps", "deny", "std::string",
               "Op names moved to the deny category">,
    ListOption<"inferOps", "infer", "std::string",
               "Op names moved to the infer category">,
    ListOption<"clearOps", "clear", "std::string",
               "Op names moved to the clear category">,
    Option<"policyFile", "policy", "std::string", /*default=*/"\"\"",
           "JSON policy file applied before the list options">,
    Option<"castDialect", "cast-dialect", "::mlir::amp::CastDialect",
           /*default=*/"::mlir::amp::kDefaultCastDialect",
           "Dialect of the casts inserted on tensors",
           "::mlir::amp::kCastDialects">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "Emit a remark on every painted op: its category, the precision it "
           "got and why">,
  ];
}

def PrecisionReportPass : Pass<"amp-precision-report", "::mlir::ModuleOp"> {
  let summary = "Print, per function, ops per category and precision, casts "
                "and activation bytes";
  let description = [{
    An analysis that changes nothing: for every function it prints a table
    of ops per policy category and precision (low or f32), the number of
    float casts, and the estimated bytes of float tensor values the
    function produces at their current types beside the same values in
    f32. Run it after `amp-autocast` to see what the rewrite did.
  }];
  let options = [
    Option<"policyFile", "policy", "std::string", /*default=*/"\"\"",
           "JSON policy file used to categorize ops">,
    Option<"outputFile", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the report ('-' for stderr)">,
  ];
}

def MasterWeightsPass : Pass<"amp-master-weights", "::mlir::ModuleOp"> {
  let summary = "Keep f32 master weights with one low-precision working copy";
  let description = [{
    In every training step, each `amp.param` argument stays the f32
    master: the optimizer reads and updates it in f32. Its uses in the low
    precision part read one working copy per low type, made once at the top
    of the step and shared by forward and backward (duplicate casts of a
    param are merged into it).

    With `cache-working-copy`, the copy becomes step state, as in Apex's O2:
    a new argument `amp.working_copy_of = N` carries it in, and when param
    N has an `amp.update_of` result, a new result (marked `amp.update_of`
    the new argument) returns the cast of the updated master, so the next
    step does not cast again. The caller initializes the copy once as the
    cast of the master.
  }];
  let dependentDialects = ["::mlir::tosa::TosaDialect",
                           "::mlir::arith::ArithDialect"];
  let options = [
    Option<"cacheWorkingCopy", "cache-working-copy", "bool",
           /*default=*/"false",
           "Keep the low-precision working copies as step state (Apex O2)">,
  ];
}

def LossScalingPass : Pass<"amp-loss-scaling", "::mlir::ModuleOp"> {
  let summary = "Scale the loss seed, unscale and check gradients, skip "
                "updates on overflow, update the scale";
  let description = [{
    Makes FP16 training robust to gradient underflow, with PyTorch
    GradScaler's semantics, entirely inside the step (no host sync):

    * the `amp.loss_grad` seed becomes the loss scale S, so every gradient
      is computed scaled by S;
    * one `amp.unscale` after the last `amp.grad` multiplies all gradients
      by 1/S and sets `found_inf` if any is inf or NaN; the optimizer reads
      the unscaled gradients (optimizer ops placed before the last
      `amp.grad` are moved after the unscale);
    * every `amp.update_of` result becomes `amp.skip_if_inf`: on overflow
      each param and state is returned unchanged;
    * `mode=dynamic` adds the scale state to the signature and updates it
      with `amp.update_scale`. New arguments, after the others: the scale
      `tensor<f32> {amp.scaler = "scale"}`, the growth tracker
      `tensor<i32> {amp.scaler = "growth_tracker"}` and, when hysteresis >
      1, `tensor<i32> {amp.scaler = "hysteresis"}`. New results, after the
      others: the next value of each (marked `amp.update_of` its argument)
      and `tensor<i1> {amp.found_inf}`. The function gets `amp.initial_scale` (the `scale`
      option) for the caller to start from (and `amp.initial_hysteresis`
      when hysteresis > 1);
    * `mode=static` scales by the constant `scale` (still skipping on
      overflow and returning `found_inf`); `mode=none` changes nothing.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
  let options = [
    Option<"mode", "mode", "::mlir::amp::LossScalingMode",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultMode",
           "How the loss is scaled", "::mlir::amp::kLossScalingModes">,
    Option<"scale", "scale", "float",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultScale",
           "Initial scale (dynamic) or the constant scale (static)">,
    Option<"growthFactor", "growth-factor", "float",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultGrowthFactor",
           "Scale multiplier after growth-interval steps without overflow">,
    Option<"backoffFactor", "backoff-factor", "float",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultBackoffFactor",
           "Scale multiplier on overflow">,
    Option<"growthInterval", "growth-interval", "int64_t",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultGrowthInterval",
           "Steps without overflow before the scale grows">,
    Option<"minScale", "min-scale", "float",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultMinScale",
           "The scale never backs off below this">,
    Option<"maxScale", "max-scale", "float",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultMaxScale",
           "The scale never grows above this">,
    Option<"hysteresis", "hysteresis", "int64_t",
           /*default=*/"::mlir::amp::LossScalingConfig::kDefaultHysteresis",
           "Overflows tolerated before backing off (DeepSpeed); 1 backs off "
           "on every overflow">,
  ];
}

def DataParallelPass : Pass<"amp-data-parallel", "::mlir::ModuleOp"> {
  let summary = "Average gradients over the ranks of a data-parallel run "
                "inside the step; one global overflow decision";
  let description = [{
    Every rank runs the same step on its shard of the global batch (each
    data argument of rank >= 1 is the rank's shard; a rank-0 data argument
    such as the learning rate must be the same on every rank). The pass
    makes every rank return the same params, optimizer state and scale:

    * each gradient (the operand of its `amp.grad`) is averaged over the
      ranks by `amp.all_reduce mean`, in buckets of at most `bucket-mb` MiB
      filled in the order the backward pass produces the gradients, each
      issued as soon as its last gradient exists. With `reduce-type=f16`
      or `bf16` the bucket travels in 16 bits (cast before, back after);
    * after loss scaling, `found_inf` is reduced with `max`, so every rank
      skips the same steps and moves its scale the same way;
    * every other result that depends on the rank's shard (the loss; an
      `amp.update_of` such as batch-norm running statistics) is averaged,
      just before the return (an update kept on overflow is averaged before
      `amp.skip_if_inf`, so a skipped step leaves it bit-identical).

    Run it after `amp-loss-scaling`. With one process the collectives
    return their operands and the step trains as before.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::tosa::TosaDialect"];
  let options = [
    Option<"bucketMiB", "bucket-mb", "double",
           /*default=*/"::mlir::amp::DataParallelConfig::kDefaultBucketMiB",
           "Largest gradient bucket in MiB (of the reduce type); a larger "
           "gradient is a bucket of its own">,
    Option<"reduceType", "reduce-type", "::mlir::amp::GradientReduceType",
           /*default=*/"::mlir::amp::DataParallelConfig::kDefaultReduceType",
           "Element type the gradients travel in",
           "::mlir::amp::kGradientReduceTypes">,
  ];
}

def DropMarkersPass : Pass<"amp-drop-markers", "::mlir::ModuleOp"> {
  let summary = "Remove the amp markers from every function";
  let description = [{
    Removes `amp.param`, `amp.loss`, `amp.update_of`, ... (every `amp.*`
    attribute) from function arguments, results and the functions
    themselves, once amp-lower-ops has given the amp ops their meaning: the
    lowering pipelines run it after One-Shot Bufferize (the in-place
    updates read `amp.update_of` until then) and before the out-param
    rewrite, which would otherwise move result markers onto arguments. Fails (with the
    op's location) when an amp op is left, since its markers are what it
    refers to.
  }];
}

def OrderGlobalsByFirstUsePass
    : Pass<"amp-order-globals-by-first-use", "::mlir::ModuleOp"> {
  let summary = "Put the module's memref.globals first, in the order the "
                "functions first use them";
  let description = [{
    One-Shot Bufferize creates a `memref.global` per tensor constant in the
    order it bufferizes the functions, which for functions that do not call
    each other (a step and its predict function) is an iteration over a
    pointer-keyed map in MLIR 22: the same input lowered twice could put
    two globals in either order. This pass, run right after it, moves every
    `memref.global` to the start of the module in the order of their first
    `memref.get_global` (functions in module order, ops in walk order),
    unused ones last by name, so that a lowering's output is the same
    bytes from run to run.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ScheduleStepForMemoryPass
    : Pass<"amp-schedule-step-for-memory", "::mlir::func::FuncOp"> {
  let summary = "Order a step's ops so that its buffers live shorter";
  let description = [{
    On tensors, before bufferization, in a function's entry block; only
    side-effect-free ops move, so the step computes the same values. A
    step comes in the order it was traced: the working copies of the
    weights cast at the top, every gradient kept until the optimizer at the
    end. Bufferized so, each lives across the whole step and the peak holds
    every weight gradient at once (ResNet-18's are 47 MB). Here
      - every user of a shared `tensor.empty` gets its own (bufferization
        would put them all in one allocation that lives from the first to
        the last);
      - an op computed from arguments and constants only (a weight's cast,
        its flipped copy for a data gradient, with the single-use ops it
        reads) moves down to just before its first user;
      - the op that computes an `amp.update_of` result (and reshapes of
        it) moves up to just after the values it reads are computed and
        the argument it replaces is read for the last time, so a gradient
        dies as soon as its update is done. An update that waits for the
        overflow flag (loss scaling) stays after the flag.
    Run before `amp-update-arguments-in-place`: no update moves above a
    read of the argument it will be written into.
  }];
}

def UpdateArgumentsInPlacePass
    : Pass<"amp-update-arguments-in-place", "::mlir::ModuleOp"> {
  let summary = "Compute each state update in the buffer of the argument it "
                "replaces";
  let description = [{
    On tensors, before One-Shot Bufferize. A training step returns the next
    value of every parameter and optimizer state (`amp.update_of = N`);
    bufferized as is, each gets a result buffer beside its argument's, so a
    session holds its state twice (ResNet-18: 94 MB of parameters and
    momentum). PyTorch's optimizers update in place; so does this: every
    `amp.update_of` result that has its argument's static shaped type and
    updates step state (a param, state, scaler state or working copy, never
    the caller's data) is returned through a
    `bufferization.materialize_in_destination` into the argument, which is
    made writable. One-Shot Bufferize then writes the new value into the
    argument's buffer, and its conflict analysis keeps that correct: where
    the old value is still read after the update is computed, it copies
    instead. Empty-tensor elimination (run next) lets the optimizer's loop
    write the argument directly, reading and writing the same element. An
    update computed with its unit dimensions dropped (a 1xN bias state as
    an N-vector, then expanded) is written into the collapse of the
    argument the loop already reads and materialized there, where every
    other reader of the argument comes before the loop; elsewhere it is
    materialized whole and copied in.
    `amp-drop-in-place-results` removes the results after bufferization;
    the artifact marks them `in_place` (amp_artifact.h).
  }];
  let dependentDialects = ["::mlir::bufferization::BufferizationDialect"];
}

def DropInPlaceResultsPass
    : Pass<"amp-drop-in-place-results", "::mlir::ModuleOp"> {
  let summary = "Remove the results bufferization computed in their "
                "argument's buffer";
  let description = [{
    After One-Shot Bufferize and before `buffer-results-to-out-params`: a
    result that `amp-update-arguments-in-place` tied to argument N is now
    the buffer of argument N itself, which the caller already holds;
    returning it would become an out-param and a copy. The result goes (the
    function's type too, unlike upstream's `drop-equivalent-buffer-results`,
    which leaves public functions alone), and so do the copies of an
    argument onto itself that bufferizing the tie left. An expansion of a
    collapse of the argument back to its own type is the argument. Fails,
    located, when such a
    result is not its argument's buffer: the artifact's tables promise the
    update in place.
  }];
}

def ComputeSlicedConvolutionsPass
    : Pass<"amp-compute-sliced-convolutions", "::mlir::func::FuncOp"> {
  let summary = "A convolution read only through one slice of its result "
                "computes that slice only";
  let description = [{
    On tensors. A weight gradient of a strided convolution comes out of
    torch-mlir's decomposition as a larger convolution whose result is
    sliced: a 3x3 filter's gradient is a 4x4 result cut to 3x3 (44% more
    work) and, sliced, in no layout the optimizer can walk in order. Where
    a named convolution's result has one user, an `extract_slice` with unit
    strides (consecutive slices merged first), the convolution is
    rewritten to compute only the slice: upstream's
    `replaceExtractSliceWithTiledProducer` (its TilingInterface) takes the
    input windows the slice needs, and a filled init is sliced into a
    smaller fill.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FuseElementwiseOpsPass : Pass<"amp-fuse-elementwise-ops"> {
  let summary = "Elementwise fusion on tensors that keeps contractions "
                "library-shaped";
  let description = [{
    Upstream's `linalg-fuse-elementwise-ops` (its patterns: elementwise
    producer-consumer fusion, reshape folding by expansion, constant
    folding, canonicalization) with one rule changed: a contraction (a
    linalg op whose body is `out + a * b`, inputs possibly widened) only
    takes in producers that move data, i.e. transposes and broadcasts,
    which `amp-contractions-to-runtime-calls` turns into strides of the
    GEMM's operands. A cast, bias or activation fused into a matmul would
    make it a loop nest no library runs. `linalg.matmul`,
    `linalg.batch_matmul`, `linalg.transpose` and `linalg.broadcast` are
    generalized first so that transposes can fold into matmuls; convolutions
    and fills stay named.
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def WidenInConsumersPass
    : Pass<"amp-widen-in-consumers", "::mlir::func::FuncOp"> {
  let summary = "Let each reader of an f16/bf16 tensor's f32 copy widen "
                "the low-precision value itself";
  let description = [{
    On tensors, after elementwise fusion: a `linalg.generic` that only
    widens an f16/bf16 tensor to f32 (`arith.extf`, identity maps), which
    fusion left on its own because a reader would not take it in (a
    reduction such as a bias gradient), is removed where every reader is a
    `linalg.generic`, `linalg.reduce` or `linalg.map` reading it as an
    input: each reads the low-precision tensor and widens it in its body. The f32 copy (twice the bytes, alive
    until its last reader) is never written; the values are the same, as
    widening is exact. Contractions keep reading the f32 tensor: their
    operand types choose the library GEMM. A widening that is also read
    otherwise (returned, reshaped, a contraction's operand) stays for those
    readers.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def FuseElementwiseBuffersPass
    : Pass<"amp-fuse-elementwise-buffers", "::mlir::func::FuncOp"> {
  let summary = "Merge elementwise linalg.generics on buffers that can share "
                "one loop nest";
  let description = [{
    After bufferization: a later all-parallel `linalg.generic` is merged
    into an earlier one over the same static iteration space (a
    multi-output generic) when every buffer that one writes and the other
    touches is the same value accessed through identity maps in both, and
    the ops in between neither touch what the later one writes nor write
    what it reads. The later body takes what the earlier body yields for
    shared buffers instead of reading them back, so every element is
    computed by the same operations in the same order (bit-identical). An
    optimizer's momentum, parameter update and overflow select of one
    parameter become one pass over memory: one loop nest on the CPU, one
    kernel on the GPU.

    With `into-reductions`, an elementwise op is also merged into a later
    reduction (`linalg.reduce` or a generic with reduction loops) over the
    same loops that reads what it writes element by element: the bias add
    under a softmax's row maximum, the ReLU gradient under its bias
    gradient. A zero fill of the reduction's accumulator in between moves
    up with it. The elementwise result is still written (each element once,
    inside the reduction's loops). For the GPU, where it saves a launch;
    on the CPU it would put the elementwise work inside a loop that does
    not vectorize.

    With `keep-lifetimes` (the CPU, after `amp-schedule-step-for-memory`
    ordered the step for short lifetimes), a merge that would make a local
    buffer above a page, which the later op writes first, live from the
    earlier op on is refused where the two share no buffer, or where ops
    in between write memory and the merge frees fewer bytes (buffers only
    the later op reads) than it keeps alive longer.
  }];
  let options = [
    Option<"intoReductions", "into-reductions", "bool", /*default=*/"false",
           "Also merge elementwise producers into later reductions">,
    Option<"keepLifetimes", "keep-lifetimes", "bool", /*default=*/"false",
           "Do not merge a later op that first writes a buffer into an "
           "earlier one it shares no buffer with, or across ops that write "
           "memory (the buffer would live longer; the CPU's choice after "
           "amp-schedule-step-for-memory)">,
  ];
}

def ConvBufferLayoutsPass
    : Pass<"amp-conv-buffer-layouts", "::mlir::func::FuncOp"> {
  let summary = "Store a buffer a library convolution writes or reads in the "
                "order the loop nests using it walk it";
  let description = [{
    After bufferization, on the CPU, before
    `amp-contractions-to-runtime-calls`: a library convolution takes its
    operands in any strides, a loop nest walks memory fastest in its own
    loop order. A local buffer (`memref.alloc`, static shape) that a
    convolution uses and that the other loop nests using it all index in
    one order of its dimensions that is not its own (a weight gradient
    computed as a convolution of transposed activations comes out (I, O,
    KH, KW), and the optimizer reads it as (O, I, KH, KW)) is allocated in
    that order, and every user gets a `memref.transpose` view of it with
    the shape it had: only strides change, every element is computed as
    before. Ops that only fill or copy a buffer have no order; a buffer
    that a GEMM-shaped loop nest (a future library GEMM, whose operands
    need one unit stride) or any other op uses is left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def ForwardIdentityCopiesPass
    : Pass<"amp-forward-identity-copies", "::mlir::func::FuncOp"> {
  let summary = "Read a buffer instead of its whole copy when neither "
                "changes while the copy is read";
  let description = [{
    After bufferization, on the CPU, after `amp-conv-buffer-layouts`: a
    `linalg.generic` that copies every element of one buffer into a fresh
    allocation of the same type in memory order (identity maps, a body
    that yields its input; operands are the buffers or their reshapes) is
    erased and the allocation's uses read the source, where no op from the
    copy to the last use of the allocation may write either buffer and
    none frees or returns the allocation. The layout pass leaves such
    copies where torch-mlir transposed a convolution's operand or result:
    the copies of a loss-scaled step's weight gradients (each read by the
    overflow check and by the update) and of the activations a weight
    gradient reads.
  }];
}

def CollapseContiguousLoopsPass
    : Pass<"amp-collapse-contiguous-loops", "::mlir::func::FuncOp"> {
  let summary = "Merge loops of a loop nest on buffers that walk contiguous "
                "memory in every operand into one";
  let description = [{
    After bufferization, on the CPU: LLVM vectorizes a loop nest's
    innermost loop, and a convolutional network's tensors end in small
    dimensions (3x3 filters, 4x4 or 1x1 images in its last stages), so an
    elementwise loop over (512, 512, 3, 3) runs three elements at a time.
    Consecutive loops of a `linalg.generic` of the same kind (parallel or
    reduction) become one (upstream `collapseOpIterationDims`) where every
    operand indexes them, in order, as consecutive dimensions that are
    contiguous in its memref (or indexes none of them): the same elements
    in the same order, over a longer innermost loop. A
    multiply-accumulate (a future library GEMM) is left as it is.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect"];
}

def PlanStepMemoryPass : Pass<"amp-plan-step-memory", "::mlir::ModuleOp"> {
  let summary = "Place a step's buffers at planned offsets in one workspace argument";
  let description = [{
    After bufferization, on the CPU and the CUDA path: in every public
    function that nothing in the module calls, each `memref.alloc` of the
    entry block with a static shape and an identity layout whose buffer
    does not escape (not returned, not freed in a nested region) becomes a
    `memref.view` at a planned offset of one workspace, and its
    `memref.dealloc` goes; with `constants`, each
    constant taken there (`memref.get_global` of a constant global) gets a
    slot of its own too (the GPU cannot read the host's read-only data),
    which no other buffer shares, filled by a new public function
    `<name>_init_workspace(workspace)` that the function names in
    `amp.workspace_init` and the runtime runs once per workspace: the
    constants reach the device once per session, not on every step. A
    buffer lives from the first op that may read or write it to
    the last use of it or of a value that may alias it (views and casts,
    which bufferization often puts long before the first access, do not
    start it; deallocations, which buffer deallocation puts at the end of
    the block, do not end it); buffers whose lifetimes
    do not overlap share bytes (largest first, each at the lowest offset
    free for its lifetime, each slot `alignment`-aligned). The
    workspace is appended as the function's last argument (`memref<Nxi8>`)
    and its size recorded as `amp.workspace_bytes`: the runtime allocates it
    once per session, so a step allocates and frees nothing, and its peak
    memory is what liveness allows. Work runs in program order (on the CPU
    a parallel loop's chunks finish before the next op; on the GPU one
    stream), so bytes reused by a later buffer are written after the work
    that read them before. Dynamic shapes, allocations in nested regions
    and escaping buffers keep their allocations.
  }];
  let options = [
    Option<"alignment", "alignment", "int64_t", /*default=*/"256",
           "Alignment in bytes of every slot (cuBLASLt's default assumption)">,
    Option<"constants", "constants", "bool", /*default=*/"true",
           "Copy constant globals into slots of the workspace, once per "
           "workspace (the GPU path; the CPU reads them in place)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def StridedCopiesToLinalgPass
    : Pass<"amp-strided-copies-to-linalg", "::mlir::func::FuncOp"> {
  let summary = "Turn memref.copy between strided views into linalg.copy";
  let description = [{
    On the CUDA path, before the loop nests are mapped to kernels: a
    `memref.copy` that is not between two whole buffers of one static
    shape (identity layouts), such as a concatenation into a subview,
    becomes a `linalg.copy`, so it runs as a parallel loop nest (a kernel)
    instead of the host's element-by-element `memrefCopy`. Copies between
    whole buffers are left to `amp-buffers-to-device-memory` (one
    `gpu.memcpy`).
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def ParallelLoopsOutermostPass
    : Pass<"amp-parallel-loops-outermost", "::mlir::func::FuncOp"> {
  let summary = "Interchange linalg.generic loops so parallel ones come first";
  let description = [{
    Reorders the iteration dimensions of every `linalg.generic` so that its
    parallel dimensions are outermost and its reductions innermost, keeping
    the relative order within each group. A reduction over a leading axis
    (a bias gradient summed over the batch, a mean over the batch) then
    lowers to one parallel loop nest with a sequential reduction inside,
    which the GPU path maps to a single kernel, instead of a sequential
    loop around a parallel one (one kernel launch per batch row). Each
    output element still accumulates its inputs in the same order, so
    results are bit-identical. Run `linalg-generalize-named-ops` first to
    include named reductions.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

def FuseFillsIntoParallelLoopsPass
    : Pass<"amp-fuse-fills-into-parallel-loops", "::mlir::func::FuncOp"> {
  let summary = "Initialise a buffer inside the parallel loop that first "
                "uses it";
  let description = [{
    After `convert-linalg-to-parallel-loops`: a fill of a whole statically
    shaped buffer (a parallel loop nest storing one value into every
    element, or a `memref.copy` from a constant splat global, which the
    CUDA path would copy host-to-device every step) is moved into the
    first op that touches the buffer, as a store at the top of its body,
    when that op is an `scf.parallel` with zero lower bounds and unit
    steps that visits every element once: it reaches the buffer only
    through loads and stores at one permutation of its induction
    variables, with upper bounds equal to the buffer's dimensions. A
    reduction's initialisation then costs no pass over memory of its own
    (no kernel launch on the GPU) and results do not change. A copy of a
    splat constant with no such consumer still becomes stores of the
    constant (a loop nest, or one store for a rank-0 buffer), so the GPU
    fills it instead of copying it from the host every step.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect"];
}

def OutlineLoopNestsPass : Pass<"amp-outline-loop-nests", "::mlir::ModuleOp"> {
  let summary = "Move every top-level loop nest of a function into its own function";
  let description = [{
    Replaces each outermost `scf.for` / `scf.parallel` of every function
    body by a call of a new private function holding that loop nest, its
    operands and the values it reads passed as arguments (constants are
    cloned in, so bounds stay static). A training step lowered to loops is
    one function with thousands of loop nests; LLVM's loop passes
    (induction-variable simplification, loop rotation) grow faster than
    linearly with the loops of one function, so the step of a real model
    took minutes to compile. Per function they grow linearly. The new
    functions are marked `noinline` so that LLVM's inliner does not merge
    them back; a call per loop nest costs nothing next to the nest.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def OutlineParallelChunksPass
    : Pass<"amp-outline-parallel-chunks", "::mlir::ModuleOp"> {
  let summary = "Move each large parallel loop nest into a function over a chunk of it";
  let description = [{
    Each top-level `scf.parallel` of a function body (no results, a static
    trip count of at least 2 in its first dimension) whose loops run at
    least `min-work` innermost iterations is moved into a new private
    function marked `amp.parallel_chunk` that takes `(begin, end)` first:
    the iterations of the first dimension it runs (lower bound + begin *
    step up to lower bound + end * step). The nest is replaced by a call
    for the whole range, `(0, trip count)`, so the IR stays a correct
    sequential program; `amp-parallel-chunks-to-runtime` later hands such
    calls to libamprt's `amprt_parallel_for`, which runs disjoint chunks on
    its threads. Iterations of a parallel dimension write disjoint
    elements, so the result is bit-identical to the sequential one.
    Smaller nests stay on the calling thread: waking the threads costs
    microseconds.
  }];
  let options = [
    Option<"minWork", "min-work", "int64_t", /*default=*/"32768",
           "Innermost iterations a nest needs to run on several threads">,
  ];
  let dependentDialects = ["::mlir::func::FuncDialect",
                           "::mlir::arith::ArithDialect"];
}

def ApproximateMathPass : Pass<"amp-approximate-math"> {
  let summary = "Replace libm calls of elementwise math by vectorizable polynomials";
  let description = [{
    Rewrites the listed `math` ops on f32 (and, through f32, on f16 and
    bf16) into MLIR's polynomial approximations built from `arith` ops, so
    that an elementwise loop is vectorized by LLVM instead of calling libm
    once per element (GELU's tanh, softmax's exp and expm1: a quarter of
    an exported GPT-2 step's time). NaN inputs keep giving NaN and infinite
    inputs their exact limits: each approximated op is guarded by a select
    on the input's class, because loss scaling must still see a NaN or an
    inf that reaches a gradient. Accuracy against libm is tested over a
    sweep of inputs by test/Integration/CPU/approximate-math.mlir.
  }];
  let options = [
    ListOption<"ops", "ops", "std::string",
               "the math ops to approximate (default: math.tanh, math.exp, "
               "math.expm1, math.log, math.log1p, math.erf)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def MapParallelLoopsToGPUPass
    : Pass<"amp-map-parallel-loops-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Collapse, tile and map scf.parallel nests to GPU threads";
  let description = [{
    For `convert-parallel-loops-to-gpu`: each outermost `scf.parallel` is
    collapsed into one row-major dimension and tiled by 256 (or its static
    extent rounded up to a warp if smaller), with the bounds checked inside
    (constant block sizes); blocks are `block_x`, the tile's threads
    `thread_x`, so a warp reads consecutive elements whatever the rank and
    shape, and only the last block has idle threads. Nested parallel loops
    stay sequential.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::scf::SCFDialect"];
}

def SinkLoadsIntoLaunchesPass
    : Pass<"amp-sink-loads-into-launches", "::mlir::func::FuncOp"> {
  let summary = "Load host scalars that only kernels use inside those kernels";
  let description = [{
    After `convert-parallel-loops-to-gpu`: a `memref.load` in the function's
    body whose value is used only inside `gpu.launch` ops of the same block
    is cloned to the top of each of them and erased, so the kernels read
    the value from device memory in stream order and the host does not
    wait for the GPU work that wrote it (the overflow flag that every
    optimizer kernel selects on). Only when the buffer is a fresh
    allocation or an argument that no view, cast or copy aliases, and
    neither the ops between the load and the last launch nor the launches
    themselves may write it.
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect"];
}

def SequentialCodeToGPUPass
    : Pass<"amp-sequential-code-to-gpu", "::mlir::func::FuncOp"> {
  let summary = "Run the host code that touches buffers as one-thread kernels";
  let description = [{
    After `convert-parallel-loops-to-gpu` and `amp-sink-loads-into-launches`,
    on the CUDA path's host functions: each run of consecutive top-level
    ops that only load, store, compute (arith, math) and loop or branch
    (scf.for, scf.if) over them, with at least one load or store, becomes a
    `gpu.launch` of one block of one thread (the last stage of whole-tensor
    reductions, the loss-scale update). Pure ops of the run whose values
    are needed after it stay on the host above the kernel; a run whose
    loaded values are needed on the host stays on the host. The host then
    waits for the GPU only to return.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::gpu::GPUDialect"];
}

def MergeIndependentLaunchesPass
    : Pass<"amp-merge-independent-launches", "::mlir::func::FuncOp"> {
  let summary = "One launch for kernels that do not depend on each other";
  let description = [{
    Last of the GPU mapping, on `gpu.launch` ops of a one-dimensional grid
    with constant sizes: a later launch that touches no buffer an earlier
    one writes (and writes none it reads) joins the earlier one as more
    blocks (`gridX = g1 + g2`, blocks of the larger block size, threads
    beyond a body's own block size skipping it; blocks from `g1` on run
    the later body with `blockIdx.x - g1`), like a multi-tensor
    kernel over tensors of different shapes: an optimizer's updates of
    every parameter, the overflow check's per-gradient stages, the
    weights' casts. Two kernels of one thread are joined even when one
    depends on the other (the one thread runs both bodies in order). The
    later launch moves up only past ops that neither write what it reads
    nor touch what it writes, with the pure ops it needs, and only while
    the merged kernel's parameters, as counted here, fit in 2048 bytes
    (PTX's limit is 4352 bytes, and the lowering adds some). Every element is
    computed by the same operations (bit-identical).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

#endif // AMP_TRANSFORMS_PASSES_TD
