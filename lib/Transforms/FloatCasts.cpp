//===- FloatCasts.cpp - float conversions the amp rewrites make -----------===//

#include "amp/Transforms/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
