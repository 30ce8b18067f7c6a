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

// MLIR's CPU path of TOOLCHAIN.md, plus out-params for results (the
// runtime owns every buffer) and the conversions it needs on our graphs.
static constexpr const char *kLowerToCPU =
    "amp-lower-ops,"
    "tosa-to-linalg-pipeline,"
    "func.func(tosa-to-tensor,tosa-to-arith),"
    "convert-elementwise-to-linalg,"
    "linalg-fuse-elementwise-ops,"
    "one-shot-bufferize{bufferize-function-boundaries "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-results-to-out-params{modify-public-functions},"
    "amp-contractions-to-runtime-calls,"
    "buffer-deallocation-pipeline,"
    "convert-bufferization-to-memref,"
    "convert-linalg-to-loops,"
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

LogicalResult mlir::amp::buildAMPLowerToCPUPipeline(OpPassManager &pm) {
  return parsePassPipeline(kLowerToCPU, pm);
}

void mlir::amp::registerAMPPipelines() {
  PassPipelineRegistration<>(
      "amp-lower-to-cpu",
      "Lower a training module on tensors to the LLVM dialect for the CPU",
      [](OpPassManager &pm) {
        if (failed(buildAMPLowerToCPUPipeline(pm)))
          llvm::report_fatal_error("amp-lower-to-cpu: bad pipeline string");
      });
  PassPipelineRegistration<AMPPipelineOptions>(
      "amp-pipeline",
      "Mixed-precision training: autocast, cleanup, f32 master weights and "
      "loss scaling",
      buildAMPPipeline);
}
