//===- BuffersToManagedMemory.cpp - host buffers in CUDA managed memory ---===//
//
// The CUDA path keeps sequential loops (whole-tensor reductions, the scale
// update) on the host next to kernels and cuBLASLt calls, all on the same
// buffers: managed memory is reachable from both, and every launch in the
// lowered host code is synchronous, so no copies are needed.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp {
#define GEN_PASS_DEF_BUFFERSTOMANAGEDMEMORYPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// memref.alloc -> gpu.alloc host_shared, with the same sizes.
static void replaceAlloc(memref::AllocOp alloc) {
  OpBuilder builder(alloc);
  auto shared = gpu::AllocOp::create(
      builder, alloc.getLoc(), alloc.getType(), /*asyncToken=*/Type(),
      /*asyncDependencies=*/ValueRange(), alloc.getDynamicSizes(),
      alloc.getSymbolOperands(), /*hostShared=*/true);
  alloc.replaceAllUsesWith(shared.getMemref());
  alloc.erase();
}

/// memref.dealloc -> a gpu.dealloc on its own stream, waited on at once
/// (the synchronous gpu.dealloc has no lowering in MLIR 22).
static void replaceDealloc(memref::DeallocOp dealloc) {
  OpBuilder builder(dealloc);
  Location loc = dealloc.getLoc();
  Type token = gpu::AsyncTokenType::get(builder.getContext());
  Value ready =
      gpu::WaitOp::create(builder, loc, token, ValueRange()).getAsyncToken();
  Value freed = gpu::DeallocOp::create(builder, loc, token, ValueRange{ready},
                                       dealloc.getMemref())
                    .getAsyncToken();
  gpu::WaitOp::create(builder, loc, Type(), ValueRange{freed});
  dealloc.erase();
}

namespace {
struct BuffersToManagedMemoryPass
    : public amp::impl::BuffersToManagedMemoryPassBase<
          BuffersToManagedMemoryPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    bool failed = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code keeps its own memory
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
      else if (isa<memref::AllocaOp>(op)) {
        op->emitError("amp-buffers-to-managed-memory: a host stack buffer "
                      "(memref.alloca) cannot be reached from CUDA kernels");
        failed = true;
      }
      return WalkResult::advance();
    });
    if (failed)
      return signalPassFailure();
    for (memref::AllocOp alloc : allocs)
      replaceAlloc(alloc);
    for (memref::DeallocOp dealloc : deallocs)
      replaceDealloc(dealloc);
  }
};
} // namespace
