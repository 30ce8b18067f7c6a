//===- RuntimeCalls.h - calls from compiled steps into libamprt -*- C++ -*-===//
//
// The conventions of every call a lowering makes into the runtime: the
// runtime's entry points are listed in runtime/include/*.def, take MLIR's
// C interface (`_mlir_ciface_<name>`) and fully dynamic strided memrefs.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_RUNTIMECALLS_H
#define AMP_UTILS_RUNTIMECALLS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

#include "amp/Transforms/PassOptions.h"

#include <string>

namespace mlir::amp {

/// The element type's name as the runtime's .def lists spell it (`f32`,
/// `bf16`, `i1`).
std::string getRuntimeTypeName(Type type);

/// What every runtime call takes: a fully dynamic strided memref.
MemRefType getFullyDynamicStridedType(Type elementType, int64_t rank);

/// The private declaration of runtime function `name` taking `operands`
/// (C interface), created on first use.
/// A GEMM of runtime/include/amprt_gemm.def: its name (without the
/// runtime's prefix), the element types of its inputs and of C, its rank
/// and whether it adds to C.
struct RuntimeGemm {
  StringLiteral name;
  StringLiteral inputType;
  int64_t rank;
  bool accumulate;
  StringLiteral outputType;
};

/// The runtime's GEMM of `inputType` inputs and `outputType` C at `rank`
/// that adds to C (`accumulate`) or overwrites it, if it has one.
const RuntimeGemm *lookupRuntimeGemm(Type inputType, int64_t rank,
                                     bool accumulate, Type outputType);

/// The prefix of `runtime`'s contraction symbols: amp_rt_ (libamprt) or
/// amp_rt_cuda_ (libamprt_cuda), so that both load into one process.
StringRef getRuntimeGemmPrefix(GemmRuntime runtime);

/// The runtime's GEMM named `name` (without the prefix), if it has one.
const RuntimeGemm *lookupRuntimeGemm(StringRef name);

/// A GEMM of runtime/include/amprt_rounding_gemm.def (libamprt only),
/// whose A is an f32 buffer it rounds to `inputType` itself: its name
/// (without the prefix), the element types of B (`inputType`) and of its
/// scratch buffer, and whether it adds to its f32 C.
struct RuntimeRoundingGemm {
  StringLiteral name;
  StringLiteral inputType;
  StringLiteral scratchType;
  bool accumulate;
};

/// libamprt's GEMM rounding A to `inputType` that adds to C
/// (`accumulate`) or overwrites it, if it has one.
const RuntimeRoundingGemm *lookupRuntimeRoundingGemm(Type inputType,
                                                     bool accumulate);

func::FuncOp declareRuntimeFunction(ModuleOp module, StringRef name,
                                    ValueRange operands);

} // namespace mlir::amp

#endif // AMP_UTILS_RUNTIMECALLS_H
