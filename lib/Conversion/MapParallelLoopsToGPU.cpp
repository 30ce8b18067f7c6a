//===- MapParallelLoopsToGPU.cpp - tile and map parallel loops for CUDA ---===//
//
// scf-parallel-loop-tiling + gpu-map-parallel-loops apply one list of tile
// sizes to every loop and map dimension i to processor i: threads then run
// along the second dimension (uncoalesced for rank >= 3, one thread per
// block for rank 1). Here the contiguous last dimension is the one tiled
// and given to thread_x, whatever the rank.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"

namespace mlir::amp {
#define GEN_PASS_DEF_MAPPARALLELLOOPSTOGPUPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

static constexpr int64_t kThreads = 128, kWarp = 32, kMaxGridYZ = 65535;

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
  unsigned last = rank - 1;
  std::optional<int64_t> extent = tripCount(op, last);
  int64_t tile = extent
                     ? std::min(kThreads, (*extent + kWarp - 1) / kWarp * kWarp)
                     : kThreads;
  SmallVector<int64_t> tiles(rank, 1);
  tiles[last] = tile;
  // Outer dims' block counts are their extents (tile 1), the last one's
  // its number of tiles.
  SmallVector<std::optional<int64_t>> blocks;
  for (unsigned d = 0; d < rank; ++d)
    blocks.push_back(tripCount(op, d));
  if (blocks[last])
    blocks[last] = (*blocks[last] + tile - 1) / tile;

  auto [outer, inner] =
      scf::tileParallelLoop(op, tiles, /*noMinMaxBounds=*/true);

  SmallVector<gpu::Processor> outerMap(rank, gpu::Processor::Sequential);
  outerMap[last] = gpu::Processor::BlockX;
  gpu::Processor next[] = {gpu::Processor::BlockY, gpu::Processor::BlockZ};
  unsigned used = 0;
  for (int d = static_cast<int>(last) - 1; d >= 0 && used < 2; --d)
    if (blocks[d] && *blocks[d] <= kMaxGridYZ)
      outerMap[d] = next[used++];
  SmallVector<gpu::Processor> innerMap(rank, gpu::Processor::Sequential);
  innerMap[last] = gpu::Processor::ThreadX;
  if (failed(setMapping(outer, outerMap)) ||
      failed(setMapping(inner, innerMap)))
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
