//===- AsyncGPUWork.cpp - GPU work queued without waiting -----------------===//
//
// Upstream's synchronous gpu.launch_func lowers to create a stream, launch,
// synchronize and destroy it: the host waits for every kernel. Here the
// step's GPU work is one chain of asynchronous operations (kernels, frees,
// and calls of functions marked amp.stream_ordered, the cuBLASLt GEMMs),
// and the host waits for it only where it is about to touch memory itself
// and before returning. libamprt_cuda runs every stream on one stream, so
// a chain restarted after a wait stays in program order.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_ASYNCGPUWORKPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// How one host operation relates to the queued GPU work.
enum class HostOpKind {
  Pure,          // no memory effects (or an allocation): runs any time
  StreamOrdered, // enqueued behind the queued work
  Async,         // a gpu op with an async form: joins the chain
  TouchesMemory, // the host reads or writes memory: waits first
};

bool isStreamOrderedCall(Operation *op) {
  auto call = dyn_cast<func::CallOp>(op);
  if (!call)
    return false;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  return callee && callee->hasAttr(AMPDialect::kStreamOrderedAttrName);
}

HostOpKind classify(Operation *op) {
  if (isa<gpu::LaunchFuncOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp>(
          op))
    return HostOpKind::Async;
  // libamprt_cuda's allocator hands out blocks in stream order and
  // queues nothing.
  if (isa<gpu::AllocOp>(op))
    return HostOpKind::Pure;
  if (isStreamOrderedCall(op))
    return HostOpKind::StreamOrdered;
  if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
    return HostOpKind::Pure;
  return HostOpKind::TouchesMemory;
}

/// `op` with an async token result, if it had none (upstream's
/// gpu-async-region does the same): the clone has the same operands,
/// attributes and regions.
Operation *makeAsync(Operation *op, Type tokenType) {
  auto async = cast<gpu::AsyncOpInterface>(op);
  if (async.getAsyncToken())
    return op;
  OpBuilder builder(op);
  OperationState state(op->getLoc(), op->getName());
  state.addOperands(op->getOperands());
  state.addAttributes(op->getAttrs());
  state.addSuccessors(op->getSuccessors());
  for (unsigned i = 0; i < op->getNumRegions(); ++i)
    state.addRegion();
  state.addTypes(tokenType);
  state.addTypes(op->getResultTypes());
  Operation *clone = builder.create(state);
  for (auto [from, to] : llvm::zip(op->getRegions(), clone->getRegions()))
    to.takeBody(from);
  for (auto [from, to] :
       llvm::zip(op->getResults(), clone->getResults().drop_front()))
    from.replaceAllUsesWith(to);
  op->erase();
  return clone;
}

/// Threads one chain of GPU work through `block`; its terminator waits
/// for the chain unless `waitAtEnd` is false.
void chainBlock(Block &block, Type tokenType, bool waitAtEnd) {
  Value token; // the chain's last token; null when nothing is queued
  bool queued = false;
  auto waitBefore = [&](Operation *op) {
    if (!queued)
      return;
    OpBuilder builder(op);
    if (token)
      gpu::WaitOp::create(builder, op->getLoc(), Type(), ValueRange{token});
    else // only stream-ordered calls were queued: wait for the stream
      gpu::WaitOp::create(
          builder, op->getLoc(), Type(),
          ValueRange{gpu::WaitOp::create(builder, op->getLoc(), tokenType,
                                         ValueRange())
                         .getAsyncToken()});
    token = Value();
    queued = false;
  };
  for (Operation &op : llvm::make_early_inc_range(block)) {
    if (op.hasTrait<OpTrait::IsTerminator>()) {
      if (waitAtEnd)
        waitBefore(&op);
      break;
    }
    // A stream made out of nothing (`gpu.wait async` without
    // dependencies) is the chain itself.
    if (auto wait = dyn_cast<gpu::WaitOp>(op);
        wait && wait.getAsyncToken() && wait.getAsyncDependencies().empty()) {
      if (token) {
        wait.getAsyncToken().replaceAllUsesWith(token);
        wait.erase();
      } else {
        token = wait.getAsyncToken();
      }
      continue;
    }
    // A host wait: the chain is waited for there, whatever it names (every
    // token is on the one stream).
    if (auto wait = dyn_cast<gpu::WaitOp>(op); wait && !wait.getAsyncToken()) {
      waitBefore(&op);
      op.erase();
      continue;
    }
    switch (classify(&op)) {
    case HostOpKind::Pure:
      break;
    case HostOpKind::StreamOrdered:
      queued = true;
      break;
    case HostOpKind::Async: {
      auto async = cast<gpu::AsyncOpInterface>(makeAsync(&op, tokenType));
      Operation *asyncOp = async.getOperation();
      if (!token) {
        OpBuilder builder(asyncOp);
        token = gpu::WaitOp::create(builder, asyncOp->getLoc(), tokenType,
                                    ValueRange())
                    .getAsyncToken();
      }
      if (!llvm::is_contained(async.getAsyncDependencies(), token))
        async.addAsyncDependency(token);
      token = async.getAsyncToken();
      queued = true;
      break;
    }
    case HostOpKind::TouchesMemory:
      waitBefore(&op);
      // Nested blocks (a host loop around launches) get their own chain.
      for (Region &region : op.getRegions())
        for (Block &nested : region)
          chainBlock(nested, tokenType, /*waitAtEnd=*/true);
      break;
    }
  }
}

struct AsyncGPUWorkPass
    : public amp::impl::AsyncGPUWorkPassBase<AsyncGPUWorkPass> {
  using Base::Base;
  void runOnOperation() override {
    Type tokenType = gpu::AsyncTokenType::get(&getContext());
    getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        for (Block &block : func.getBody())
          chainBlock(block, tokenType, waitBeforeReturn);
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
  }
};
} // namespace
