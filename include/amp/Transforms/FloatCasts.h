//===- FloatCasts.h - float conversions the amp rewrites make ---*- C++ -*-===//

#ifndef AMP_TRANSFORMS_FLOATCASTS_H
#define AMP_TRANSFORMS_FLOATCASTS_H

#include "mlir/IR/Builders.h"

namespace mlir::amp {

/// `value` (a float scalar, or a tensor or vector of floats) converted to
/// `type` of the same shape with arith.extf or arith.truncf by the widths;
/// `value` itself when the types already match.
Value createFloatConversion(OpBuilder &builder, Location loc, Value value,
                            Type type);

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_FLOATCASTS_H
