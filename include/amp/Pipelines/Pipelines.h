//===- Pipelines.h - the amp pass pipelines ---------------------*- C++ -*-===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LLVM.h"

#include <limits>

#ifndef AMP_CUDA_TOOLKIT_DIR
#define AMP_CUDA_TOOLKIT_DIR "/usr/local/cuda"
#endif

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::amp {

/// Options of `--amp-pipeline`: those of autocast, master weights and loss
/// scaling, with loss scaling chosen from the precision by default.
struct AMPPipelineOptions : public PassPipelineOptions<AMPPipelineOptions> {
  Option<std::string> precision{
      *this, "precision", llvm::cl::desc("Low-precision type: f16 or bf16"),
      llvm::cl::init("f16")};
  ListOption<std::string> allowOps{
      *this, "allow", llvm::cl::desc("Op names moved to the allow category")};
  ListOption<std::string> denyOps{
      *this, "deny", llvm::cl::desc("Op names moved to the deny category")};
  ListOption<std::string> inferOps{
      *this, "infer", llvm::cl::desc("Op names moved to the infer category")};
  ListOption<std::string> clearOps{
      *this, "clear", llvm::cl::desc("Op names moved to the clear category")};
  Option<std::string> policyFile{*this, "policy",
                                 llvm::cl::desc("JSON policy file")};
  Option<std::string> castDialect{
      *this, "cast-dialect", llvm::cl::desc("Casts on tensors: tosa or arith"),
      llvm::cl::init("tosa")};
  Option<bool> cacheWorkingCopy{
      *this, "cache-working-copy",
      llvm::cl::desc("Keep low-precision working copies as step state (O2)"),
      llvm::cl::init(false)};
  Option<std::string> lossScaling{
      *this, "loss-scaling",
      llvm::cl::desc("auto (f16: dynamic, bf16: none), dynamic, static or "
                     "none"),
      llvm::cl::init("auto")};
  Option<float> scale{*this, "scale",
                      llvm::cl::desc("Initial (dynamic) or constant (static) "
                                     "loss scale"),
                      llvm::cl::init(65536.0f)};
  Option<float> growthFactor{*this, "growth-factor",
                             llvm::cl::desc("Scale growth factor"),
                             llvm::cl::init(2.0f)};
  Option<float> backoffFactor{*this, "backoff-factor",
                              llvm::cl::desc("Scale backoff factor"),
                              llvm::cl::init(0.5f)};
  Option<int64_t> growthInterval{
      *this, "growth-interval",
      llvm::cl::desc("Steps without overflow before growth"),
      llvm::cl::init(2000)};
  Option<float> minScale{*this, "min-scale",
                         llvm::cl::desc("Lower bound of the scale"),
                         llvm::cl::init(0.0f)};
  Option<float> maxScale{
      *this, "max-scale", llvm::cl::desc("Upper bound of the scale"),
      llvm::cl::init(std::numeric_limits<float>::infinity())};
  Option<int64_t> hysteresis{
      *this, "hysteresis",
      llvm::cl::desc("Overflows tolerated before backing off"),
      llvm::cl::init(1)};
};

/// The loss-scaling mode `options` ask for, with `auto` resolved from the
/// precision.
std::string resolveLossScalingMode(const AMPPipelineOptions &options);

/// autocast, cleanup (canonicalize, CSE), master weights, loss scaling.
void buildAMPPipeline(OpPassManager &pm, const AMPPipelineOptions &options);

/// Lowers a (mixed-precision) training module on tensors to the LLVM
/// dialect for the CPU: amp ops, TOSA to linalg, one-shot bufferization
/// with results as out-params, loops, LLVM. Public functions keep a C
/// interface (`_mlir_ciface_<name>`) and read-only arguments.
LogicalResult buildAMPLowerToCPUPipeline(OpPassManager &pm);

/// Lowers the same module for CUDA (sm_90): the same bufferization, GEMMs
/// as libamprt_cuda calls (cuBLASLt), the other loop nests mapped to GPU
/// blocks and threads and outlined as kernels (compiled to a fatbin with
/// the CUDA toolkit's ptxas), host buffers in managed memory, host code to
/// LLVM calling the mgpu* ABI that libamprt_cuda implements. Loops with no
/// parallel dimension (whole-tensor reductions) stay sequential host code.
struct AMPLowerToCUDAOptions
    : public PassPipelineOptions<AMPLowerToCUDAOptions> {
  Option<std::string> chip{
      *this, "chip", llvm::cl::desc("GPU architecture (H100/H200: sm_90)"),
      llvm::cl::init("sm_90")};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit: ptxas, fatbinary and libdevice"),
      llvm::cl::init(AMP_CUDA_TOOLKIT_DIR)};
};
LogicalResult
buildAMPLowerToCUDAPipeline(OpPassManager &pm,
                            const AMPLowerToCUDAOptions &options = {});

/// The CUDA path's loop nests, tiled, mapped and bounds-checked exactly as
/// for the GPU, run as host loops (amp-emulate-gpu-launches) and lowered
/// like the CPU path (CPU GEMMs, no managed memory): a CPU build whose
/// results must equal the CPU path's, to test the GPU mapping without a GPU.
LogicalResult buildAMPLowerToEmulatedCUDAPipeline(OpPassManager &pm);

/// Registers `--amp-pipeline`, `--amp-lower-to-cpu`, `--amp-lower-to-cuda`
/// and `--amp-lower-to-cuda-emulated`
/// (once: see registerAllAMPPasses in amp/InitAMP.h).
void registerAMPPipelines();

} // namespace mlir::amp

#endif // AMP_PIPELINES_PIPELINES_H
