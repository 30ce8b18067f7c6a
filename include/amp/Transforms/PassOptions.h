//===- PassOptions.h - the typed values of the amp pass options -*- C++ -*-===//
//
// Closed choices of the amp passes, each with its one table of names (see
// amp/Support/EnumChoices.h). Passes.td, the pipeline options and the tools
// all take their choices from here.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRANSFORMS_PASSOPTIONS_H
#define AMP_TRANSFORMS_PASSOPTIONS_H

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Dialect/AMP/IR/LossScaling.h"
#include "amp/Support/EnumChoices.h"

namespace mlir::amp {

/// The dialect of the casts autocast inserts on tensors.
enum class CastDialect { Tosa, Arith };

inline constexpr llvm::cl::OptionEnumValue kCastDialectTable[] = {
    clEnumValN(CastDialect::Tosa, "tosa",
               "tosa.cast (lowers with tosa-to-linalg)"),
    clEnumValN(CastDialect::Arith, "arith", "arith.truncf / arith.extf"),
};
inline constexpr EnumChoices<CastDialect> kCastDialects{kCastDialectTable};
inline constexpr CastDialect kDefaultCastDialect = CastDialect::Tosa;

/// Which runtime's GEMMs `amp-contractions-to-runtime-calls` calls.
enum class GemmRuntime { CPU, CUDA };

inline constexpr llvm::cl::OptionEnumValue kGemmRuntimeTable[] = {
    clEnumValN(GemmRuntime::CPU, "cpu", "libamprt (BLAS, host buffers)"),
    clEnumValN(GemmRuntime::CUDA, "cuda",
               "libamprt_cuda (cuBLASLt, device buffers)"),
};
inline constexpr EnumChoices<GemmRuntime> kGemmRuntimes{kGemmRuntimeTable};

/// The element type in which amp-data-parallel reduces gradients. f32 by
/// default: exact for two ranks up to the sum's one rounding, where f16
/// rounds every gradient once more to 11 bits and bf16 to 8.
enum class GradientReduceType { F32, F16, BF16 };

inline constexpr llvm::cl::OptionEnumValue kGradientReduceTypeTable[] = {
    clEnumValN(GradientReduceType::F32, "f32",
               "f32 (exact for two ranks; PyTorch DDP's choice for AMP)"),
    clEnumValN(GradientReduceType::F16, "f16",
               "IEEE half: half the bytes, gradients rounded to 11 bits"),
    clEnumValN(GradientReduceType::BF16, "bf16",
               "bfloat16: half the bytes, 8-bit mantissa"),
};
inline constexpr EnumChoices<GradientReduceType> kGradientReduceTypes{
    kGradientReduceTypeTable};

/// The defaults of amp-data-parallel (PyTorch DDP's bucket size).
struct DataParallelConfig {
  static constexpr GradientReduceType kDefaultReduceType =
      GradientReduceType::F32;
  static constexpr double kDefaultBucketMiB = 25.0;

  GradientReduceType reduceType = kDefaultReduceType;
  double bucketMiB = kDefaultBucketMiB;
};

} // namespace mlir::amp

AMP_DECLARE_CHOICE_OPTION(::mlir::amp::CastDialect)
AMP_DECLARE_CHOICE_OPTION(::mlir::amp::GradientReduceType)
AMP_DECLARE_CHOICE_OPTION(::mlir::amp::GemmRuntime)

#endif // AMP_TRANSFORMS_PASSOPTIONS_H
