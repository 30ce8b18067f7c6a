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

} // namespace mlir::amp

AMP_DECLARE_CHOICE_OPTION(::mlir::amp::CastDialect)
AMP_DECLARE_CHOICE_OPTION(::mlir::amp::GemmRuntime)

#endif // AMP_TRANSFORMS_PASSOPTIONS_H
