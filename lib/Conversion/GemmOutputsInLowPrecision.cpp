//===- GemmOutputsInLowPrecision.cpp - GEMMs that round their own output --===//
//
// A painted graph often casts a matmul's f32 result straight to f16/bf16
// (the next op runs in low precision). After the GEMMs became runtime
// calls, that is a GEMM writing an f32 buffer and a loop nest (a kernel on
// the GPU) reading it back to round it. The runtime's `_to_` GEMMs round
// the f32 sum themselves, once, to nearest even: the same bits, without
// the f32 buffer, its traffic and the launch.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Utils/Buffers.h"
#include "amp/Utils/FloatCasts.h"
#include "amp/Utils/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_GEMMOUTPUTSINLOWPRECISIONPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// A GEMM call whose f32 output only a truncation reads.
struct TruncatedGemm {
  func::CallOp call;
  StringRef prefix;                // the runtime's symbol prefix
  const RuntimeGemm *lowPrecision; // the `_to_` GEMM to call instead
  Value staticOut;       // C as a static view of `buffer`, before the call's
                         // cast to a fully dynamic one
  Value buffer;          // the f32 allocation
  linalg::GenericOp cast;
};
} // namespace

/// The runtime GEMM `call` calls and the prefix of its symbol, if any.
static const RuntimeGemm *getCalledGemm(func::CallOp call, StringRef &prefix) {
  StringRef callee = call.getCallee();
  // The longer prefix first: "amp_rt_cuda_" starts with "amp_rt_".
  for (GemmRuntime runtime : {GemmRuntime::CUDA, GemmRuntime::CPU}) {
    StringRef candidate = getRuntimeGemmPrefix(runtime);
    if (!callee.starts_with(candidate))
      continue;
    prefix = candidate;
    return lookupRuntimeGemm(callee.drop_front(candidate.size()));
  }
  return nullptr;
}

/// The static view of C that the call's C operand was made from: the
/// source of a `memref.cast`, or of the `extract_strided_metadata` whose
/// base a `memref.reinterpret_cast` reinterprets.
static Value getStaticOut(Value operand) {
  if (auto cast = operand.getDefiningOp<memref::CastOp>())
    return cast.getSource();
  if (auto reinterpret = operand.getDefiningOp<memref::ReinterpretCastOp>())
    if (auto metadata = reinterpret.getSource()
                            .getDefiningOp<memref::ExtractStridedMetadataOp>())
      return metadata.getSource();
  return Value();
}

static bool isDenseStatic(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity();
}

/// Whether `generic` only truncates to `type`, elementwise, rounding to
/// nearest even.
static bool isPlainTruncation(linalg::GenericOp generic, Type type) {
  auto trunc =
      dyn_cast_or_null<arith::TruncFOp>(getElementwiseFloatCast(generic));
  return trunc && trunc.getType() == type && !trunc.getRoundingmodeAttr();
}

/// The truncation that is the only reader of `buffer` besides `call`, if
/// there is exactly one such op.
static linalg::GenericOp findOnlyOtherReader(func::FuncOp func, Value buffer,
                                             func::CallOp call) {
  linalg::GenericOp reader;
  bool other = false;
  func.walk([&](Operation *op) {
    // A generic's body reads its operands through block arguments.
    if (op == func || op == call || isa<linalg::GenericOp>(op->getParentOp()) ||
        !usesBuffer(op, buffer))
      return;
    // Views of the buffer touch no memory.
    if (isMemoryEffectFree(op) && op->getNumRegions() == 0)
      return;
    auto generic = dyn_cast<linalg::GenericOp>(op);
    if (reader || !generic)
      other = true;
    else
      reader = generic;
  });
  return other ? linalg::GenericOp() : reader;
}

/// The call as a GEMM that rounds its own output, when it matches.
static std::optional<TruncatedGemm> matchTruncatedGemm(func::CallOp call) {
  TruncatedGemm match;
  match.call = call;
  const RuntimeGemm *gemm = getCalledGemm(call, match.prefix);
  if (!gemm || gemm->accumulate || gemm->outputType != "f32" ||
      gemm->inputType == "f32" || call.getNumOperands() != 3)
    return std::nullopt;
  Type inputType =
      cast<MemRefType>(call.getOperand(0).getType()).getElementType();
  match.lowPrecision =
      lookupRuntimeGemm(inputType, gemm->rank, /*accumulate=*/false, inputType);
  if (!match.lowPrecision)
    return std::nullopt;

  // C: a static view of a dense f32 allocation.
  match.staticOut = getStaticOut(call.getOperand(2));
  if (!match.staticOut)
    return std::nullopt;
  auto outType = cast<MemRefType>(match.staticOut.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!outType.hasStaticShape() ||
      failed(outType.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  match.buffer = getRootBuffer(match.staticOut);
  auto bufferType = dyn_cast<MemRefType>(match.buffer.getType());
  if (!match.buffer.getDefiningOp<memref::AllocOp>() ||
      !isDenseStatic(bufferType))
    return std::nullopt;

  // Read once more, by a truncation to the inputs' type, into a dense
  // buffer of the same elements in the same order.
  auto func = call->getParentOfType<func::FuncOp>();
  match.cast = findOnlyOtherReader(func, match.buffer, call);
  if (!match.cast || !isPlainTruncation(match.cast, inputType) ||
      match.cast->getBlock() != call->getBlock() ||
      !call->isBeforeInBlock(match.cast))
    return std::nullopt;
  Value source = match.cast.getDpsInputOperand(0)->get();
  Value result = match.cast.getDpsInitOperand(0)->get();
  auto sourceType = cast<MemRefType>(source.getType());
  auto resultType = cast<MemRefType>(result.getType());
  Value resultBuffer = getRootBuffer(result);
  if (getRootBuffer(source) != match.buffer || !isDenseStatic(sourceType) ||
      sourceType.getNumElements() != bufferType.getNumElements() ||
      !isDenseStatic(resultType) ||
      resultType.getShape() != sourceType.getShape() ||
      resultBuffer == match.buffer)
    return std::nullopt;

  // The GEMM writes the result where the cast wrote it: neither its own
  // operands nor anything in between may touch it.
  if (getRootBuffer(call.getOperand(0)) == resultBuffer ||
      getRootBuffer(call.getOperand(1)) == resultBuffer)
    return std::nullopt;
  if (findNearestUser(call, resultBuffer, /*forward=*/true) != match.cast)
    return std::nullopt;
  return match;
}

/// `operand` (the call's C, made from its static view) made the same way
/// from `replacement`, a view of the same type but for its element type.
static Value rebuildOperand(OpBuilder &builder, Value operand,
                            Value replacement) {
  Location loc = operand.getLoc();
  auto type = cast<MemRefType>(operand.getType());
  MemRefType dynamicType = getFullyDynamicStridedType(
      cast<MemRefType>(replacement.getType()).getElementType(),
      type.getRank());
  if (operand.getDefiningOp<memref::CastOp>())
    return memref::CastOp::create(builder, loc, dynamicType, replacement);
  auto reinterpret = operand.getDefiningOp<memref::ReinterpretCastOp>();
  auto metadata = reinterpret.getSource()
                      .getDefiningOp<memref::ExtractStridedMetadataOp>();
  auto newMetadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, replacement);
  auto remap = [&](OpFoldResult value) -> OpFoldResult {
    if (auto result = dyn_cast_if_present<OpResult>(dyn_cast<Value>(value)))
      if (result.getOwner() == metadata)
        return newMetadata->getResult(result.getResultNumber());
    return value;
  };
  auto remapAll = [&](ArrayRef<OpFoldResult> values) {
    return llvm::map_to_vector(values, remap);
  };
  return memref::ReinterpretCastOp::create(
      builder, loc, dynamicType, newMetadata.getBaseBuffer(),
      remap(reinterpret.getMixedOffsets().front()),
      remapAll(reinterpret.getMixedSizes()),
      remapAll(reinterpret.getMixedStrides()));
}

static LogicalResult rewrite(TruncatedGemm &match, ModuleOp module) {
  func::CallOp call = match.call;
  // The cast's output (and its views) must exist where the GEMM runs.
  if (!hoistDefinitionsAbove({match.cast.getOperation()}, call,
                             [](Operation *) { return false; }))
    return failure();
  Value result = match.cast.getDpsInitOperand(0)->get();
  auto outType = cast<MemRefType>(match.staticOut.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  (void)outType.getStridesAndOffset(strides, offset);

  OpBuilder builder(call);
  Location loc = call.getLoc();
  // The result holds the f32 buffer's elements in the same order, so C's
  // view of the buffer is, at the same offset and strides, a view of it.
  Type elementType = cast<MemRefType>(result.getType()).getElementType();
  auto viewType = MemRefType::get(
      outType.getShape(), elementType,
      StridedLayoutAttr::get(builder.getContext(), offset, strides));
  Value view = memref::ReinterpretCastOp::create(
      builder, loc, viewType, result, offset, outType.getShape(), strides);
  Value oldOperand = call.getOperand(2);
  Value operand = rebuildOperand(builder, oldOperand, view);

  SmallVector<Value> operands = {call.getOperand(0), call.getOperand(1),
                                 operand};
  std::string name = (match.prefix + match.lowPrecision->name).str();
  func::FuncOp oldCallee = module.lookupSymbol<func::FuncOp>(call.getCallee());
  func::FuncOp callee = declareRuntimeFunction(module, name, operands);
  // What the old callee declared about it (stream-ordered on the GPU).
  for (NamedAttribute attribute : oldCallee->getDiscardableAttrs())
    callee->setDiscardableAttr(attribute.getName(), attribute.getValue());
  func::CallOp::create(builder, loc, callee, operands);

  Operation *source = match.cast.getDpsInputOperand(0)->get().getDefiningOp();
  match.cast.erase();
  call.erase();
  eraseDeadDefinitions({oldOperand.getDefiningOp(), source});
  if (SymbolTable::symbolKnownUseEmpty(oldCallee, module))
    oldCallee.erase();
  return success();
}

namespace {
struct GemmOutputsInLowPrecisionPass
    : amp::impl::GemmOutputsInLowPrecisionPassBase<
          GemmOutputsInLowPrecisionPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<TruncatedGemm> matches;
    module.walk([&](func::CallOp call) {
      if (std::optional<TruncatedGemm> match = matchTruncatedGemm(call))
        matches.push_back(*match);
    });
    // Each match owns its call, buffer and cast: rewrites do not interfere.
    for (TruncatedGemm &match : matches)
      (void)rewrite(match, module);
  }
};
} // namespace
