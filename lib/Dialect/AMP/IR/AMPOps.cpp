//===- AMPOps.cpp - amp dialect operations --------------------------------===//

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Dialect/AMP/IR/LossScaling.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/Dialect/AMP/IR/AMPOpsEnums.cpp.inc"

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

LogicalResult UnscaleOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  if (operands.empty())
    return failure();
  for (Value gradient : operands.drop_back())
    inferredReturnTypes.push_back(gradient.getType());
  inferredReturnTypes.push_back(
      RankedTensorType::get({}, IntegerType::get(context, 1)));
  return success();
}

LogicalResult UnscaleOp::verify() {
  if (getGradients().empty())
    return emitOpError("needs at least one gradient");
  return success();
}

LogicalResult UpdateScaleOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  // found_inf, scale, growth tracker[, hysteresis tracker]: the state
  // operands come back updated.
  if (operands.size() < 3)
    return failure();
  for (Value state : operands.drop_front())
    inferredReturnTypes.push_back(state.getType());
  return success();
}

void UpdateScaleOp::build(OpBuilder &builder, OperationState &state,
                          Value foundInf, Value scale, Value growthTracker,
                          Value hysteresisTracker, float growthFactor,
                          float backoffFactor, int64_t growthInterval,
                          float minScale, float maxScale, int64_t hysteresis) {
  SmallVector<Type, 3> types = {scale.getType(), growthTracker.getType()};
  if (hysteresisTracker)
    types.push_back(hysteresisTracker.getType());
  build(builder, state, types, foundInf, scale, growthTracker,
        hysteresisTracker, builder.getF32FloatAttr(growthFactor),
        builder.getF32FloatAttr(backoffFactor),
        builder.getI64IntegerAttr(growthInterval),
        builder.getF32FloatAttr(minScale), builder.getF32FloatAttr(maxScale),
        builder.getI64IntegerAttr(hysteresis));
}

LogicalResult UpdateScaleOp::verify() {
  // The same ranges as the pass options that make this op.
  LossScalingConfig config;
  config.growthFactor = getGrowthFactor().convertToFloat();
  config.backoffFactor = getBackoffFactor().convertToFloat();
  config.growthInterval = getGrowthInterval();
  config.minScale = getMinScale().convertToFloat();
  config.maxScale = getMaxScale().convertToFloat();
  config.hysteresis = getHysteresis();
  if (failed(config.verify([&] { return emitOpError(); },
                           LossScalingConfig::Spelling::Attribute)))
    return failure();
  bool hasTracker = static_cast<bool>(getHysteresisTracker());
  if (hasTracker != (getHysteresis() > 1))
    return emitOpError("takes a hysteresis tracker exactly when hysteresis > "
                       "1 (hysteresis = ")
           << getHysteresis() << ")";
  if (hasTracker != static_cast<bool>(getNewHysteresisTracker()))
    return emitOpError("returns a new hysteresis tracker exactly when it "
                       "takes one");
  return success();
}

LogicalResult AllReduceOp::inferReturnTypes(
    MLIRContext *context, std::optional<Location> location, ValueRange operands,
    DictionaryAttr attributes, OpaqueProperties properties, RegionRange regions,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  llvm::append_range(inferredReturnTypes, operands.getTypes());
  return success();
}

LogicalResult AllReduceOp::verify() {
  if (getValues().empty())
    return emitOpError("needs at least one value to reduce");
  // One bucket is one buffer of one element type.
  Type element = getElementTypeOrSelf(getValues().front().getType());
  for (Value value : getValues())
    if (getElementTypeOrSelf(value.getType()) != element)
      return emitOpError("values of one bucket must share an element type, "
                         "got ")
             << element << " and " << getElementTypeOrSelf(value.getType());
  if (element.isInteger(1) && getReduction() != Reduction::Max)
    return emitOpError("i1 values can only be reduced with 'max', got '")
           << stringifyReduction(getReduction()) << "'";
  return success();
}
