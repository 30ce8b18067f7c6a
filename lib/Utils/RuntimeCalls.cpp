//===- RuntimeCalls.cpp - calls from compiled steps into libamprt ---------===//

#include "amp/Utils/RuntimeCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::amp;

std::string mlir::amp::getRuntimeTypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return name;
}

static constexpr RuntimeGemm kRuntimeGemms[] = {
#define AMPRT_GEMM(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, OUTPUT_TYPE,    \
                   OUTPUT_C_TYPE)                                              \
  {#NAME, #INPUT_TYPE, RANK, ACCUMULATE, #OUTPUT_TYPE},
#include "amprt_gemm.def"
};

const RuntimeGemm *mlir::amp::lookupRuntimeGemm(Type inputType, int64_t rank,
                                                bool accumulate,
                                                Type outputType) {
  std::string input = getRuntimeTypeName(inputType);
  std::string output = getRuntimeTypeName(outputType);
  for (const RuntimeGemm &gemm : kRuntimeGemms)
    if (gemm.inputType == input && gemm.rank == rank &&
        gemm.accumulate == accumulate && gemm.outputType == output)
      return &gemm;
  return nullptr;
}

static constexpr RuntimeRoundingGemm kRuntimeRoundingGemms[] = {
#define AMPRT_ROUNDING_GEMM(NAME, INPUT_TYPE, SCRATCH_TYPE, SCRATCH_C_TYPE,    \
                            ACCUMULATE)                                        \
  {#NAME, #INPUT_TYPE, #SCRATCH_TYPE, ACCUMULATE},
#include "amprt_rounding_gemm.def"
};

const RuntimeRoundingGemm *
mlir::amp::lookupRuntimeRoundingGemm(Type inputType, bool accumulate) {
  std::string input = getRuntimeTypeName(inputType);
  for (const RuntimeRoundingGemm &gemm : kRuntimeRoundingGemms)
    if (gemm.inputType == input && gemm.accumulate == accumulate)
      return &gemm;
  return nullptr;
}

StringRef mlir::amp::getRuntimeGemmPrefix(GemmRuntime runtime) {
  return runtime == GemmRuntime::CUDA ? "amp_rt_cuda_" : "amp_rt_";
}

const RuntimeGemm *mlir::amp::lookupRuntimeGemm(StringRef name) {
  for (const RuntimeGemm &gemm : kRuntimeGemms)
    if (gemm.name == name)
      return &gemm;
  return nullptr;
}

MemRefType mlir::amp::getFullyDynamicStridedType(Type elementType,
                                                 int64_t rank) {
  auto layout =
      StridedLayoutAttr::get(elementType.getContext(), ShapedType::kDynamic,
                             SmallVector<int64_t>(rank, ShapedType::kDynamic));
  return MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                         elementType, layout);
}

func::FuncOp mlir::amp::declareRuntimeFunction(ModuleOp module, StringRef name,
                                               ValueRange operands) {
  if (auto callee = module.lookupSymbol<func::FuncOp>(name))
    return callee;
  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  auto callee = func::FuncOp::create(
      builder, module.getLoc(), name,
      builder.getFunctionType(operands.getTypes(), TypeRange{}));
  callee.setPrivate();
  callee->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  builder.getUnitAttr());
  return callee;
}
