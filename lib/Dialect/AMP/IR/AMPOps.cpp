//===- AMPOps.cpp - amp dialect operations --------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

#define GET_OP_CLASSES
#include "amp/Dialect/AMP/IR/AMPOps.cpp.inc"

LogicalResult LossGradOp::verify() {
  auto tensor = dyn_cast<RankedTensorType>(getLoss().getType());
  if (isa<TensorType>(getLoss().getType()) &&
      (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() != 1))
    return emitOpError("loss must hold exactly one element, got ")
           << getLoss().getType();
  return success();
}

LogicalResult GradOp::verify() {
  auto func = (*this)->getParentOfType<FunctionOpInterface>();
  if (!func)
    return emitOpError("must be inside a function");
  int64_t index = getParam();
  int64_t numArgs = func.getNumArguments();
  if (index < 0 || index >= numArgs)
    return emitOpError("param ")
           << index << " is out of range: the function has " << numArgs
           << " arguments";
  if (!func.getArgAttr(index, AMPDialect::kParamAttrName))
    return emitOpError("param ")
           << index << " names an argument that is not marked '"
           << AMPDialect::kParamAttrName << "'";
  Type argType = func.getArgumentTypes()[index];
  if (argType != getGradient().getType())
    return emitOpError("gradient type ")
           << getGradient().getType() << " does not match param " << index
           << " of type " << argType;
  return success();
}
