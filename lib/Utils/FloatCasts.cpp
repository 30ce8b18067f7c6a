//===- FloatCasts.cpp - float conversions the amp rewrites make -----------===//

#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

Value mlir::amp::createFloatConversion(OpBuilder &builder, Location loc,
                                       Value value, Type type) {
  if (value.getType() == type)
    return value;
  auto from = cast<FloatType>(getElementTypeOrSelf(value.getType()));
  auto to = cast<FloatType>(getElementTypeOrSelf(type));
  if (from.getWidth() < to.getWidth())
    return arith::ExtFOp::create(builder, loc, type, value);
  return arith::TruncFOp::create(builder, loc, type, value);
}

Attribute mlir::amp::convertFloatAttr(Attribute attr, FloatType elementType) {
  const llvm::fltSemantics &semantics = elementType.getFloatSemantics();
  auto convert = [&](APFloat value) {
    bool lostInfo;
    value.convert(semantics, APFloat::rmNearestTiesToEven, &lostInfo);
    return value;
  };
  if (auto scalar = dyn_cast<FloatAttr>(attr))
    return FloatAttr::get(elementType, convert(scalar.getValue()));
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr))
    return dense.mapValues(elementType, [&](const APFloat &value) {
      return convert(value).bitcastToAPInt();
    });
  return {};
}
