//===- EmulateGPULaunches.cpp - gpu.launch as host loops (testing aid) ----===//
//
// Lets a machine without a GPU execute the CUDA path's kernels as written
// by its tiling and mapping: grid and block become loops, the body runs
// once per (block, thread) in order. Valid for bodies without barriers or
// shared memory, which is all amp-mlir generates.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::amp {
#define GEN_PASS_DEF_EMULATEGPULAUNCHESPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static LogicalResult emulate(gpu::LaunchOp launch) {
  if (launch.hasClusterSize() || launch.getAsyncToken() ||
      !launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() ||
      !launch.getBody().hasOneBlock())
    // At the launch's location, without printing its whole body.
    return emitError(launch.getLoc(),
                     "amp-emulate-gpu-launches: only synchronous single-block "
                     "launches without clusters, workgroup or private memory "
                     "can run as loops");
  OpBuilder builder(launch);
  Location loc = launch.getLoc();
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
  gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
  SmallVector<Value> bounds = {grid.x,  grid.y,  grid.z,
                               block.x, block.y, block.z};

  // Six loops, outermost first: block z..x would also do; any order is a
  // valid schedule for independent threads.
  SmallVector<Value> ids;
  for (Value bound : bounds) {
    auto loop = scf::ForOp::create(builder, loc, zero, bound, one);
    ids.push_back(loop.getInductionVar());
    builder.setInsertionPointToStart(loop.getBody());
  }
  IRMapping mapping;
  gpu::KernelDim3 blockIds = launch.getBlockIds();
  gpu::KernelDim3 threadIds = launch.getThreadIds();
  gpu::KernelDim3 gridSize = launch.getGridSize();
  gpu::KernelDim3 blockSize = launch.getBlockSize();
  Value regionValues[] = {blockIds.x,  blockIds.y,  blockIds.z,
                          threadIds.x, threadIds.y, threadIds.z};
  for (auto [arg, id] : llvm::zip(regionValues, ids))
    mapping.map(arg, id);
  Value sizes[] = {gridSize.x,  gridSize.y,  gridSize.z,
                   blockSize.x, blockSize.y, blockSize.z};
  for (auto [arg, bound] : llvm::zip(sizes, bounds))
    mapping.map(arg, bound);
  for (Operation &op : launch.getBody().front().without_terminator())
    builder.clone(op, mapping);
  launch.erase();
  return success();
}

namespace {
struct EmulateGPULaunchesPass
    : public amp::impl::EmulateGPULaunchesPassBase<EmulateGPULaunchesPass> {
  void runOnOperation() override {
    SmallVector<gpu::LaunchOp> launches;
    getOperation().walk([&](gpu::LaunchOp op) { launches.push_back(op); });
    for (gpu::LaunchOp launch : launches)
      if (failed(emulate(launch)))
        return signalPassFailure();
  }
};
} // namespace
