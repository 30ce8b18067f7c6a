//===- SequentialCodeToGPU.cpp - the step's sequential code on the GPU ----===//
//
// What stays sequential after the parallel loops are mapped (the last
// stage of whole-tensor reductions, the loss-scale update, a scalar
// stored into a buffer) would run on the host between kernels, and the
// host would wait for the GPU before each piece. Run as kernels of one
// thread, they are queued with the rest and the host never reads the
// step's buffers.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_SEQUENTIALCODETOGPUPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether `op`, with everything it nests, can run in a kernel: loads and
/// stores of buffers, arithmetic and structured control flow only.
static bool canRunInKernel(Operation *op) {
  WalkResult result = op->walk([](Operation *nested) {
    if (isa<memref::LoadOp, memref::StoreOp, scf::ForOp, scf::IfOp,
            scf::YieldOp>(nested))
      return WalkResult::advance();
    Dialect *dialect = nested->getDialect();
    if (isa_and_nonnull<arith::ArithDialect, math::MathDialect>(dialect) &&
        isMemoryEffectFree(nested))
      return WalkResult::advance();
    return WalkResult::interrupt();
  });
  return !result.wasInterrupted();
}

/// Whether `op` touches memory (a load or store anywhere inside).
static bool touchesMemory(Operation *op) {
  return op->walk([](Operation *nested) {
             return isa<memref::LoadOp, memref::StoreOp>(nested)
                        ? WalkResult::interrupt()
                        : WalkResult::advance();
           })
      .wasInterrupted();
}

/// Moves `run` (consecutive ops of one block, in order) into a gpu.launch
/// of one block of one thread, placed where the run's first op was.
/// The run's results must have no uses after it.
static void moveIntoKernel(ArrayRef<Operation *> run) {
  OpBuilder builder(run.front());
  Location loc = run.front()->getLoc();
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  auto launch = gpu::LaunchOp::create(builder, loc, one, one, one, one, one,
                                      one);
  Block &body = launch.getBody().front();
  builder.setInsertionPointToEnd(&body);
  auto terminator = gpu::TerminatorOp::create(builder, loc);
  for (Operation *op : run)
    op->moveBefore(terminator);
}

/// Splits `block` into runs of kernel-safe ops that touch memory, with
/// the pure ops between them, and moves each run whose values are not
/// needed after it into a kernel.
static void moveSequentialRuns(Block &block) {
  SmallVector<Operation *> run;
  auto flush = [&] {
    // Trailing pure ops stay on the host.
    while (!run.empty() && !touchesMemory(run.back()))
      run.pop_back();
    if (run.empty())
      return;
    llvm::SmallPtrSet<Operation *, 16> inRun(run.begin(), run.end());
    // A pure op whose value is needed after the run goes back above it
    // (it cannot depend on a load of the run: then it stays, and the run
    // is not moved).
    SmallVector<Operation *> kept;
    bool movable = true;
    for (Operation *op : run) {
      bool usedAfter = llvm::any_of(op->getUsers(), [&](Operation *user) {
        return !inRun.contains(block.findAncestorOpInBlock(*user));
      });
      if (!usedAfter) {
        kept.push_back(op);
        continue;
      }
      bool dependsOnRun = llvm::any_of(op->getOperands(), [&](Value v) {
        Operation *def = v.getDefiningOp();
        return def && inRun.contains(def);
      });
      if (touchesMemory(op) || op->getNumRegions() || dependsOnRun) {
        movable = false;
        break;
      }
      op->moveBefore(run.front());
    }
    if (movable && !kept.empty())
      moveIntoKernel(kept);
    run.clear();
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    // An allocation between two pieces does not split them: it goes
    // above the run (its sizes come from outside: the run's own values
    // are not index arithmetic for buffers).
    if (isa<memref::AllocOp>(op) && !run.empty() &&
        llvm::none_of(op.getOperands(), [&](Value v) {
          return llvm::is_contained(run, v.getDefiningOp());
        })) {
      op.moveBefore(run.front());
      continue;
    }
    bool pure = op.getNumRegions() == 0 && isMemoryEffectFree(&op);
    if (pure && !isa<gpu::LaunchOp>(op)) {
      if (!run.empty())
        run.push_back(&op);
      continue;
    }
    if (canRunInKernel(&op)) {
      run.push_back(&op);
      continue;
    }
    flush();
  }
  flush();
}

namespace {
struct SequentialCodeToGPUPass
    : public amp::impl::SequentialCodeToGPUPassBase<SequentialCodeToGPUPass> {
  void runOnOperation() override {
    for (Block &block : getOperation().getBody())
      moveSequentialRuns(block);
  }
};
} // namespace
