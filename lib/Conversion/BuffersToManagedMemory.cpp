//===- BuffersToManagedMemory.cpp - host buffers in CUDA managed memory ---===//
//
// The CUDA path keeps sequential loops (the last stage of whole-tensor
// reductions, the scale update) on the host next to kernels and cuBLASLt
// calls, all on the same buffers: managed memory is reachable from both.
// Copies between whole buffers run on the GPU.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Utils/Copies.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_BUFFERSTOMANAGEDMEMORYPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// A managed buffer of `type` (static sizes unless `dynamicSizes`).
static Value createManaged(OpBuilder &builder, Location loc, MemRefType type,
                           ValueRange dynamicSizes = {},
                           ValueRange symbolOperands = {}) {
  return gpu::AllocOp::create(builder, loc, type, /*asyncToken=*/Type(),
                              /*asyncDependencies=*/ValueRange(), dynamicSizes,
                              symbolOperands,
                              /*hostShared=*/true)
      .getMemref();
}

/// An asynchronous gpu.dealloc of `memref` (the synchronous one has no
/// lowering in MLIR 22), not waited for: libamprt_cuda frees in stream
/// order, behind the work that uses the buffer, and amp-async-gpu-work
/// chains it with the rest of the step's GPU work.
static void createDealloc(OpBuilder &builder, Location loc, Value memref) {
  Type token = gpu::AsyncTokenType::get(builder.getContext());
  Value ready =
      gpu::WaitOp::create(builder, loc, token, ValueRange()).getAsyncToken();
  gpu::DeallocOp::create(builder, loc, token, ValueRange{ready}, memref);
}

/// memref.alloc -> gpu.alloc host_shared, with the same sizes.
static void replaceAlloc(memref::AllocOp alloc) {
  OpBuilder builder(alloc);
  alloc.replaceAllUsesWith(
      createManaged(builder, alloc.getLoc(), alloc.getType(),
                    alloc.getDynamicSizes(), alloc.getSymbolOperands()));
  alloc.erase();
}

static void replaceDealloc(memref::DeallocOp dealloc) {
  OpBuilder builder(dealloc);
  createDealloc(builder, dealloc.getLoc(), dealloc.getMemref());
  dealloc.erase();
}

/// A constant (memref.get_global) lives in the host's read-only data,
/// which kernels cannot read: its users get a managed copy, made at the top
/// of the function and freed before each of its returns.
static void replaceGlobal(memref::GetGlobalOp global) {
  // Taken once per call, at the top: the op has no operands.
  auto func = global->getParentOfType<FunctionOpInterface>();
  Block &entry = func->getRegion(0).front();
  global->moveBefore(&entry, entry.begin());
  OpBuilder builder(global->getContext());
  builder.setInsertionPointAfter(global);
  Location loc = global.getLoc();
  Value managed = createManaged(builder, loc, global.getType());
  global.getResult().replaceAllUsesWith(managed);
  memref::CopyOp::create(builder, loc, global.getResult(), managed);
  for (Region &region : func->getRegions())
    for (Block &block : region)
      if (block.mightHaveTerminator() &&
          block.getTerminator()->hasTrait<OpTrait::ReturnLike>()) {
        builder.setInsertionPoint(block.getTerminator());
        createDealloc(builder, loc, managed);
      }
}

/// A copy between two whole buffers runs on the GPU (cuMemcpyAsync): the
/// host neither reads nor writes them. Other layouts stay host copies.
static void replaceCopy(memref::CopyOp copy) {
  if (!isWholeBufferCopy(copy))
    return;
  OpBuilder builder(copy);
  gpu::MemcpyOp::create(builder, copy.getLoc(), /*asyncToken=*/Type(),
                        /*asyncDependencies=*/ValueRange(), copy.getTarget(),
                        copy.getSource());
  copy.erase();
}

namespace {
struct BuffersToManagedMemoryPass
    : public amp::impl::BuffersToManagedMemoryPassBase<
          BuffersToManagedMemoryPass> {
  void runOnOperation() override {
    SmallVector<memref::AllocOp> allocs;
    SmallVector<memref::DeallocOp> deallocs;
    SmallVector<memref::GetGlobalOp> globals;
    bool failed = false;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) -> WalkResult {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip(); // device code keeps its own memory
      if (auto alloc = dyn_cast<memref::AllocOp>(op))
        allocs.push_back(alloc);
      else if (auto dealloc = dyn_cast<memref::DeallocOp>(op))
        deallocs.push_back(dealloc);
      else if (auto global = dyn_cast<memref::GetGlobalOp>(op))
        globals.push_back(global);
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
    for (memref::GetGlobalOp global : globals)
      replaceGlobal(global);
    SmallVector<memref::CopyOp> copies;
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto copy = dyn_cast<memref::CopyOp>(op))
        copies.push_back(copy);
      return WalkResult::advance();
    });
    for (memref::CopyOp copy : copies)
      replaceCopy(copy);
  }
};
} // namespace
