//===- RuntimeCalls.cpp - calls from compiled steps into libamprt ---------===//

#include "amp/Utils/RuntimeCalls.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

std::string mlir::amp::getRuntimeTypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream(name) << type;
  return name;
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
