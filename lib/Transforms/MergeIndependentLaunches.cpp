//===- MergeIndependentLaunches.cpp - multi-tensor kernels ----------------===//
//
// After the GPU mapping every loop nest is its own launch, and a step
// launches one kernel per parameter for the optimizer, per gradient for
// the overflow check, per weight for its cast, although none of them
// depends on the others. Launched one by one they each pay the launch
// latency and each leaves most of an H200 idle. Independent launches of
// one block size become one launch whose blocks are the concatenation of
// theirs; each block runs the body it came from.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Buffers.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_MERGEINDEPENDENTLAUNCHESPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// The buffers (by root) an op reads and writes; `unknown` when it may
/// touch memory it does not name.
struct Access {
  SmallVector<Value> reads, writes;
  bool unknown = false;
};

/// A launch this pass can merge: one-dimensional constant grid and block,
/// one body block, no async tokens, attributions or id ops other than the
/// region's arguments.
struct LaunchShape {
  int64_t gridX = 0, blockX = 0;
};
} // namespace

static Access accessOf(Operation *op) {
  Access access;
  if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
    return access;
  if (isa<memref::AllocOp>(op))
    return access; // a fresh buffer
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
    access.writes.push_back(getRootBuffer(dealloc.getMemref()));
    return access;
  }
  if (!isa<gpu::LaunchOp>(op)) {
    access.unknown = true;
    return access;
  }
  op->walk([&](Operation *inner) {
    if (inner == op || isMemoryEffectFree(inner))
      return;
    if (auto load = dyn_cast<memref::LoadOp>(inner))
      access.reads.push_back(getRootBuffer(load.getMemRef()));
    else if (auto store = dyn_cast<memref::StoreOp>(inner))
      access.writes.push_back(getRootBuffer(store.getMemRef()));
    else if (!isa<gpu::TerminatorOp, scf::YieldOp, scf::ForOp, scf::IfOp>(
                 inner))
      access.unknown = true;
  });
  return access;
}

static bool intersects(ArrayRef<Value> a, ArrayRef<Value> b) {
  return llvm::any_of(a, [&](Value v) { return llvm::is_contained(b, v); });
}

/// Whether the one may run concurrently with (or, moved, before) the other.
static bool independent(const Access &a, const Access &b) {
  return !a.unknown && !b.unknown && !intersects(a.writes, b.reads) &&
         !intersects(a.writes, b.writes) && !intersects(a.reads, b.writes);
}

/// The value of an index the host computes from constants (the mapping's
/// grid and block sizes are affine.apply and arith chains).
static std::optional<int64_t> evaluateIndex(Value value) {
  APInt constant;
  if (matchPattern(value, m_ConstantInt(&constant)))
    return constant.getSExtValue();
  Operation *def = value.getDefiningOp();
  if (!def)
    return std::nullopt;
  SmallVector<int64_t> operands;
  for (Value operand : def->getOperands()) {
    std::optional<int64_t> known = evaluateIndex(operand);
    if (!known)
      return std::nullopt;
    operands.push_back(*known);
  }
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    SmallVector<Attribute> attrs;
    for (int64_t operand : operands)
      attrs.push_back(IntegerAttr::get(IndexType::get(def->getContext()),
                                       operand));
    SmallVector<Attribute> results;
    if (failed(apply.getAffineMap().constantFold(attrs, results)) ||
        results.size() != 1)
      return std::nullopt;
    return cast<IntegerAttr>(results.front()).getInt();
  }
  if (isa<arith::MulIOp>(def))
    return operands[0] * operands[1];
  if (isa<arith::AddIOp>(def))
    return operands[0] + operands[1];
  if (isa<arith::SubIOp>(def))
    return operands[0] - operands[1];
  return std::nullopt;
}

static std::optional<LaunchShape> getShape(gpu::LaunchOp launch) {
  if (!launch.getAsyncDependencies().empty() || launch.getAsyncToken() ||
      launch.getDynamicSharedMemorySize() ||
      !launch.getWorkgroupAttributions().empty() ||
      !launch.getPrivateAttributions().empty() ||
      !launch.getBody().hasOneBlock() || launch.hasClusterSize())
    return std::nullopt;
  auto constant = evaluateIndex;
  std::optional<int64_t> gx = constant(launch.getGridSizeX()),
                         gy = constant(launch.getGridSizeY()),
                         gz = constant(launch.getGridSizeZ()),
                         bx = constant(launch.getBlockSizeX()),
                         by = constant(launch.getBlockSizeY()),
                         bz = constant(launch.getBlockSizeZ());
  if (!gx || !bx || gy != 1 || gz != 1 || by != 1 || bz != 1)
    return std::nullopt;
  // The body must know its block only through the region's arguments,
  // which the merge remaps.
  bool idOps = false;
  launch.getBody().walk([&](Operation *op) {
    if (isa<gpu::BlockIdOp, gpu::GridDimOp, gpu::ThreadIdOp, gpu::BlockDimOp,
            gpu::GlobalIdOp, gpu::LaneIdOp, gpu::BarrierOp>(op))
      idOps = true;
  });
  if (idOps)
    return std::nullopt;
  return LaunchShape{*gx, *bx};
}

/// The values `launch`'s body takes from above that become kernel
/// parameters (constants are cloned into the kernel by outlining).
static void collectParameters(gpu::LaunchOp launch,
                              llvm::SetVector<Value> &parameters) {
  launch.getBody().walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!launch->isAncestor(operand.getParentBlock()->getParentOp()) &&
          !matchPattern(operand, m_Constant()))
        parameters.insert(operand);
  });
}

/// The bytes those parameters take: a memref is passed as its descriptor
/// (two pointers, an offset, sizes and strides), anything else as 8 bytes.
static int64_t parameterBytes(const llvm::SetVector<Value> &parameters) {
  int64_t bytes = 0;
  for (Value value : parameters) {
    auto memref = dyn_cast<MemRefType>(value.getType());
    bytes += memref ? 8 * (3 + 2 * memref.getRank()) : 8;
  }
  return bytes;
}

/// What a merged kernel's parameters may take by that count: sm_90's
/// limit is 4352 bytes before PTX ISA 8.1 (the toolchain emits 8.0), and
/// the lowering adds parameters the count does not see (a transformer
/// kernel counted at under 4096 bytes took 4448), hence half of it.
static constexpr int64_t kMaxParameterBytes = 2048;

/// Clones `launch`'s body (without its terminator) at `builder`'s point,
/// its region arguments those of `merged`, except the block index, grid
/// size and block size along x, which are `blockX`, `shape`'s grid and
/// block. Threads beyond `shape`'s block (the merged launch's blocks may
/// be larger) skip it.
static void cloneBody(OpBuilder &builder, gpu::LaunchOp launch,
                      LaunchShape shape, gpu::LaunchOp merged, Value blockX,
                      int64_t mergedBlockX) {
  Location loc = launch.getLoc();
  IRMapping mapping;
  Block &from = launch.getBody().front();
  Block &to = merged.getBody().front();
  for (auto [a, b] : llvm::zip(from.getArguments(), to.getArguments()))
    mapping.map(a, b);
  Value blockSize = arith::ConstantIndexOp::create(builder, loc, shape.blockX);
  mapping.map(launch.getBlockIds().x, blockX);
  mapping.map(launch.getGridSize().x,
              arith::ConstantIndexOp::create(builder, loc, shape.gridX));
  mapping.map(launch.getBlockSize().x, blockSize);
  OpBuilder::InsertionGuard guard(builder);
  if (shape.blockX < mergedBlockX) {
    Value active =
        arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ult,
                              merged.getThreadIds().x, blockSize);
    auto branch = scf::IfOp::create(builder, loc, active);
    builder.setInsertionPoint(branch.thenBlock()->getTerminator());
  }
  for (Operation &op : from.without_terminator())
    builder.clone(op, mapping);
}

/// One launch doing what `first` and then `second` did (placed where
/// `first` is): sequentially for two one-thread kernels, else as the
/// concatenation of their blocks.
static gpu::LaunchOp mergeLaunches(gpu::LaunchOp first, LaunchShape a,
                                   gpu::LaunchOp second, LaunchShape b,
                                   bool sequential) {
  OpBuilder builder(first);
  Location loc = first.getLoc();
  int64_t grid = sequential ? 1 : a.gridX + b.gridX;
  int64_t block = std::max(a.blockX, b.blockX);
  Value gridSize = arith::ConstantIndexOp::create(builder, loc, grid);
  Value blockSize = arith::ConstantIndexOp::create(builder, loc, block);
  auto merged = gpu::LaunchOp::create(
      builder, loc, gridSize, first.getGridSizeY(), first.getGridSizeZ(),
      blockSize, first.getBlockSizeY(), first.getBlockSizeZ());
  Block &body = merged.getBody().front();
  builder.setInsertionPointToStart(&body);
  Value blockX = merged.getBlockIds().x;
  if (sequential) {
    cloneBody(builder, first, a, merged, blockX, block);
    cloneBody(builder, second, b, merged, blockX, block);
  } else {
    Value gridA = arith::ConstantIndexOp::create(builder, loc, a.gridX);
    Value inFirst = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::ult, blockX, gridA);
    auto branch = scf::IfOp::create(builder, loc, inFirst,
                                    /*withElseRegion=*/true);
    builder.setInsertionPoint(branch.thenBlock()->getTerminator());
    cloneBody(builder, first, a, merged, blockX, block);
    builder.setInsertionPoint(branch.elseBlock()->getTerminator());
    Value blockB = arith::SubIOp::create(builder, loc, blockX, gridA);
    cloneBody(builder, second, b, merged, blockB, block);
    builder.setInsertionPointAfter(branch);
  }
  gpu::TerminatorOp::create(builder, loc);
  return merged;
}

int64_t mlir::amp::mergeIndependentLaunches(Block &block) {
  int64_t merges = 0;
  for (Operation *op = &block.front(); op; op = op->getNextNode()) {
    auto first = dyn_cast<gpu::LaunchOp>(op);
    std::optional<LaunchShape> firstShape;
    if (!first || !(firstShape = getShape(first)))
      continue;
    Access firstAccess = accessOf(first);
    SmallVector<Access> between;
    for (Operation *next = first->getNextNode(); next;) {
      auto second = dyn_cast<gpu::LaunchOp>(next);
      std::optional<LaunchShape> secondShape;
      if (second)
        secondShape = getShape(second);
      Access secondAccess = accessOf(next);
      bool oneThread = firstShape && secondShape && firstShape->gridX == 1 &&
                       firstShape->blockX == 1 && secondShape->gridX == 1 &&
                       secondShape->blockX == 1;
      llvm::SetVector<Value> parameters;
      if (secondShape) {
        collectParameters(first, parameters);
        collectParameters(second, parameters);
      }
      bool canMerge =
          secondShape && !secondAccess.unknown &&
          parameterBytes(parameters) <= kMaxParameterBytes &&
          (oneThread || independent(firstAccess, secondAccess)) &&
          llvm::all_of(between, [&](const Access &access) {
            return independent(access, secondAccess);
          }) &&
          hoistDefinitionsAbove(
              {second}, first, [](Operation *) { return false; });
      if (!canMerge) {
        between.push_back(secondAccess);
        if (between.back().unknown)
          break;
        next = next->getNextNode();
        continue;
      }
      Operation *after = second->getNextNode();
      gpu::LaunchOp merged = mergeLaunches(first, *firstShape, second,
                                           *secondShape, oneThread);
      first->erase();
      second->erase();
      first = merged;
      firstShape = getShape(merged);
      llvm::append_range(firstAccess.reads, secondAccess.reads);
      llvm::append_range(firstAccess.writes, secondAccess.writes);
      ++merges;
      next = after;
    }
    op = first;
  }
  return merges;
}

namespace {
struct MergeIndependentLaunchesPass
    : public amp::impl::MergeIndependentLaunchesPassBase<
          MergeIndependentLaunchesPass> {
  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) {
      if (!block->empty() && !isa<gpu::LaunchOp>(block->getParentOp()))
        blocks.push_back(block);
    });
    for (Block *block : blocks)
      mergeIndependentLaunches(*block);
  }
};
} // namespace
