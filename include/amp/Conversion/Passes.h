//===- Passes.h - amp lowering passes ---------------------------*- C++ -*-===//

#ifndef AMP_CONVERSION_PASSES_H
#define AMP_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "amp/Transforms/PassOptions.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/Conversion/Passes.h.inc"

/// Patterns lowering every amp op to linalg, arith and tensor.
void populateLowerAMPOpsPatterns(RewritePatternSet &patterns);

#define GEN_PASS_REGISTRATION
#include "amp/Conversion/Passes.h.inc"

} // namespace mlir::amp

#endif // AMP_CONVERSION_PASSES_H
