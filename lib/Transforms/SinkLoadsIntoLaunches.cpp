//===- SinkLoadsIntoLaunches.cpp - kernels read host scalars themselves ---===//
//
// A scalar the host loads from a buffer only to hand it to kernels (the
// overflow flag each optimizer kernel selects on) makes the host wait for
// the GPU work that wrote it. Loaded inside each kernel instead, it is read
// on the device, in stream order, and the host never waits for it.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_SINKLOADSINTOLAUNCHESPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether `op` (with what it nests) may write `buffer`.
static bool mayWrite(Operation *op, Value buffer) {
  bool writes = false;
  op->walk([&](Operation *nested) {
    if (writes)
      return WalkResult::interrupt();
    auto effects = dyn_cast<MemoryEffectOpInterface>(nested);
    if (!effects) {
      // Nested ops are walked on their own; any other op without declared
      // effects (a call) may write anything.
      writes = !nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>();
      return WalkResult::advance();
    }
    SmallVector<MemoryEffects::EffectInstance> instances;
    effects.getEffects(instances);
    for (const auto &instance : instances)
      if (isa<MemoryEffects::Write, MemoryEffects::Free>(
              instance.getEffect()) &&
          (!instance.getValue() || instance.getValue() == buffer))
        writes = true;
    return WalkResult::advance();
  });
  return writes;
}

/// Whether `buffer` can only be reached through itself: a fresh
/// allocation or an argument, never viewed, cast or copied into a view.
static bool isUnaliased(Value buffer) {
  Operation *def = buffer.getDefiningOp();
  if (def && !isa<memref::AllocOp, gpu::AllocOp>(def))
    return false;
  return llvm::all_of(buffer.getUsers(), [](Operation *user) {
    return !isa<ViewLikeOpInterface>(user) &&
           !isa<memref::CastOp, memref::ReinterpretCastOp,
                memref::ExtractStridedMetadataOp>(user);
  });
}

/// The pure host ops computed from `load` (in block order, `load` first),
/// if every use of them is in the slice or inside a gpu.launch of the same
/// block; those launches are added to `launches`.
static std::optional<SmallVector<Operation *>>
getSliceUsedByLaunches(memref::LoadOp load,
                       SmallVectorImpl<gpu::LaunchOp> &launches) {
  SmallVector<Operation *> slice = {load};
  llvm::SmallPtrSet<Operation *, 8> inSlice = {load};
  for (Operation *op = load->getNextNode(); op; op = op->getNextNode()) {
    bool usesSlice = llvm::any_of(op->getOperands(), [&](Value operand) {
      return inSlice.contains(operand.getDefiningOp());
    });
    if (!usesSlice || isa<gpu::LaunchOp>(op))
      continue;
    if (op->getNumRegions() || !isMemoryEffectFree(op))
      return std::nullopt; // a host op with effects needs the value
    slice.push_back(op);
    inSlice.insert(op);
  }
  for (Operation *op : slice)
    for (Operation *user : op->getUsers()) {
      if (inSlice.contains(user))
        continue;
      auto launch = user->getParentOfType<gpu::LaunchOp>();
      if (!launch || launch->getBlock() != load->getBlock())
        return std::nullopt; // used on the host, or in a nested host block
      if (!llvm::is_contained(launches, launch))
        launches.push_back(launch);
    }
  if (launches.empty())
    return std::nullopt;
  return slice;
}

/// Moves a copy of `load`, and of the pure ops computed from it, into
/// every gpu.launch that uses them, when nothing between the load and the
/// last such launch (nor those launches) may write the buffer.
static void sinkLoad(memref::LoadOp load) {
  Value buffer = load.getMemRef();
  if (!isUnaliased(buffer))
    return;
  SmallVector<gpu::LaunchOp> launches;
  std::optional<SmallVector<Operation *>> slice =
      getSliceUsedByLaunches(load, launches);
  if (!slice)
    return;
  Operation *last = launches.front();
  for (gpu::LaunchOp launch : launches)
    if (last->isBeforeInBlock(launch))
      last = launch;
  for (Operation *op = load->getNextNode(); op != last; op = op->getNextNode())
    if (mayWrite(op, buffer))
      return;
  // A launch that reads the buffer itself must not write it either, or
  // some of its threads could read the new value.
  if (llvm::any_of(launches,
                   [&](gpu::LaunchOp launch) { return mayWrite(launch, buffer); }))
    return;
  for (gpu::LaunchOp launch : launches) {
    OpBuilder builder = OpBuilder::atBlockBegin(&launch.getBody().front());
    IRMapping mapping;
    for (Operation *op : *slice) {
      Operation *copy = builder.clone(*op, mapping);
      for (auto [from, to] : llvm::zip(op->getResults(), copy->getResults()))
        from.replaceUsesWithIf(to, [&](OpOperand &use) {
          return launch->isProperAncestor(use.getOwner());
        });
    }
  }
  for (Operation *op : llvm::reverse(*slice))
    op->erase();
}

namespace {
struct SinkLoadsIntoLaunchesPass
    : public amp::impl::SinkLoadsIntoLaunchesPassBase<
          SinkLoadsIntoLaunchesPass> {
  void runOnOperation() override {
    SmallVector<memref::LoadOp> loads;
    for (Block &block : getOperation().getBody())
      for (Operation &op : block)
        if (auto load = dyn_cast<memref::LoadOp>(op))
          loads.push_back(load);
    for (memref::LoadOp load : loads)
      sinkLoad(load);
  }
};
} // namespace
