//===- ContractionsToRuntimeCalls.cpp - buffer matmuls to libamprt GEMM ---===//
//
// docs/toolchain.md: named ops with library_call are ignored and a generic with
// one callee breaks on the second shape; what works is a pass after
// bufferization that casts the operands to fully dynamic strided memrefs and
// calls one C-interface function per (input type, batched).
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CONTRACTIONSTORUNTIMECALLSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `type` as a fully dynamic strided memref of the same rank.
static MemRefType dynamicStrided(MemRefType type) {
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(rank, ShapedType::kDynamic);
  SmallVector<int64_t> strides(rank, ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(type.getContext(), ShapedType::kDynamic, strides);
  return MemRefType::get(shape, type.getElementType(), layout);
}

/// A GEMM of runtime/include/amprt_gemm.def.
struct RuntimeGemm {
  StringLiteral name;
  StringLiteral inputType;
  int64_t rank;
};

static constexpr RuntimeGemm kRuntimeGemms[] = {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK) {#NAME, #INPUT_TYPE, RANK},
#include "amprt_gemm.def"
};

/// The runtime's GEMM for inputs of `inputType` at `rank`, if it has one.
static const RuntimeGemm *lookupRuntimeGemm(Type inputType, int64_t rank) {
  std::string typeName;
  llvm::raw_string_ostream(typeName) << inputType;
  for (const RuntimeGemm &gemm : kRuntimeGemms)
    if (gemm.inputType == typeName && gemm.rank == rank)
      return &gemm;
  return nullptr;
}

static StringRef getSymbolPrefix(GemmRuntime runtime) {
  return runtime == GemmRuntime::CUDA ? "amp_rt_cuda_" : "amp_rt_";
}

/// Replaces `op` by a runtime call when its types and maps are the plain
/// ones; returns failure (and leaves it) otherwise.
static LogicalResult convert(linalg::LinalgOp op, bool batched,
                             GemmRuntime runtime, ModuleOp module) {
  if (!op.hasPureBufferSemantics())
    return failure();
  SmallVector<AffineMap> defaults =
      batched ? linalg::BatchMatmulOp::getDefaultIndexingMaps(op.getContext())
              : linalg::MatmulOp::getDefaultIndexingMaps(op.getContext());
  if (op.getIndexingMapsArray() != defaults)
    return failure();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value out = op.getDpsInitOperand(0)->get();
  auto lhsType = cast<MemRefType>(lhs.getType());
  auto rhsType = cast<MemRefType>(rhs.getType());
  auto outType = cast<MemRefType>(out.getType());
  const RuntimeGemm *gemm =
      lookupRuntimeGemm(lhsType.getElementType(), lhsType.getRank());
  if (!gemm || rhsType.getElementType() != lhsType.getElementType() ||
      !outType.getElementType().isF32())
    return failure();

  std::string name = (getSymbolPrefix(runtime) + gemm->name).str();
  SmallVector<Type> argTypes = {dynamicStrided(lhsType),
                                dynamicStrided(rhsType),
                                dynamicStrided(outType)};
  OpBuilder builder(module.getContext());
  auto callee = module.lookupSymbol<func::FuncOp>(name);
  if (!callee) {
    builder.setInsertionPointToStart(module.getBody());
    callee =
        func::FuncOp::create(builder, module.getLoc(), name,
                             builder.getFunctionType(argTypes, TypeRange{}));
    callee.setPrivate();
    callee->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                    builder.getUnitAttr());
  }
  builder.setInsertionPoint(op);
  SmallVector<Value> values = {lhs, rhs, out}, operands;
  for (auto [value, type] : llvm::zip(values, argTypes))
    operands.push_back(
        memref::CastOp::create(builder, op.getLoc(), type, value));
  func::CallOp::create(builder, op.getLoc(), callee, operands);
  op->erase();
  return success();
}

namespace {
struct ContractionsToRuntimeCallsPass
    : public amp::impl::ContractionsToRuntimeCallsPassBase<
          ContractionsToRuntimeCallsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<std::pair<linalg::LinalgOp, bool>> contractions;
    module.walk([&](Operation *op) {
      if (auto matmul = dyn_cast<linalg::MatmulOp>(op))
        contractions.emplace_back(cast<linalg::LinalgOp>(op), false);
      else if (isa<linalg::BatchMatmulOp>(op))
        contractions.emplace_back(cast<linalg::LinalgOp>(op), true);
    });
    for (auto [op, batched] : contractions)
      (void)convert(op, batched, runtime, module);
  }
};
} // namespace
