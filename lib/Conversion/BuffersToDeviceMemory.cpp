//===- BuffersToDeviceMemory.cpp - host buffers in GPU device memory ------===//
//
// On the CUDA path every loop nest runs as a kernel and every contraction
// on cuBLASLt, so the host code of a step only queues work: its buffers
// live in device memory (cuMemAlloc), which the host cannot read. Managed
// memory would migrate pages behind the step's back, and asking for more
// of it than the GPU has free can hang the GPU. Copies between whole
// buffers run on the GPU; a host access that is left is an error here
// rather than a fault at run time.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Utils/Copies.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_BUFFERSTODEVICEMEMORYPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// A stream of its own for one asynchronous op (`gpu.wait async`);
/// amp-async-gpu-work joins it to the step's chain.
static Value createStream(OpBuilder &builder, Location loc) {
  Type token = gpu::AsyncTokenType::get(builder.getContext());
  return gpu::WaitOp::create(builder, loc, token, ValueRange())
      .getAsyncToken();
}

/// A device buffer of `type` (static sizes unless `dynamicSizes`). Device
/// (not host-shared) allocations lower only in their asynchronous form;
/// libamprt_cuda hands blocks out in stream order.
static Value createDeviceBuffer(OpBuilder &builder, Location loc,
                                MemRefType type, ValueRange dynamicSizes = {},
                                ValueRange symbolOperands = {}) {
  Type token = gpu::AsyncTokenType::get(builder.getContext());
  return gpu::AllocOp::create(builder, loc, type, token,
                              ValueRange{createStream(builder, loc)},
                              dynamicSizes, symbolOperands,
                              /*hostShared=*/false)
      .getMemref();
}

/// An asynchronous gpu.dealloc of `memref` (the synchronous one has no
/// lowering in MLIR 22), not waited for: libamprt_cuda frees in stream
/// order, behind the work that uses the buffer, and amp-async-gpu-work
/// chains it with the rest of the step's GPU work.
static void createDealloc(OpBuilder &builder, Location loc, Value memref) {
  Type token = gpu::AsyncTokenType::get(builder.getContext());
  gpu::DeallocOp::create(builder, loc, token,
                         ValueRange{createStream(builder, loc)}, memref);
}

/// memref.alloc -> gpu.alloc async, with the same sizes.
static void replaceAlloc(memref::AllocOp alloc) {
  OpBuilder builder(alloc);
  alloc.replaceAllUsesWith(
      createDeviceBuffer(builder, alloc.getLoc(), alloc.getType(),
                         alloc.getDynamicSizes(), alloc.getSymbolOperands()));
  alloc.erase();
}

static void replaceDealloc(memref::DeallocOp dealloc) {
  OpBuilder builder(dealloc);
  createDealloc(builder, dealloc.getLoc(), dealloc.getMemref());
  dealloc.erase();
}

/// A constant (memref.get_global) lives in the host's read-only data,
/// which kernels cannot read: its users get a device copy, made at the top
/// of the function and freed before each of its returns.
static void replaceGlobal(memref::GetGlobalOp global) {
  // Taken once per call, at the top: the op has no operands.
  auto func = global->getParentOfType<FunctionOpInterface>();
  Block &entry = func->getRegion(0).front();
  global->moveBefore(&entry, entry.begin());
  OpBuilder builder(global->getContext());
  builder.setInsertionPointAfter(global);
  Location loc = global.getLoc();
  Value device = createDeviceBuffer(builder, loc, global.getType());
  global.getResult().replaceAllUsesWith(device);
  memref::CopyOp::create(builder, loc, global.getResult(), device);
  for (Region &region : func->getRegions())
    for (Block &block : region)
      if (block.mightHaveTerminator() &&
          block.getTerminator()->hasTrait<OpTrait::ReturnLike>()) {
        builder.setInsertionPoint(block.getTerminator());
        createDealloc(builder, loc, device);
      }
}

/// Whether `global` is only copied whole into buffers (as
/// amp-plan-step-memory does into the workspace): those copies read the
/// host's constant directly.
static bool onlyCopiedFrom(memref::GetGlobalOp global) {
  return llvm::all_of(global->getUses(), [](OpOperand &use) {
    auto copy = dyn_cast<memref::CopyOp>(use.getOwner());
    return copy && use.get() == copy.getSource() && isWholeBufferCopy(copy);
  });
}

/// A copy between two whole buffers runs on the GPU (cuMemcpyAsync).
static void replaceCopy(memref::CopyOp copy) {
  if (!isWholeBufferCopy(copy))
    return;
  OpBuilder builder(copy);
  gpu::MemcpyOp::create(builder, copy.getLoc(), /*asyncToken=*/Type(),
                        /*asyncDependencies=*/ValueRange(), copy.getTarget(),
                        copy.getSource());
  copy.erase();
}

/// Whether host op `op` reads or writes a buffer's elements itself (GPU
/// ops and calls, which the runtime queues on the GPU, do not).
static bool readsOrWritesBuffer(Operation *op) {
  if (isa<gpu::GPUDialect>(op->getDialect()))
    return false;
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  if (!effects)
    return false;
  SmallVector<MemoryEffects::EffectInstance> instances;
  effects.getEffects(instances);
  return llvm::any_of(instances, [](const MemoryEffects::EffectInstance &e) {
    return isa<MemoryEffects::Read, MemoryEffects::Write>(e.getEffect()) &&
           e.getValue() && isa<BaseMemRefType>(e.getValue().getType());
  });
}

namespace {
struct BuffersToDeviceMemoryPass
    : public amp::impl::BuffersToDeviceMemoryPassBase<
          BuffersToDeviceMemoryPass> {
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
      else if (auto global = dyn_cast<memref::GetGlobalOp>(op);
               global && !onlyCopiedFrom(global))
        globals.push_back(global);
      else if (isa<memref::AllocaOp>(op)) {
        op->emitError("amp-buffers-to-device-memory: a host stack buffer "
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
    // Anything still touching a buffer on the host would fault on a GPU.
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (readsOrWritesBuffer(op)) {
        op->emitError("amp-buffers-to-device-memory: the host would read or "
                      "write a GPU buffer here; on the CUDA path every "
                      "access to a buffer runs in a kernel");
        failed = true;
      }
      return WalkResult::advance();
    });
    if (failed)
      signalPassFailure();
  }
};
} // namespace
