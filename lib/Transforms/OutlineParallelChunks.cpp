//===- OutlineParallelChunks.cpp - parallel nests as chunk functions ------===//
//
// The library contractions of a CPU step use every core; its elementwise
// and reduction loops ran on one. A large top-level scf.parallel becomes a
// function over a chunk [begin, end) of its first dimension, called for the
// whole range; amp-parallel-chunks-to-runtime hands that call to libamprt's
// threads.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Transforms/Passes.h"
#include "amp/Utils/LoopOutlining.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::amp {
#define GEN_PASS_DEF_OUTLINEPARALLELCHUNKSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// The static trip count of one loop dimension, if its bounds are constant.
static std::optional<uint64_t> tripCount(Value lower, Value upper, Value step) {
  std::optional<int64_t> lb = getConstantIntValue(lower);
  std::optional<int64_t> ub = getConstantIntValue(upper);
  std::optional<int64_t> st = getConstantIntValue(step);
  if (!lb || !ub || !st || *st <= 0)
    return std::nullopt;
  return *ub <= *lb ? 0 : static_cast<uint64_t>(llvm::divideCeil(*ub - *lb, *st));
}

static uint64_t iterationsIn(Region &region);

/// Innermost iterations of `loop` (a dimension of unknown trip count counts
/// once: steps have static shapes, so that only underestimates).
static uint64_t loopIterations(Operation *loop) {
  uint64_t trips = 1;
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    trips = tripCount(forOp.getLowerBound(), forOp.getUpperBound(),
                      forOp.getStep())
                .value_or(1);
  } else {
    auto parallel = cast<scf::ParallelOp>(loop);
    for (auto [lb, ub, step] :
         llvm::zip(parallel.getLowerBound(), parallel.getUpperBound(),
                   parallel.getStep()))
      trips = llvm::SaturatingMultiply(trips,
                                       tripCount(lb, ub, step).value_or(1));
  }
  uint64_t inner = 0;
  for (Region &region : loop->getRegions())
    inner = llvm::SaturatingAdd(inner, iterationsIn(region));
  return llvm::SaturatingMultiply(trips, std::max<uint64_t>(inner, 1));
}

static uint64_t iterationsIn(Region &region) {
  uint64_t total = 0;
  for (Block &block : region)
    for (Operation &op : block) {
      if (isa<scf::ForOp, scf::ParallelOp>(op)) {
        total = llvm::SaturatingAdd(total, loopIterations(&op));
        continue;
      }
      for (Region &nested : op.getRegions())
        total = llvm::SaturatingAdd(total, iterationsIn(nested));
    }
  return total;
}

/// Outlines `loop` as `name(begin, end, captured...)` running iterations
/// [begin, end) of its first dimension, called for [0, trips).
static void outlineChunks(scf::ParallelOp loop, uint64_t trips, StringRef name,
                          SymbolTable &symbols) {
  Location loc = loop.getLoc();
  func::CallOp call = outlineLoopNest(loop, name, symbols);
  auto function = symbols.lookup<func::FuncOp>(name);
  OpBuilder builder(function.getContext());
  Type index = builder.getIndexType();
  (void)function.insertArgument(0, index, {}, loc);
  (void)function.insertArgument(1, index, {}, loc);
  function->setAttr(AMPDialect::kParallelChunkAttrName, builder.getUnitAttr());

  // In the function: the first dimension runs lb + begin * step up to
  // min(lb + end * step, ub).
  auto chunk = *function.getBody().getOps<scf::ParallelOp>().begin();
  builder.setInsertionPoint(chunk);
  Value begin = function.getArgument(0), end = function.getArgument(1);
  Value lower = chunk.getLowerBound()[0], upper = chunk.getUpperBound()[0];
  Value step = chunk.getStep()[0];
  Value first = arith::AddIOp::create(
      builder, loc, lower, arith::MulIOp::create(builder, loc, begin, step));
  Value last = arith::MinSIOp::create(
      builder, loc, upper,
      arith::AddIOp::create(builder, loc, lower,
                            arith::MulIOp::create(builder, loc, end, step)));
  unsigned dims = chunk.getNumLoops();
  chunk->setOperand(0, first);
  chunk->setOperand(dims, last);

  // At the call site: the whole range.
  builder.setInsertionPoint(call);
  SmallVector<Value> operands = {
      arith::ConstantIndexOp::create(builder, loc, 0),
      arith::ConstantIndexOp::create(builder, loc,
                                     static_cast<int64_t>(trips))};
  llvm::append_range(operands, call.getOperands());
  func::CallOp::create(builder, loc, function, operands);
  call.erase();
}

namespace {
struct OutlineParallelChunksPass
    : public amp::impl::OutlineParallelChunksPassBase<
          OutlineParallelChunksPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      SmallVector<std::pair<scf::ParallelOp, uint64_t>> nests;
      for (Block &block : function.getBody())
        for (auto loop : block.getOps<scf::ParallelOp>()) {
          if (loop.getNumResults() != 0)
            continue;
          std::optional<uint64_t> trips =
              tripCount(loop.getLowerBound()[0], loop.getUpperBound()[0],
                        loop.getStep()[0]);
          if (!trips || *trips < 2 ||
              loopIterations(loop) < static_cast<uint64_t>(minWork))
            continue;
          nests.push_back({loop, *trips});
        }
      for (auto [index, nest] : llvm::enumerate(nests))
        outlineChunks(
            nest.first, nest.second,
            (function.getName() + "_parallel" + Twine(index)).str(), symbols);
    }
  }
};
} // namespace
