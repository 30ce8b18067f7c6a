//===- LossScaling.cpp - ranges of the loss scaler's parameters -----------===//

#include "amp/Dialect/AMP/IR/LossScaling.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::amp;

LogicalResult
LossScalingConfig::verify(function_ref<InFlightDiagnostic()> emitError,
                          Spelling spelling) const {
  // `growth-factor` as an option, `growth_factor` as an attribute.
  auto name = [&](StringRef option) {
    std::string text = option.str();
    if (spelling == Spelling::Attribute)
      std::replace(text.begin(), text.end(), '-', '_');
    return text;
  };
  if (!(scale > 0.0f) || !std::isfinite(scale))
    return emitError() << name("scale") << " must be positive and finite, got "
                       << scale;
  // As PyTorch's GradScaler: a scale that cannot grow (1, inf) never
  // recovers from a backoff, and one that cannot back off (1) skips every
  // step after an overflow.
  if (!(growthFactor > 1.0f) || !std::isfinite(growthFactor))
    return emitError() << name("growth-factor")
                       << " must be greater than 1 and finite, got "
                       << growthFactor;
  if (!(backoffFactor > 0.0f && backoffFactor < 1.0f))
    return emitError() << name("backoff-factor") << " must be in (0, 1), got "
                       << backoffFactor;
  if (growthInterval < 1)
    return emitError() << name("growth-interval") << " must be at least 1, got "
                       << growthInterval;
  if (!(minScale >= 0.0f) || !(minScale <= maxScale))
    return emitError() << "needs 0 <= " << name("min-scale")
                       << " <= " << name("max-scale") << ", got " << minScale
                       << " and " << maxScale;
  if (hysteresis < 1)
    return emitError() << name("hysteresis") << " must be at least 1, got "
                       << hysteresis;
  return success();
}
