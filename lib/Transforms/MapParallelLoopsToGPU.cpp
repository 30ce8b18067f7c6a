//===- MapParallelLoopsToGPU.cpp - tile and map parallel loops for CUDA ---===//
//
// scf-parallel-loop-tiling + gpu-map-parallel-loops apply one list of tile
// sizes to every loop and map dimension i to processor i: threads then run
// along the second dimension (uncoalesced for rank >= 3, one thread per
// block for rank 1, mostly idle on short rows). Here every nest is first
// collapsed into one row-major dimension and then split into blocks of
// 256 threads: consecutive threads take consecutive elements at any rank
// and shape, and only the last block has idle threads.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/PatternMatch.h"

#include <numeric>

namespace mlir::amp {
#define GEN_PASS_DEF_MAPPARALLELLOOPSTOGPUPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static constexpr int64_t kThreads = 256, kWarp = 32;

/// The static trip count of dimension `dim`, if its bounds and step are
/// constants.
static std::optional<int64_t> tripCount(scf::ParallelOp op, unsigned dim) {
  std::optional<int64_t> lower = getConstantIntValue(op.getLowerBound()[dim]);
  std::optional<int64_t> upper = getConstantIntValue(op.getUpperBound()[dim]);
  std::optional<int64_t> step = getConstantIntValue(op.getStep()[dim]);
  if (!lower || !upper || !step || *step <= 0)
    return std::nullopt;
  return (*upper - *lower + *step - 1) / *step;
}

static LogicalResult setMapping(scf::ParallelOp op,
                                ArrayRef<gpu::Processor> processors) {
  MLIRContext *context = op.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, context);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (gpu::Processor processor : processors)
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(context, processor,
                                                           identity, identity));
  return gpu::setMappingAttr(op, mapping);
}

static LogicalResult mapOutermost(scf::ParallelOp op) {
  unsigned rank = op.getNumLoops();
  // The static number of iterations, before collapsing turns the bounds
  // into arithmetic.
  std::optional<int64_t> extent = 1;
  for (unsigned d = 0; d < rank; ++d) {
    std::optional<int64_t> count = tripCount(op, d);
    extent = count && extent ? std::optional<int64_t>(*extent * *count)
                             : std::nullopt;
  }
  if (rank > 1) {
    // One linear dimension, row-major: consecutive threads take
    // consecutive elements of the innermost dimension.
    IRRewriter rewriter(op.getContext());
    rewriter.setInsertionPoint(op);
    Operation *after = op->getNextNode();
    std::vector<unsigned> all(rank);
    std::iota(all.begin(), all.end(), 0);
    collapseParallelLoops(rewriter, op, {all});
    op = cast<scf::ParallelOp>(after->getPrevNode());
  }
  int64_t tile = extent
                     ? std::min(kThreads, (*extent + kWarp - 1) / kWarp * kWarp)
                     : kThreads;
  auto [outer, inner] =
      scf::tileParallelLoop(op, {tile}, /*noMinMaxBounds=*/true);
  if (failed(setMapping(outer, {gpu::Processor::BlockX})) ||
      failed(setMapping(inner, {gpu::Processor::ThreadX})))
    return failure();
  // Anything parallel inside one thread's work runs in order.
  WalkResult nested = inner.getBody()->walk([](scf::ParallelOp loop) {
    SmallVector<gpu::Processor> sequential(loop.getNumLoops(),
                                           gpu::Processor::Sequential);
    return failed(setMapping(loop, sequential)) ? WalkResult::interrupt()
                                                : WalkResult::advance();
  });
  return failure(nested.wasInterrupted());
}

namespace {
struct MapParallelLoopsToGPUPass
    : public amp::impl::MapParallelLoopsToGPUPassBase<
          MapParallelLoopsToGPUPass> {
  void runOnOperation() override {
    SmallVector<scf::ParallelOp> outermost;
    getOperation().walk<WalkOrder::PreOrder>(
        [&](scf::ParallelOp op) -> WalkResult {
          if (op.getNumLoops() > 0)
            outermost.push_back(op);
          return WalkResult::skip(); // nested loops are handled with it
        });
    for (scf::ParallelOp op : outermost)
      if (failed(mapOutermost(op)))
        return signalPassFailure();
  }
};
} // namespace
