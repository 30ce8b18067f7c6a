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

#include <string>

namespace mlir::amp {

/// The element type's name as the runtime's .def lists spell it (`f32`,
/// `bf16`, `i1`).
std::string getRuntimeTypeName(Type type);

/// What every runtime call takes: a fully dynamic strided memref.
MemRefType getFullyDynamicStridedType(Type elementType, int64_t rank);

/// The private declaration of runtime function `name` taking `operands`
/// (C interface), created on first use.
func::FuncOp declareRuntimeFunction(ModuleOp module, StringRef name,
                                    ValueRange operands);

} // namespace mlir::amp

#endif // AMP_UTILS_RUNTIMECALLS_H
