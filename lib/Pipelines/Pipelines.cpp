//===- Pipelines.cpp - the amp pass pipelines -----------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "amp/Conversion/Passes.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::amp;

std::string
mlir::amp::resolveLossScalingMode(const AMPPipelineOptions &options) {
  if (options.lossScaling != "auto")
    return options.lossScaling;
  // BF16 has f32's exponent range: gradients do not underflow.
  return options.precision == "bf16" ? "none" : "dynamic";
}

void mlir::amp::buildAMPPipeline(OpPassManager &pm,
                                 const AMPPipelineOptions &options) {
  AutocastPassOptions autocast;
  autocast.precision = options.precision;
  autocast.allowOps.assign(options.allowOps.begin(), options.allowOps.end());
  autocast.denyOps.assign(options.denyOps.begin(), options.denyOps.end());
  autocast.inferOps.assign(options.inferOps.begin(), options.inferOps.end());
  autocast.clearOps.assign(options.clearOps.begin(), options.clearOps.end());
  autocast.policyFile = options.policyFile;
  autocast.castDialect = options.castDialect;
  pm.addPass(createAutocastPass(autocast));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  MasterWeightsPassOptions masterWeights;
  masterWeights.cacheWorkingCopy = options.cacheWorkingCopy;
  pm.addPass(createMasterWeightsPass(masterWeights));

  LossScalingPassOptions lossScaling;
  lossScaling.mode = resolveLossScalingMode(options);
  lossScaling.scale = options.scale;
  lossScaling.growthFactor = options.growthFactor;
  lossScaling.backoffFactor = options.backoffFactor;
  lossScaling.growthInterval = options.growthInterval;
  lossScaling.minScale = options.minScale;
  lossScaling.maxScale = options.maxScale;
  lossScaling.hysteresis = options.hysteresis;
  pm.addPass(createLossScalingPass(lossScaling));
}

// Tensors to buffers, shared by both targets: amp ops and TOSA to linalg
// (the markers go once the amp ops are lowered), one-shot bufferization with
// results as out-params (the runtime owns every buffer).
static constexpr const char *kBufferize =
    "amp-lower-ops,"
    "amp-drop-markers,"
    "tosa-to-linalg-pipeline,"
    "func.func(tosa-to-tensor,tosa-to-arith),"
    "convert-elementwise-to-linalg,"
    "linalg-fuse-elementwise-ops,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions},";

// On buffers: contractions to the runtime's GEMMs (`prefix`: amp_rt for
// libamprt, amp_rt_cuda for libamprt_cuda), then the releases.
static std::string gemmsAndReleases(StringRef prefix) {
  return ("amp-contractions-to-runtime-calls{prefix=" + prefix +
          "},"
          "buffer-deallocation-pipeline,"
          "convert-bufferization-to-memref,")
      .str();
}

// MLIR's CPU path of TOOLCHAIN.md from buffers to LLVM, plus the
// conversions it needs on our graphs.
static constexpr const char *kCPULoopsToLLVM = "convert-linalg-to-loops,"
                                               "expand-strided-metadata,"
                                               "lower-affine,"
                                               "convert-scf-to-cf,"
                                               "convert-math-to-llvm,"
                                               "convert-math-to-libm,"
                                               "convert-arith-to-llvm,"
                                               "finalize-memref-to-llvm,"
                                               "convert-func-to-llvm,"
                                               "convert-cf-to-llvm,"
                                               "convert-index-to-llvm,"
                                               "reconcile-unrealized-casts";

// TOOLCHAIN.md's loops route to the GPU (nested in func.func), reductions
// innermost (one kernel per reduction, not one launch per row of it):
// parallel loops tiled along their contiguous last dimension (bounds
// checked inside so every block has a constant size) and mapped to blocks
// and threads into gpu.launch, no canonicalization in between.
static constexpr const char *kGPUMapping = "linalg-generalize-named-ops,"
                                           "amp-parallel-loops-outermost,"
                                           "convert-linalg-to-parallel-loops,"
                                           "amp-map-parallel-loops-to-gpu,"
                                           "convert-parallel-loops-to-gpu";

// Kernels and host to LLVM the way gpu-lower-to-nvvm-pipeline does,
// spelled out so that gpu-module-to-binary gets the toolkit (its libdevice
// resolves __nv_expf & co.; the pipeline finds it only through CUDA_HOME).
static std::string cudaFromBuffers(const AMPLowerToCUDAOptions &options) {
  std::string target = "chip=" + options.chip + " features=+ptx80 O=3";
  return gemmsAndReleases("amp_rt_cuda") + "func.func(" + kGPUMapping +
         "),"
         "gpu-kernel-outlining,"
         "amp-buffers-to-managed-memory,"
         "convert-scf-to-cf,"
         "convert-func-to-llvm,"
         "expand-strided-metadata,"
         "nvvm-attach-target{" +
         target +
         "},"
         "lower-affine,"
         "convert-arith-to-llvm,"
         "convert-index-to-llvm,"
         "canonicalize,cse,"
         "gpu.module(strip-debuginfo,convert-gpu-to-nvvm,"
         "llvm-optimize-for-nvvm-target,canonicalize,cse,"
         "reconcile-unrealized-casts),"
         "gpu-to-llvm,"
         "gpu-module-to-binary{format=fatbin toolkit=" +
         options.toolkit +
         "},"
         "convert-math-to-llvm,"
         "canonicalize,cse,"
         "reconcile-unrealized-casts";
}

LogicalResult mlir::amp::buildAMPLowerToCPUPipeline(OpPassManager &pm) {
  return parsePassPipeline(
      kBufferize + gemmsAndReleases("amp_rt") + kCPULoopsToLLVM, pm);
}

LogicalResult
mlir::amp::buildAMPLowerToCUDAPipeline(OpPassManager &pm,
                                       const AMPLowerToCUDAOptions &options) {
  return parsePassPipeline(std::string(kBufferize) + cudaFromBuffers(options),
                           pm);
}

LogicalResult
mlir::amp::buildAMPLowerToEmulatedCUDAPipeline(OpPassManager &pm) {
  return parsePassPipeline(kBufferize + gemmsAndReleases("amp_rt") +
                               "func.func(" + kGPUMapping +
                               ",amp-emulate-gpu-launches)," + kCPULoopsToLLVM,
                           pm);
}

void mlir::amp::registerAMPPipelines() {
  PassPipelineRegistration<>(
      "amp-lower-to-cpu",
      "Lower a training module on tensors to the LLVM dialect for the CPU",
      [](OpPassManager &pm) {
        if (failed(buildAMPLowerToCPUPipeline(pm)))
          llvm::report_fatal_error("amp-lower-to-cpu: bad pipeline string");
      });
  PassPipelineRegistration<AMPLowerToCUDAOptions>(
      "amp-lower-to-cuda",
      "Lower a training module on tensors to LLVM host code and fatbin "
      "kernels for CUDA",
      [](OpPassManager &pm, const AMPLowerToCUDAOptions &options) {
        if (failed(buildAMPLowerToCUDAPipeline(pm, options)))
          llvm::report_fatal_error("amp-lower-to-cuda: bad pipeline string");
      });
  PassPipelineRegistration<>(
      "amp-lower-to-cuda-emulated",
      "The CUDA path's kernels (tiled, mapped, bounds-checked) run as host "
      "loops: a CPU build that tests the GPU mapping without a GPU",
      [](OpPassManager &pm) {
        if (failed(buildAMPLowerToEmulatedCUDAPipeline(pm)))
          llvm::report_fatal_error(
              "amp-lower-to-cuda-emulated: bad pipeline string");
      });
  PassPipelineRegistration<AMPPipelineOptions>(
      "amp-pipeline",
      "Mixed-precision training: autocast, cleanup, f32 master weights and "
      "loss scaling",
      buildAMPPipeline);
}
