//===- Pipelines.h - the amp pass pipelines ---------------------*- C++ -*-===//
//
// Pipelines built in C++ from small stage builders, each registered under a
// flag (`--amp-pipeline`, `--amp-lower-to-cpu`, ...) that tools, tests and
// embedders share. Options are typed; defaults come from the pass options
// (amp/Transforms/PassOptions.h, amp/Dialect/AMP/IR/LossScaling.h).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "amp/Dialect/AMP/IR/LossScaling.h"
#include "amp/Transforms/PassOptions.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::amp {

/// `loss-scaling=auto` of `--amp-pipeline` (dynamic for f16, none for
/// bf16): a value outside the pass's LossScalingMode choices.
inline constexpr LossScalingMode kAutoLossScaling =
    static_cast<LossScalingMode>(-1);
inline constexpr llvm::cl::OptionEnumValue kAutoLossScalingTable[] = {
    clEnumValN(kAutoLossScaling, "auto",
               "dynamic for f16, none for bf16 (f32's exponent range)"),
};

/// Options of `--amp-pipeline`: those of autocast, master weights and loss
/// scaling under the same names and with the same defaults, and
/// `loss-scaling`, which may also be `auto`.
struct AMPPipelineOptions : public PassPipelineOptions<AMPPipelineOptions> {
  Option<LowPrecision> precision{
      *this, "precision", llvm::cl::desc("Low-precision type"),
      llvm::cl::init(kDefaultLowPrecision), kLowPrecisions};
  ListOption<std::string> allowOps{
      *this, "allow", llvm::cl::desc("Op names moved to the allow category")};
  ListOption<std::string> denyOps{
      *this, "deny", llvm::cl::desc("Op names moved to the deny category")};
  ListOption<std::string> inferOps{
      *this, "infer", llvm::cl::desc("Op names moved to the infer category")};
  ListOption<std::string> clearOps{
      *this, "clear", llvm::cl::desc("Op names moved to the clear category")};
  Option<std::string> policyFile{
      *this, "policy",
      llvm::cl::desc("JSON policy file applied before the list options")};
  Option<CastDialect> castDialect{
      *this, "cast-dialect",
      llvm::cl::desc("Dialect of the casts inserted on tensors"),
      llvm::cl::init(kDefaultCastDialect), kCastDialects};
  Option<bool> cacheWorkingCopy{
      *this, "cache-working-copy",
      llvm::cl::desc("Keep low-precision working copies as step state (O2)"),
      llvm::cl::init(false)};
  Option<LossScalingMode> lossScaling{
      *this,
      "loss-scaling",
      llvm::cl::desc("How the loss is scaled"),
      llvm::cl::init(kAutoLossScaling),
      EnumChoices<LossScalingMode>(kAutoLossScalingTable),
      kLossScalingModes};
  Option<float> scale{
      *this, "scale",
      llvm::cl::desc("Initial (dynamic) or constant (static) loss scale"),
      llvm::cl::init(LossScalingConfig::kDefaultScale)};
  Option<float> growthFactor{
      *this, "growth-factor", llvm::cl::desc("Scale growth factor"),
      llvm::cl::init(LossScalingConfig::kDefaultGrowthFactor)};
  Option<float> backoffFactor{
      *this, "backoff-factor", llvm::cl::desc("Scale backoff factor"),
      llvm::cl::init(LossScalingConfig::kDefaultBackoffFactor)};
  Option<int64_t> growthInterval{
      *this, "growth-interval",
      llvm::cl::desc("Steps without overflow before growth"),
      llvm::cl::init(LossScalingConfig::kDefaultGrowthInterval)};
  Option<float> minScale{*this, "min-scale",
                         llvm::cl::desc("Lower bound of the scale"),
                         llvm::cl::init(LossScalingConfig::kDefaultMinScale)};
  Option<float> maxScale{*this, "max-scale",
                         llvm::cl::desc("Upper bound of the scale"),
                         llvm::cl::init(LossScalingConfig::kDefaultMaxScale)};
  Option<int64_t> hysteresis{
      *this, "hysteresis",
      llvm::cl::desc("Overflows tolerated before backing off"),
      llvm::cl::init(LossScalingConfig::kDefaultHysteresis)};
  Option<bool> dataParallel{
      *this, "data-parallel",
      llvm::cl::desc("Average gradients over the ranks of a data-parallel "
                     "run (amp-data-parallel)"),
      llvm::cl::init(false)};
  Option<double> bucketMiB{
      *this, "bucket-mb",
      llvm::cl::desc("amp-data-parallel: largest gradient bucket in MiB"),
      llvm::cl::init(DataParallelConfig::kDefaultBucketMiB)};
  Option<GradientReduceType> reduceType{
      *this, "reduce-type",
      llvm::cl::desc("amp-data-parallel: element type gradients travel in"),
      llvm::cl::init(DataParallelConfig::kDefaultReduceType),
      kGradientReduceTypes};
};

/// The loss-scaling mode `options` ask for, with `auto` resolved from the
/// precision.
LossScalingMode resolveLossScalingMode(const AMPPipelineOptions &options);

/// autocast, cleanup (canonicalize, CSE), master weights, loss scaling,
/// and with `data-parallel` the gradient all-reduce.
void buildAMPPipeline(OpPassManager &pm, const AMPPipelineOptions &options);

/// amp-data-parallel with the options' bucket size and reduce type, when
/// `data-parallel` is set (also for a step compiled without mixed
/// precision).
void addDataParallelPass(OpPassManager &pm, const AMPPipelineOptions &options);

//===----------------------------------------------------------------------===//
// Lowering stages, shared by the targets
//===----------------------------------------------------------------------===//

/// Tensors to buffers: amp ops and TOSA to linalg, elementwise fusion,
/// one-shot bufferization with results as out-params (the runtime owns
/// every buffer); the markers go before the out-param rewrite. With
/// `updateInPlace`, state updates are written into their arguments and
/// are no longer results (amp-update-arguments-in-place); with
/// `scheduleForMemory`, ops are first ordered for short buffer lifetimes
/// (amp-schedule-step-for-memory).
void addBufferizationPasses(OpPassManager &pm, bool updateInPlace,
                            bool scheduleForMemory);

/// What the lowerings' `update-in-place` option says.
inline constexpr const char *kUpdateInPlaceDescription =
    "Write each parameter and state update into its argument's buffer and "
    "drop its result (amp-update-arguments-in-place), the ABI of artifacts, "
    "which amp-compile sets; off: every update is an out-param beside its "
    "argument";

/// On buffers, for the GPU: elementwise producers merged into the
/// reductions that read them (fewer launches).
void addGPUFusionPasses(OpPassManager &pm);

/// On buffers: matmuls to `runtime`'s GEMMs (with `lowPrecisionOutputs`,
/// those whose f32 result is only cast to f16/bf16 round it themselves;
/// with `roundOperands`, libamprt's GEMMs round an f32 A that only they
/// read a copy of), then the buffer releases.
void addRuntimeGemmPasses(OpPassManager &pm, GemmRuntime runtime,
                          bool lowPrecisionOutputs, bool roundOperands);

/// Options of `--amp-lower-to-cpu` and `--amp-lower-to-cuda-emulated`: what
/// the CPU the code is for can do.
struct AMPLowerToCPUOptions
    : public PassPipelineOptions<AMPLowerToCPUOptions> {
  Option<bool> nativeBF16{
      *this, "native-bf16",
      llvm::cl::desc("The target CPU converts f32 to bf16 in hardware "
                     "(AVX512-BF16, AVX-NE-CONVERT). Without it bf16 "
                     "conversions become integer arithmetic, which "
                     "vectorizes, instead of calls of compiler-rt's "
                     "__truncsfbf2, which GCC 12's libgcc lacks"),
      llvm::cl::init(false)};
  Option<int64_t> minParallelWork{
      *this, "min-parallel-work",
      llvm::cl::desc("Innermost iterations a parallel loop nest needs to run "
                     "on all cores (amp-outline-parallel-chunks' min-work); "
                     "smaller nests run on the calling thread"),
      llvm::cl::init(OutlineParallelChunksPassOptions().minWork)};
  Option<bool> planMemory{
      *this, "plan-memory",
      llvm::cl::desc("The step's static buffers at liveness-planned offsets "
                     "of one workspace the session allocates once "
                     "(amp-plan-step-memory), the ABI of artifacts, which "
                     "amp-compile sets; off: plain signatures, each buffer "
                     "from libamprt's step allocator"),
      llvm::cl::init(false)};
  Option<bool> updateInPlace{*this, "update-in-place",
                             llvm::cl::desc(kUpdateInPlaceDescription),
                             llvm::cl::init(false)};
  Option<bool> scheduleForMemory{
      *this, "schedule-for-memory",
      llvm::cl::desc("Order the step's ops for short buffer lifetimes before "
                     "bufferization (amp-schedule-step-for-memory): weight "
                     "casts next to their users, each update as soon as its "
                     "gradient is ready"),
      llvm::cl::init(true)};
};

/// Loops on buffers to the LLVM dialect for the host (MLIR's CPU path).
void addCPULoopsToLLVMPasses(OpPassManager &pm,
                             const AMPLowerToCPUOptions &options);

/// Linalg on buffers to `gpu.launch` nests (in each function): parallel
/// dimensions outermost, collapsed, tiled and mapped to blocks and threads.
void addGPUMappingPasses(OpPassManager &funcPm);

//===----------------------------------------------------------------------===//
// Whole lowerings
//===----------------------------------------------------------------------===//

/// Lowers a (mixed-precision) training module on tensors to the LLVM
/// dialect for the CPU: bufferization, GEMMs as libamprt calls, loops, LLVM.
/// Public functions keep a C interface and read-only arguments.
void buildAMPLowerToCPUPipeline(OpPassManager &pm,
                                const AMPLowerToCPUOptions &options = {});

/// Options of `--amp-lower-to-cuda`.
struct AMPLowerToCUDAOptions
    : public PassPipelineOptions<AMPLowerToCUDAOptions> {
  /// H100 and H200.
  static constexpr const char *kDefaultChip = "sm_90";

  Option<std::string> chip{*this, "chip", llvm::cl::desc("GPU architecture"),
                           llvm::cl::init(kDefaultChip)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit: ptxas, fatbinary and libdevice"),
      llvm::cl::init(getDefaultCUDAToolkitPath())};
  Option<bool> waitBeforeReturn{
      *this, "wait-before-return",
      llvm::cl::desc("Functions wait for their GPU work before returning; "
                     "amp-compile turns it off, libamprt then waits once "
                     "per step, after copying the loss back"),
      llvm::cl::init(true)};
  Option<bool> updateInPlace{*this, "update-in-place",
                             llvm::cl::desc(kUpdateInPlaceDescription),
                             llvm::cl::init(false)};

  /// The toolkit this build found (/usr/local/cuda when it found none).
  static std::string getDefaultCUDAToolkitPath();
};

/// Lowers the same module for CUDA (sm_90): the same bufferization, GEMMs
/// as libamprt_cuda calls (cuBLASLt), the other loop nests mapped to GPU
/// blocks and threads and outlined as kernels (compiled to a fatbin with
/// the toolkit's ptxas), host buffers in device memory, host code to LLVM
/// calling the mgpu* ABI that libamprt_cuda implements. Loops with no
/// parallel dimension run as one-thread kernels: the host touches no
/// buffer.
void buildAMPLowerToCUDAPipeline(OpPassManager &pm,
                                 const AMPLowerToCUDAOptions &options = {});

/// The CUDA path's loop nests, tiled, mapped and bounds-checked exactly as
/// for the GPU, run as host loops (amp-emulate-gpu-launches) and lowered
/// like the CPU path (CPU GEMMs, host memory): a CPU build whose
/// results must equal the CPU path's, to test the GPU mapping without a GPU.
void buildAMPLowerToEmulatedCUDAPipeline(
    OpPassManager &pm, const AMPLowerToCPUOptions &options = {});

/// Registers `--amp-pipeline`, `--amp-lower-to-cpu`, `--amp-lower-to-cuda`
/// and `--amp-lower-to-cuda-emulated`
/// (once: see registerAllAMPPasses in amp/InitAMP.h).
void registerAMPPipelines();

} // namespace mlir::amp

#endif // AMP_PIPELINES_PIPELINES_H
