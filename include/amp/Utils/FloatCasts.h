//===- FloatCasts.h - float conversions the amp rewrites make ---*- C++ -*-===//

#ifndef AMP_UTILS_FLOATCASTS_H
#define AMP_UTILS_FLOATCASTS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::amp {

/// `value` (a float scalar, or a tensor or vector of floats) converted to
/// `type` of the same shape with arith.extf or arith.truncf by the widths;
/// `value` itself when the types already match.
Value createFloatConversion(OpBuilder &builder, Location loc, Value value,
                            Type type);

/// A float constant (a FloatAttr or dense float elements) with every
/// element rounded to `elementType`; null for any other attribute.
Attribute convertFloatAttr(Attribute attr, FloatType elementType);

/// The float conversion (`arith.extf` or `arith.truncf`) that `op` is
/// nothing but: `out[i] = cast(in[i])`, one input, one init, identity
/// maps, no reduction; null when `op` computes anything else.
Operation *getElementwiseFloatCast(linalg::GenericOp op);

} // namespace mlir::amp

#endif // AMP_UTILS_FLOATCASTS_H
