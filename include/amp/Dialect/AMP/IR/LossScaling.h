//===- LossScaling.h - the loss scaler's parameters -------------*- C++ -*-===//
//
// The one definition of the loss scaler's parameters, their defaults
// (PyTorch GradScaler's; hysteresis is DeepSpeed's delayed shift, off by
// default) and their valid ranges. The `amp-loss-scaling` pass options, the
// `--amp-pipeline` options, `amp-compile` and the `amp.update_scale`
// verifier all refer to it.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_LOSSSCALING_H
#define AMP_DIALECT_AMP_IR_LOSSSCALING_H

#include "amp/Support/EnumChoices.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

#include <limits>

namespace mlir::amp {

enum class LossScalingMode { Dynamic, Static, None };

inline constexpr llvm::cl::OptionEnumValue kLossScalingModeTable[] = {
    clEnumValN(LossScalingMode::Dynamic, "dynamic",
               "grow and back off the scale in the step"),
    clEnumValN(LossScalingMode::Static, "static",
               "a constant scale, still skipping overflowing steps"),
    clEnumValN(LossScalingMode::None, "none", "no loss scaling"),
};
inline constexpr EnumChoices<LossScalingMode> kLossScalingModes{
    kLossScalingModeTable};

/// What the loss scaler does; the defaults are the library's defaults.
struct LossScalingConfig {
  static constexpr LossScalingMode kDefaultMode = LossScalingMode::Dynamic;
  static constexpr float kDefaultScale = 65536.0f;
  static constexpr float kDefaultGrowthFactor = 2.0f;
  static constexpr float kDefaultBackoffFactor = 0.5f;
  static constexpr int64_t kDefaultGrowthInterval = 2000;
  static constexpr float kDefaultMinScale = 0.0f;
  static constexpr float kDefaultMaxScale =
      std::numeric_limits<float>::infinity();
  static constexpr int64_t kDefaultHysteresis = 1;

  LossScalingMode mode = kDefaultMode;
  float scale = kDefaultScale;
  float growthFactor = kDefaultGrowthFactor;
  float backoffFactor = kDefaultBackoffFactor;
  int64_t growthInterval = kDefaultGrowthInterval;
  float minScale = kDefaultMinScale;
  float maxScale = kDefaultMaxScale;
  int64_t hysteresis = kDefaultHysteresis;

  /// How `verify` names a parameter: as a pass option (`growth-factor`) or
  /// as an `amp.update_scale` attribute (`growth_factor`).
  enum class Spelling { Option, Attribute };

  /// Reports the first parameter out of its range through `emitError`.
  LogicalResult verify(function_ref<InFlightDiagnostic()> emitError,
                       Spelling spelling = Spelling::Option) const;
};

} // namespace mlir::amp

AMP_DECLARE_CHOICE_OPTION(::mlir::amp::LossScalingMode)

#endif // AMP_DIALECT_AMP_IR_LOSSSCALING_H
