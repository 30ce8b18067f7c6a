//===- ParallelChunksToRuntime.cpp - chunk calls on libamprt's threads ----===//
//
// After convert-func-to-llvm every argument of an amp.parallel_chunk
// function is a scalar (memref descriptors are expanded), so a call's
// arguments fit one stack struct that a trampoline with the runtime's
// signature unpacks on each thread.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::amp {
#define GEN_PASS_DEF_PARALLELCHUNKSTORUNTIMEPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// libamprt's entry point (runtime/include/amprt.h):
///   void amprt_parallel_for(void (*body)(void *, int64_t, int64_t),
///                           void *context, int64_t count);
static constexpr llvm::StringLiteral kParallelFor = "amprt_parallel_for";

static LLVM::LLVMFuncOp declareParallelFor(ModuleOp module,
                                           SymbolTable &symbols) {
  if (auto existing = symbols.lookup<LLVM::LLVMFuncOp>(kParallelFor))
    return existing;
  MLIRContext *context = module.getContext();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto type = LLVM::LLVMFunctionType::get(
      LLVM::LLVMVoidType::get(context),
      {ptr, ptr, IntegerType::get(context, 64)});
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto parallelFor =
      LLVM::LLVMFuncOp::create(builder, module.getLoc(), kParallelFor, type);
  symbols.insert(parallelFor);
  return parallelFor;
}

/// `chunk`'s trampoline: (context, begin, end) -> chunk(begin, end, fields
/// of *context...).
static LLVM::LLVMFuncOp createTask(LLVM::LLVMFuncOp chunk,
                                   LLVM::LLVMStructType fields,
                                   SymbolTable &symbols) {
  MLIRContext *context = chunk.getContext();
  Location loc = chunk.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(context);
  auto i64 = IntegerType::get(context, 64);
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(context),
                                          {ptr, i64, i64});
  OpBuilder builder(context);
  builder.setInsertionPointAfter(chunk);
  auto task = LLVM::LLVMFuncOp::create(
      builder, loc, (chunk.getName() + "_task").str(), type,
      LLVM::Linkage::Internal);
  symbols.insert(task);
  Block *entry = task.addEntryBlock(builder);
  builder.setInsertionPointToStart(entry);
  SmallVector<Value> operands = {entry->getArgument(1), entry->getArgument(2)};
  for (auto [i, field] : llvm::enumerate(fields.getBody())) {
    Value address = LLVM::GEPOp::create(
        builder, loc, ptr, fields, entry->getArgument(0),
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    operands.push_back(LLVM::LoadOp::create(builder, loc, field, address));
  }
  LLVM::CallOp::create(builder, loc, chunk, operands);
  LLVM::ReturnOp::create(builder, loc, ValueRange());
  return task;
}

/// Replaces `call` (of a chunk function, begin 0) by amprt_parallel_for.
static void dispatch(LLVM::CallOp call, LLVM::LLVMFuncOp task,
                     LLVM::LLVMStructType fields, LLVM::LLVMFuncOp parallelFor) {
  Location loc = call.getLoc();
  auto ptr = LLVM::LLVMPointerType::get(call.getContext());
  // The struct lives in the caller's frame: allocated once at its entry.
  auto caller = call->getParentOfType<LLVM::LLVMFuncOp>();
  OpBuilder builder = OpBuilder::atBlockBegin(&caller.getBody().front());
  Value one = LLVM::ConstantOp::create(builder, loc, builder.getI64Type(),
                                       builder.getI64IntegerAttr(1));
  Value storage = LLVM::AllocaOp::create(builder, loc, ptr, fields, one);

  builder.setInsertionPoint(call);
  for (auto [i, value] : llvm::enumerate(call.getArgOperands().drop_front(2))) {
    Value address = LLVM::GEPOp::create(
        builder, loc, ptr, fields, storage,
        ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i)});
    LLVM::StoreOp::create(builder, loc, value, address);
  }
  Value body = LLVM::AddressOfOp::create(builder, loc, task);
  LLVM::CallOp::create(builder, loc, parallelFor,
                       ValueRange{body, storage, call.getArgOperands()[1]});
  call.erase();
}

namespace {
struct ParallelChunksToRuntimePass
    : public amp::impl::ParallelChunksToRuntimePassBase<
          ParallelChunksToRuntimePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<LLVM::LLVMFuncOp> chunks;
    for (auto function : module.getOps<LLVM::LLVMFuncOp>())
      if (function->hasAttr(AMPDialect::kParallelChunkAttrName))
        chunks.push_back(function);
    // The calls of each chunk whose range starts at 0 (any other stays
    // sequential), found in one walk: a step has thousands of chunks.
    llvm::StringMap<SmallVector<LLVM::CallOp>> callsOf;
    module.walk([&](LLVM::CallOp call) {
      std::optional<StringRef> callee = call.getCallee();
      if (callee && !call.getArgOperands().empty() &&
          matchPattern(call.getArgOperands()[0], m_Zero()))
        callsOf[*callee].push_back(call);
    });
    for (LLVM::LLVMFuncOp chunk : chunks) {
      chunk->removeAttr(AMPDialect::kParallelChunkAttrName);
      ArrayRef<Type> params = chunk.getFunctionType().getParams();
      auto i64 = IntegerType::get(&getContext(), 64);
      if (params.size() < 2 || params[0] != i64 || params[1] != i64) {
        chunk.emitError() << "'" << AMPDialect::kParallelChunkAttrName
                          << "' function must take (i64 begin, i64 end) first";
        return signalPassFailure();
      }
      SmallVector<LLVM::CallOp> calls = callsOf.lookup(chunk.getName());
      if (calls.empty())
        continue;
      auto fields = LLVM::LLVMStructType::getLiteral(&getContext(),
                                                     params.drop_front(2));
      LLVM::LLVMFuncOp task = createTask(chunk, fields, symbols);
      LLVM::LLVMFuncOp parallelFor = declareParallelFor(module, symbols);
      for (LLVM::CallOp call : calls)
        dispatch(call, task, fields, parallelFor);
    }
  }
};
} // namespace
