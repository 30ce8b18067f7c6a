//===- FuseElementwiseBuffers.cpp - one loop nest for sibling updates -----===//
//
// After bufferization, elementwise linalg.generics over the same iteration
// space often run back to back on the same buffers without being one op:
// an optimizer's momentum update, the parameter update that reads it and
// the skip-on-overflow select each write a buffer another one reads
// (tensor-level fusion keeps a producer whose result has other uses), and
// parameters of one shape are updated in separate ops. Each is a pass over
// memory on the CPU and a kernel launch on the GPU. Here a later such
// generic is merged into an earlier one when, element by element, running
// both in one loop computes what running them one after the other did:
//   - both are all-parallel over the same static iteration space, with
//     identity maps for their outputs (inputs may be broadcast);
//   - a buffer that one writes and the other touches is the same SSA value
//     in both, read and written through identity maps (element i of the
//     one meets element i of the other only); distinct function
//     arguments are taken not to overlap, as the step's buffers (inputs,
//     state and out-params) never do;
//   - nothing between them touches what the later one writes or writes
//     what it reads, and what it uses is available at the earlier one.
// The merged body runs the earlier body, then the later one, which takes
// the values the earlier one yields for the buffers they share instead of
// re-reading them, so every element is computed by the same operations in
// the same order (bit-identical results).
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Buffers.h"
#include "amp/Utils/Contractions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir::amp {
#define GEN_PASS_DEF_FUSEELEMENTWISEBUFFERSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// A loop nest on buffers that can share loops with another: static
/// ranges, projected-permutation maps (inputs may broadcast), a body that
/// only computes. With `allowReductions`, reduction loops and outputs that
/// do not use every loop are allowed; otherwise every loop is parallel and
/// every output written through the identity (an elementwise op).
static bool isLoopNestOnBuffers(linalg::GenericOp op, bool allowReductions) {
  if (!op.hasPureBufferSemantics() || op.getNumLoops() == 0 ||
      (!allowReductions && op.getNumLoops() != op.getNumParallelLoops()) ||
      !llvm::all_of(op.getIndexingMapsArray(), [](AffineMap map) {
        return map.isProjectedPermutation(/*allowZeroInResults=*/true);
      }))
    return false;
  for (int64_t range : op.getStaticLoopRanges())
    if (ShapedType::isDynamic(range))
      return false;
  if (!allowReductions)
    for (OpOperand &init : op.getDpsInitsMutable())
      if (!op.getMatchingIndexingMap(&init).isIdentity())
        return false;
  // A body that reads memory (a gather) or branches (a bounds check's
  // cf.assert) is left alone: what it reads is not an operand, and on the
  // CPU a bf16 value of the other body kept live across the branch becomes
  // an f32 the backend rounds with a call of compiler-rt's __truncsfbf2.
  return llvm::all_of(op.getBody()->without_terminator(), [](Operation &inner) {
    return inner.getNumRegions() == 0 && isMemoryEffectFree(&inner);
  });
}

static bool isElementwiseOnBuffers(linalg::GenericOp op) {
  return isLoopNestOnBuffers(op, /*allowReductions=*/false);
}

namespace {
/// The buffers an op reads and writes, by root; `unknown` when the op may
/// touch memory it does not take as an operand.
struct BufferAccess {
  SmallVector<Value> reads, writes;
  bool unknown = false;
};
} // namespace

static BufferAccess accessOf(Operation *op) {
  BufferAccess access;
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureBufferSemantics()) {
      access.unknown = true;
      return access;
    }
    for (OpOperand *input : linalgOp.getDpsInputOperands())
      if (isa<MemRefType>(input->get().getType()))
        access.reads.push_back(getRootBuffer(input->get()));
    for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
      access.reads.push_back(getRootBuffer(init.get()));
      access.writes.push_back(getRootBuffer(init.get()));
    }
    // What the body reads from buffers it is not given (a gather).
    op->walk([&](Operation *inner) {
      if (inner == op || isMemoryEffectFree(inner))
        return;
      if (auto load = dyn_cast<memref::LoadOp>(inner))
        access.reads.push_back(getRootBuffer(load.getMemRef()));
      else if (!isa<linalg::YieldOp>(inner))
        access.unknown = true;
    });
    return access;
  }
  if (isMemoryEffectFree(op) || isa<ViewLikeOpInterface>(op))
    return access;
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    access.reads.push_back(getRootBuffer(load.getMemRef()));
    return access;
  }
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    return access; // a fresh buffer nobody else holds yet
  if (op->getNumRegions() != 0) {
    access.unknown = true;
    return access;
  }
  // Anything else (stores, copies, calls, deallocations): every buffer it
  // takes is read and written, and an op with effects on no operand is a
  // barrier.
  bool anyBuffer = false;
  for (Value operand : op->getOperands())
    if (isa<BaseMemRefType>(operand.getType())) {
      anyBuffer = true;
      access.reads.push_back(getRootBuffer(operand));
      access.writes.push_back(getRootBuffer(operand));
    }
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects || !anyBuffer)
    access.unknown = true;
  return access;
}

static bool intersects(ArrayRef<Value> a, ArrayRef<Value> b) {
  return llvm::any_of(a, [&](Value v) { return llvm::is_contained(b, v); });
}

/// Whether `later` can run where `earlier` is: nothing in between (given
/// by what it accesses) writes what it reads or touches what it writes.
static bool commutesWith(const BufferAccess &laterAccess,
                         ArrayRef<BufferAccess> between) {
  for (const BufferAccess &access : between) {
    if (access.unknown || intersects(access.writes, laterAccess.reads) ||
        intersects(access.writes, laterAccess.writes) ||
        intersects(access.reads, laterAccess.writes))
      return false;
  }
  return true;
}

/// Moves the definitions of what `users` use above `earlier`
/// (hoistDefinitionsAbove), loads included when nothing from `earlier` to
/// the load writes the loaded buffer.
static bool hoistDefinitions(ArrayRef<Operation *> users,
                             linalg::GenericOp earlier) {
  return hoistDefinitionsAbove(users, earlier, [&](Operation *def) {
    auto load = dyn_cast<memref::LoadOp>(def);
    if (!load)
      return false;
    Value loaded = getRootBuffer(load.getMemRef());
    for (Operation *op = earlier; op != def; op = op->getNextNode()) {
      BufferAccess access = accessOf(op);
      if (access.unknown || llvm::is_contained(access.writes, loaded))
        return false;
    }
    return true;
  });
}

/// The merged op, or failure when the two cannot share one loop nest.
static FailureOr<linalg::GenericOp> merge(linalg::GenericOp earlier,
                                          linalg::GenericOp later) {
  if (earlier.getStaticLoopRanges() != later.getStaticLoopRanges())
    return failure();
  // Buffers one writes and the other touches: one SSA value, identity maps.
  auto touches = [](linalg::GenericOp op) {
    SmallVector<std::pair<OpOperand *, Value>> result;
    for (OpOperand &operand : op->getOpOperands())
      if (isa<MemRefType>(operand.get().getType()))
        result.push_back({&operand, getRootBuffer(operand.get())});
    return result;
  };
  auto earlierTouches = touches(earlier), laterTouches = touches(later);
  for (auto [a, aRoot] : earlierTouches)
    for (auto [b, bRoot] : laterTouches) {
      if (aRoot != bRoot)
        continue;
      bool written = earlier.isDpsInit(a) || later.isDpsInit(b);
      if (!written)
        continue;
      if (a->get() != b->get() ||
          !earlier.getMatchingIndexingMap(a).isIdentity() ||
          !later.getMatchingIndexingMap(b).isIdentity())
        return failure();
    }

  // The earlier op's outputs, by buffer, and what its body yields there.
  SmallVector<Value> earlierOutputs(earlier.getDpsInits());
  auto earlierOutput = [&](Value buffer) -> int64_t {
    auto it = llvm::find(earlierOutputs, buffer);
    return it == earlierOutputs.end() ? -1 : it - earlierOutputs.begin();
  };

  SmallVector<Value> inputs(earlier.getDpsInputs());
  SmallVector<AffineMap> inputMaps;
  for (OpOperand *input : earlier.getDpsInputOperands())
    inputMaps.push_back(earlier.getMatchingIndexingMap(input));
  // The later op's inputs that the earlier one writes come from its body.
  for (OpOperand *input : later.getDpsInputOperands()) {
    if (earlierOutput(input->get()) >= 0)
      continue;
    inputs.push_back(input->get());
    inputMaps.push_back(later.getMatchingIndexingMap(input));
  }
  // Outputs: the earlier op's, except those the later one writes again
  // and temporaries only the later one read (now passed in registers).
  auto onlyBetweenThem = [&](Value buffer) {
    return buffer.getDefiningOp<memref::AllocOp>() &&
           llvm::all_of(buffer.getUsers(), [&](Operation *user) {
             return user == earlier.getOperation() ||
                    user == later.getOperation();
           });
  };
  SmallVector<Value> outputs;
  SmallVector<int64_t> earlierKept;
  for (auto [index, buffer] : llvm::enumerate(earlierOutputs))
    if (!llvm::is_contained(later.getDpsInits(), buffer) &&
        !onlyBetweenThem(buffer)) {
      outputs.push_back(buffer);
      earlierKept.push_back(index);
    }
  llvm::append_range(outputs, later.getDpsInits());
  // The earlier op's outputs keep their identity maps, the later op's
  // theirs (a reduction's accumulators); the loops are the later op's,
  // which may reduce where the earlier op only runs in parallel.
  SmallVector<AffineMap> maps = inputMaps;
  AffineMap identity = AffineMap::getMultiDimIdentityMap(
      earlier.getNumLoops(), earlier.getContext());
  maps.append(earlierKept.size(), identity);
  for (OpOperand &init : later.getDpsInitsMutable())
    maps.push_back(later.getMatchingIndexingMap(&init));

  OpBuilder builder(earlier);
  auto fused = linalg::GenericOp::create(
      builder, earlier.getLoc(), TypeRange(), inputs, outputs, maps,
      later.getIteratorTypesArray());
  Block *body = builder.createBlock(&fused.getRegion());
  for (Value value : llvm::concat<Value>(inputs, outputs))
    body->addArgument(getElementTypeOrSelf(value.getType()), value.getLoc());

  // The earlier body, its block arguments mapped to the new ones.
  IRMapping mapping;
  Block *earlierBody = earlier.getBody();
  unsigned numEarlierInputs = earlier.getNumDpsInputs();
  for (unsigned i = 0; i < numEarlierInputs; ++i)
    mapping.map(earlierBody->getArgument(i), body->getArgument(i));
  unsigned firstOutput = inputs.size();
  for (auto [index, buffer] : llvm::enumerate(earlierOutputs)) {
    Value arg;
    if (auto it = llvm::find(outputs, buffer); it != outputs.end())
      arg = body->getArgument(firstOutput + (it - outputs.begin()));
    mapping.map(earlierBody->getArgument(numEarlierInputs + index), arg);
  }
  builder.setInsertionPointToEnd(body);
  for (Operation &op : earlierBody->without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> earlierYields;
  for (Value yielded : earlierBody->getTerminator()->getOperands())
    earlierYields.push_back(mapping.lookupOrDefault(yielded));

  // The later body: buffers the earlier op wrote are its yielded values.
  IRMapping laterMapping;
  Block *laterBody = later.getBody();
  unsigned nextInput = numEarlierInputs;
  for (OpOperand *input : later.getDpsInputOperands()) {
    Value arg = laterBody->getArgument(input->getOperandNumber());
    if (int64_t index = earlierOutput(input->get()); index >= 0)
      laterMapping.map(arg, earlierYields[index]);
    else
      laterMapping.map(arg, body->getArgument(nextInput++));
  }
  unsigned laterFirstOutput = firstOutput + earlierKept.size();
  for (auto [index, init] : llvm::enumerate(later.getDpsInits())) {
    Value arg = laterBody->getArgument(later.getNumDpsInputs() + index);
    if (int64_t earlierIndex = earlierOutput(init); earlierIndex >= 0)
      laterMapping.map(arg, earlierYields[earlierIndex]);
    else
      laterMapping.map(arg, body->getArgument(laterFirstOutput + index));
  }
  for (Operation &op : laterBody->without_terminator())
    builder.clone(op, laterMapping);
  SmallVector<Value> yields;
  for (int64_t index : earlierKept)
    yields.push_back(earlierYields[index]);
  for (Value yielded : laterBody->getTerminator()->getOperands())
    yields.push_back(laterMapping.lookupOrDefault(yielded));
  linalg::YieldOp::create(builder, later.getLoc(), yields);
  return fused;
}

/// Whether the earlier body's output block arguments that were dropped
/// (the later op writes the buffer again) are unused: their value would
/// be the buffer's old contents, which the merged op no longer reads.
static bool droppedOutputsUnread(linalg::GenericOp earlier,
                                 linalg::GenericOp later) {
  for (OpOperand &init : earlier.getDpsInitsMutable())
    if (llvm::is_contained(later.getDpsInits(), init.get()) &&
        !earlier.getMatchingBlockArgument(&init).use_empty())
      return false;
  return true;
}

/// The zero-cost obstacles to merging the reduction `later` into
/// `earlier`: fills of its accumulators in between (`betweenOps`) that can
/// move above `earlier` instead, because neither `earlier` nor any other op
/// in between touches those buffers.
static SmallVector<Operation *>
findMovableFills(linalg::GenericOp earlier, linalg::GenericOp later,
                 ArrayRef<Operation *> betweenOps) {
  SmallVector<Value> accumulators;
  for (Value init : later.getDpsInits())
    accumulators.push_back(getRootBuffer(init));
  SmallVector<Operation *> fills;
  for (Operation *op : betweenOps) {
    auto fill = dyn_cast<linalg::FillOp>(op);
    if (fill && fill.hasPureBufferSemantics() &&
        llvm::is_contained(accumulators,
                           getRootBuffer(fill.getOutputs().front())))
      fills.push_back(op);
  }
  for (Operation *fill : fills) {
    Value root = getRootBuffer(cast<linalg::FillOp>(fill).getOutputs().front());
    if (usesBuffer(earlier, root))
      return {};
    for (Operation *op : betweenOps)
      if (!llvm::is_contained(fills, op) && usesBuffer(op, root))
        return {};
  }
  return fills;
}

/// The bytes of a local allocation of static shape, or nothing.
static std::optional<int64_t> getLocalBufferBytes(Value root) {
  if (!isLocalAllocation(root))
    return std::nullopt;
  return getStaticBufferBytes(cast<MemRefType>(root.getType()));
}

/// Whether merging `later` into `earlier` would make the step's buffers
/// take more memory: the local buffers `later` writes first (nothing before
/// it accesses them) would become live at `earlier`, and where the two
/// share no buffer (the merge would only save a loop: the weight casts a
/// schedule for memory put next to their users would all move up to the
/// first) or ops in between write memory (the buffers would be live across
/// their work: a loss-scaled step's momentum, computed from a weight
/// gradient long after its copy, would live from that copy on), those
/// bytes outweigh what the merge frees, `earlier`'s buffers only `later`
/// reads. Buffers of at most a page do not count: living longer, they move
/// no peak by more than the loop nest a merge saves is worth (a batch
/// norm's per-channel statistics).
static bool wouldExtendLifetime(linalg::GenericOp earlier,
                                linalg::GenericOp later, bool betweenWrites) {
  constexpr int64_t kPageBytes = 4096;
  int64_t extendedBytes = 0;
  for (Value init : later.getDpsInits()) {
    Value root = getRootBuffer(init);
    std::optional<int64_t> bytes = getLocalBufferBytes(root);
    if (bytes && *bytes > kPageBytes &&
        !findNearestUser(later, root, /*forward=*/false))
      extendedBytes += *bytes;
  }
  if (extendedBytes == 0)
    return false;
  BufferAccess earlierAccess = accessOf(earlier),
               laterAccess = accessOf(later);
  bool shareBuffer = intersects(earlierAccess.reads, laterAccess.reads) ||
                     intersects(earlierAccess.writes, laterAccess.reads);
  if (!shareBuffer)
    return true;
  if (!betweenWrites)
    return false;
  int64_t freedBytes = 0;
  for (Value init : earlier.getDpsInits()) {
    Value root = getRootBuffer(init);
    std::optional<int64_t> bytes = getLocalBufferBytes(root);
    if (bytes && !findNearestUser(earlier, root, /*forward=*/false) &&
        findNearestUser(earlier, root, /*forward=*/true) == later &&
        !findNearestUser(later, root, /*forward=*/true))
      freedBytes += *bytes;
  }
  return extendedBytes > freedBytes;
}

namespace {
/// What the ops between an earlier op and a candidate access, kept as the
/// ops and as the union of their reads and writes: a step has tens of
/// thousands of ops, and every candidate checks against all of them.
struct OpsBetween {
  SmallVector<Operation *> ops;
  SmallVector<const BufferAccess *> accesses;
  DenseSet<Value> reads, writes;

  void push(Operation *op, const BufferAccess &access) {
    ops.push_back(op);
    accesses.push_back(&access);
    reads.insert(access.reads.begin(), access.reads.end());
    writes.insert(access.writes.begin(), access.writes.end());
  }
  /// Whether `later` can move above them all but `skipped`.
  bool commute(const BufferAccess &later, ArrayRef<Operation *> skipped) const {
    if (skipped.empty()) {
      auto hits = [](const DenseSet<Value> &set, ArrayRef<Value> values) {
        return llvm::any_of(values, [&](Value v) { return set.contains(v); });
      };
      return !hits(writes, later.reads) && !hits(writes, later.writes) &&
             !hits(reads, later.writes);
    }
    SmallVector<BufferAccess> obstacles;
    for (auto [op, access] : llvm::zip(ops, accesses))
      if (!llvm::is_contained(skipped, op))
        obstacles.push_back(*access);
    return commutesWith(later, obstacles);
  }
};
} // namespace

int64_t mlir::amp::fuseElementwiseBufferOps(Block &block, bool intoReductions,
                                            bool keepLifetimes) {
  int64_t merged = 0;
  // Each op's accesses, computed once (held by pointer: OpsBetween keeps
  // them across insertions); dropped for ops the merges erase.
  DenseMap<Operation *, std::unique_ptr<BufferAccess>> accesses;
  auto accessOfCached = [&](Operation *op) -> const BufferAccess & {
    std::unique_ptr<BufferAccess> &access = accesses[op];
    if (!access)
      access = std::make_unique<BufferAccess>(accessOf(op));
    return *access;
  };
  for (Operation *op = &block.front(); op; op = op->getNextNode()) {
    auto earlier = dyn_cast<linalg::GenericOp>(op);
    if (!earlier || !isElementwiseOnBuffers(earlier))
      continue;
    SmallVector<int64_t> ranges = earlier.getStaticLoopRanges();
    // What the ops between `earlier` and the candidate access; an op of
    // unknown effects ends the search, as nothing can move above it.
    OpsBetween between;
    for (Operation *next = earlier->getNextNode(); next;) {
      auto later = dyn_cast<linalg::GenericOp>(next);
      if (later && later.getStaticLoopRanges() != ranges)
        later = nullptr;
      // Never into a contraction (it stays a library GEMM), nor into a
      // reduction without parallel loops (its one thread would compute
      // every element).
      bool reduction = later && intoReductions &&
                       later.getNumReductionLoops() > 0 &&
                       later.getNumParallelLoops() > 0 &&
                       !isMultiplyAccumulate(later) &&
                       isLoopNestOnBuffers(later, /*allowReductions=*/true);
      SmallVector<Operation *> fills;
      if (reduction)
        fills = findMovableFills(earlier, later, between.ops);
      bool fusible = later && (reduction || isElementwiseOnBuffers(later)) &&
                     droppedOutputsUnread(earlier, later) &&
                     between.commute(accessOfCached(later), fills) &&
                     !(keepLifetimes &&
                       wouldExtendLifetime(earlier, later,
                                           !between.writes.empty()));
      // Definitions it needs move up only if the merge then succeeds;
      // moving pure ops and unclobbered loads up (or fills of buffers
      // nothing in between touches) is harmless either way.
      FailureOr<linalg::GenericOp> fused = failure();
      SmallVector<Operation *> users(fills);
      users.push_back(later);
      if (fusible && hoistDefinitions(users, earlier)) {
        for (Operation *fill : fills)
          fill->moveBefore(earlier);
        fused = merge(earlier, later);
      }
      if (failed(fused)) {
        const BufferAccess &access = accessOfCached(next);
        if (access.unknown)
          break;
        between.push(next, access);
        next = next->getNextNode();
        continue;
      }
      Operation *after = later->getNextNode();
      SmallVector<Value> buffers(earlier.getDpsInits());
      for (Operation *gone : {earlier.getOperation(), later.getOperation()}) {
        accesses.erase(gone);
        gone->erase();
      }
      for (Value buffer : buffers)
        if (auto alloc = buffer.getDefiningOp<memref::AllocOp>();
            alloc && alloc->use_empty()) {
          accesses.erase(alloc);
          alloc->erase(); // a temporary no longer needed
        }
      earlier = *fused;
      ++merged;
      // A reduction reads its accumulators before the last iteration:
      // nothing later may read them inside its loops.
      if (reduction)
        break;
      next = after;
    }
    op = earlier;
  }
  return merged;
}

namespace {
struct FuseElementwiseBuffersPass
    : public amp::impl::FuseElementwiseBuffersPassBase<
          FuseElementwiseBuffersPass> {
  using Base::Base;
  void runOnOperation() override {
    if (intoReductions) {
      // Reductions as generics, whose loops an elementwise body can join.
      IRRewriter rewriter(&getContext());
      SmallVector<linalg::ReduceOp> reductions;
      getOperation()->walk(
          [&](linalg::ReduceOp op) { reductions.push_back(op); });
      for (linalg::ReduceOp op : reductions) {
        rewriter.setInsertionPoint(op);
        (void)linalg::generalizeNamedOp(rewriter, op);
      }
    }
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      if (!block->empty())
        fuseElementwiseBufferOps(*block, intoReductions, keepLifetimes);
  }
};
} // namespace
