//===- Pipelines.cpp - the amp pass pipelines -----------------------------===//
//
// Each pipeline is a sequence of stage builders; each stage adds upstream
// and amp passes with typed options, so a misspelt pass is a compile error.
//
//===----------------------------------------------------------------------===//

#include "amp/Pipelines/Pipelines.h"

#include "amp/Conversion/Passes.h"
#include "amp/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#ifndef AMP_CUDA_TOOLKIT_DIR
#define AMP_CUDA_TOOLKIT_DIR "/usr/local/cuda"
#endif

using namespace mlir;
using namespace mlir::amp;

LossScalingMode
mlir::amp::resolveLossScalingMode(const AMPPipelineOptions &options) {
  if (options.lossScaling != kAutoLossScaling)
    return options.lossScaling;
  // BF16 has f32's exponent range: gradients do not underflow.
  return options.precision == LowPrecision::BF16 ? LossScalingMode::None
                                                 : LossScalingMode::Dynamic;
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
  addDataParallelPass(pm, options);
}

void mlir::amp::addDataParallelPass(OpPassManager &pm,
                                    const AMPPipelineOptions &options) {
  if (!options.dataParallel)
    return;
  DataParallelPassOptions dataParallel;
  dataParallel.bucketMiB = options.bucketMiB;
  dataParallel.reduceType = options.reduceType;
  pm.addPass(createDataParallelPass(dataParallel));
}

//===----------------------------------------------------------------------===//
// Stages
//===----------------------------------------------------------------------===//

void mlir::amp::addBufferizationPasses(OpPassManager &pm, bool updateInPlace,
                                       bool scheduleForMemory) {
  pm.addPass(createLowerAMPOpsPass());
  // What `--tosa-to-linalg-pipeline` registers, without TOSA's validation:
  // its level limits are for TOSA hardware, not for a step compiled here,
  // and at its default level (8K) MLIR 22 counts a pad's shape<2 x rank> as
  // a rank, rejecting every 4-D tosa.pad (and tosa.transpose_conv2d, which
  // decomposes into one). The ops' verifiers still check every op.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(),
                              /*validationOptions=*/std::nullopt);
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(createTosaToTensorPass());
  funcPm.addPass(createTosaToArithPass());
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createLinalgFoldUnitExtentDimsPass());
  pm.addNestedPass<func::FuncOp>(createComputeSlicedConvolutionsPass());
  pm.addPass(createFuseElementwiseOpsPass());
  // Casts to f32 that fusion left alone are widened by their readers: no
  // f32 copy of a low-precision tensor in memory.
  pm.addNestedPass<func::FuncOp>(createWidenInConsumersPass());
  if (scheduleForMemory)
    pm.addNestedPass<func::FuncOp>(createScheduleStepForMemoryPass());
  if (updateInPlace) {
    pm.addPass(createUpdateArgumentsInPlacePass());
    // The update's loop writes the argument itself, not a buffer copied
    // into it.
    pm.addPass(bufferization::createEmptyTensorEliminationPass());
  }

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  // Its globals in an order that does not vary from run to run.
  pm.addPass(createOrderGlobalsByFirstUsePass());
  if (updateInPlace)
    pm.addPass(createDropInPlaceResultsPass());
  // Before the out-param rewrite, which would move result markers onto
  // arguments.
  pm.addPass(createDropMarkersPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.modifyPublicFunctions = true;
  // A result that is a fresh static buffer is computed in its out-param
  // directly: no buffer and no copy per result and step.
  outParams.hoistStaticAllocs = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  // Sibling elementwise ops that tensor fusion left apart (an optimizer's
  // updates of one parameter) as one loop nest: one pass over memory on
  // the CPU, one kernel on the GPU.
  pm.addPass(createLinalgFoldUnitExtentDimsPass());
  pm.addPass(createCSEPass());
  FuseElementwiseBuffersPassOptions siblings;
  siblings.keepLifetimes = scheduleForMemory;
  pm.addNestedPass<func::FuncOp>(createFuseElementwiseBuffersPass(siblings));
}

void mlir::amp::addGPUFusionPasses(OpPassManager &pm) {
  // An elementwise producer joins the reduction that reads it: one launch
  // instead of two (on the CPU it would stop the producer vectorizing).
  // Before the GEMMs become calls, whose effects the pass cannot see.
  FuseElementwiseBuffersPassOptions intoReductions;
  intoReductions.intoReductions = true;
  pm.addNestedPass<func::FuncOp>(
      createFuseElementwiseBuffersPass(intoReductions));
}

void mlir::amp::addRuntimeGemmPasses(OpPassManager &pm, GemmRuntime runtime,
                                     bool lowPrecisionOutputs,
                                     bool roundOperands) {
  ContractionsToRuntimeCallsPassOptions gemms;
  gemms.runtime = runtime;
  gemms.roundOperands = roundOperands;
  pm.addPass(createContractionsToRuntimeCallsPass(gemms));
  if (lowPrecisionOutputs)
    pm.addPass(createGemmOutputsInLowPrecisionPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  pm.addPass(createConvertBufferizationToMemRefPass());
}

void mlir::amp::addCPULoopsToLLVMPasses(OpPassManager &pm,
                                        const AMPLowerToCPUOptions &options) {
  // Parallel dimensions as scf.parallel: the large nests run on all cores.
  pm.addPass(createConvertLinalgToParallelLoopsPass());
  OutlineParallelChunksPassOptions chunks;
  chunks.minWork = options.minParallelWork;
  pm.addPass(createOutlineParallelChunksPass(chunks));
  pm.addPass(createOutlineLoopNestsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Polynomials instead of a libm call per element: the loops vectorize.
  pm.addPass(createApproximateMathPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  if (!options.nativeBF16) {
    // bf16 arithmetic in f32, every f32->bf16 rounding as integer
    // arithmetic: no call of __truncsfbf2 per element.
    arith::ArithEmulateUnsupportedFloatsOptions emulate;
    emulate.sourceTypeStrs = {"bf16"};
    pm.addPass(arith::createArithEmulateUnsupportedFloats(emulate));
    arith::ArithExpandOpsPassOptions expand;
    expand.includeBf16 = true;
    pm.addPass(arith::createArithExpandOpsPass(expand));
  }
  pm.addPass(createArithToLLVMConversionPass());
  // Allocations through libamprt's step allocator, which reuses the step's
  // buffers from one call to the next (runtime/lib/step_memory.cpp).
  FinalizeMemRefToLLVMConversionPassOptions memrefs;
  memrefs.useGenericFunctions = true;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefs));
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createParallelChunksToRuntimePass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void mlir::amp::addGPUMappingPasses(OpPassManager &funcPm) {
  // Strided copies as loop nests (kernels), not host memrefCopy calls.
  funcPm.addPass(createStridedCopiesToLinalgPass());
  // Reductions innermost: one kernel per reduction, not one launch per row.
  funcPm.addPass(createLinalgGeneralizeNamedOpsPass());
  funcPm.addPass(createParallelLoopsOutermostPass());
  funcPm.addPass(createConvertLinalgToParallelLoopsPass());
  // A reduction's initial value stored by its own kernel, not a fill
  // kernel or a host-to-device copy before it.
  funcPm.addPass(createFuseFillsIntoParallelLoopsPass());
  // Bounds are checked inside, so every block has a constant size; no
  // canonicalization in between (it would fold the mapping away).
  funcPm.addPass(createMapParallelLoopsToGPUPass());
  funcPm.addPass(createConvertParallelLoopToGpuPass());
  funcPm.addPass(createSinkLoadsIntoLaunchesPass());
  funcPm.addPass(createSequentialCodeToGPUPass());
  // Independent kernels (one per parameter, gradient, weight) as one.
  funcPm.addPass(createMergeIndependentLaunchesPass());
}

/// Kernels and host code to LLVM the way gpu-lower-to-nvvm-pipeline does,
/// with the toolkit given to gpu-module-to-binary (its libdevice resolves
/// __nv_expf & co.; the upstream pipeline finds it only through CUDA_HOME).
static void addCUDAToLLVMPasses(OpPassManager &pm,
                                const AMPLowerToCUDAOptions &options) {
  pm.addPass(createGpuKernelOutliningPass());
  // The step's static buffers in one workspace the runtime allocates once.
  pm.addPass(createPlanStepMemoryPass());
  pm.addPass(createBuffersToDeviceMemoryPass());
  AsyncGPUWorkPassOptions async;
  async.waitBeforeReturn = options.waitBeforeReturn;
  pm.addPass(createAsyncGPUWorkPass(async));
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = options.chip;
  target.features = "+ptx80";
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createStripDebugInfoPass());
  kernels.addPass(createConvertGpuOpsToNVVMOps());
  kernels.addPass(LLVM::createNVVMOptimizeForTargetPass());
  kernels.addPass(createCanonicalizerPass());
  kernels.addPass(createCSEPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = "fatbin";
  binary.toolkitPath = options.toolkit;
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

//===----------------------------------------------------------------------===//
// Lowerings
//===----------------------------------------------------------------------===//

void mlir::amp::buildAMPLowerToCPUPipeline(
    OpPassManager &pm, const AMPLowerToCPUOptions &options) {
  addBufferizationPasses(pm, options.updateInPlace, options.scheduleForMemory);
  // Library convolutions take any strides; the loops around them do not.
  pm.addNestedPass<func::FuncOp>(createConvBufferLayoutsPass());
  // The transposes the layouts made plain copies read their source.
  pm.addNestedPass<func::FuncOp>(createForwardIdentityCopiesPass());
  // Small trailing dimensions (3x3 filters, 1x1 images) merged with the
  // ones before them: innermost loops long enough to vectorize.
  pm.addNestedPass<func::FuncOp>(createCollapseContiguousLoopsPass());
  // Not on the CPU: measured no faster at bf16 and slower at f16 (libamprt
  // narrows f16 without F16C), and those f32 buffers are not at the
  // workspace's peak (docs/cpu-training.md).
  addRuntimeGemmPasses(pm, GemmRuntime::CPU, /*lowPrecisionOutputs=*/false,
                       /*roundOperands=*/true);
  if (options.planMemory) {
    // Peak memory by liveness, no allocation per buffer and step; the host
    // reads constants in place. Slots on cache lines (64 bytes).
    PlanStepMemoryPassOptions plan;
    plan.alignment = 64;
    plan.constants = false;
    pm.addPass(createPlanStepMemoryPass(plan));
  }
  addCPULoopsToLLVMPasses(pm, options);
}

std::string AMPLowerToCUDAOptions::getDefaultCUDAToolkitPath() {
  return AMP_CUDA_TOOLKIT_DIR;
}

void mlir::amp::buildAMPLowerToCUDAPipeline(
    OpPassManager &pm, const AMPLowerToCUDAOptions &options) {
  // Sibling updates stay together for the GPU: one kernel for several.
  addBufferizationPasses(pm, options.updateInPlace,
                         /*scheduleForMemory=*/false);
  addGPUFusionPasses(pm);
  // cuBLASLt writes f16/bf16 results itself: one launch less per cast.
  addRuntimeGemmPasses(pm, GemmRuntime::CUDA, /*lowPrecisionOutputs=*/true,
                       /*roundOperands=*/false);
  addGPUMappingPasses(pm.nest<func::FuncOp>());
  addCUDAToLLVMPasses(pm, options);
}

void mlir::amp::buildAMPLowerToEmulatedCUDAPipeline(
    OpPassManager &pm, const AMPLowerToCPUOptions &options) {
  addBufferizationPasses(pm, options.updateInPlace, options.scheduleForMemory);
  addGPUFusionPasses(pm);
  // As on the GPU (libamprt's `_to_` GEMMs stand in for cuBLASLt's,
  // which read whole rounded copies).
  addRuntimeGemmPasses(pm, GemmRuntime::CPU, /*lowPrecisionOutputs=*/true,
                       /*roundOperands=*/false);
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  addGPUMappingPasses(funcPm);
  funcPm.addPass(createEmulateGPULaunchesPass());
  if (options.planMemory) {
    // The CUDA path's plan: 256-byte slots, constants in slots of their
    // own written once per workspace (here by host copies).
    pm.addPass(createPlanStepMemoryPass());
  }
  addCPULoopsToLLVMPasses(pm, options);
}

void mlir::amp::registerAMPPipelines() {
  PassPipelineRegistration<AMPLowerToCPUOptions>(
      "amp-lower-to-cpu",
      "Lower a training module on tensors to the LLVM dialect for the CPU",
      buildAMPLowerToCPUPipeline);
  PassPipelineRegistration<AMPLowerToCUDAOptions>(
      "amp-lower-to-cuda",
      "Lower a training module on tensors to LLVM host code and fatbin "
      "kernels for CUDA",
      buildAMPLowerToCUDAPipeline);
  PassPipelineRegistration<AMPLowerToCPUOptions>(
      "amp-lower-to-cuda-emulated",
      "The CUDA path's kernels (tiled, mapped, bounds-checked) run as host "
      "loops: a CPU build that tests the GPU mapping without a GPU",
      buildAMPLowerToEmulatedCUDAPipeline);
  PassPipelineRegistration<AMPPipelineOptions>(
      "amp-pipeline",
      "Mixed-precision training: autocast, cleanup, f32 master weights and "
      "loss scaling",
      buildAMPPipeline);
}
