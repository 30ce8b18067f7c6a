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

Operation *mlir::amp::getElementwiseFloatCast(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumResults() > 1 || op.getNumReductionLoops() != 0 ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return nullptr;
  Block &body = op.getRegion().front();
  if (body.getOperations().size() != 2)
    return nullptr;
  Operation *cast = &body.front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  if (!isa<arith::ExtFOp, arith::TruncFOp>(cast) || !yield ||
      cast->getOperand(0) != body.getArgument(0) ||
      yield.getNumOperands() != 1 || yield.getOperand(0) != cast->getResult(0))
    return nullptr;
  return cast;
}
