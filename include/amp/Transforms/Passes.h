//===- Passes.h - amp transformation passes ---------------------*- C++ -*-===//

#ifndef AMP_TRANSFORMS_PASSES_H
#define AMP_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include "amp/Transforms/PassOptions.h"

namespace mlir::amp {

#define GEN_PASS_DECL
#include "amp/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "amp/Transforms/Passes.h.inc"

/// amp-fuse-elementwise-ops' rule, for pipelines that fuse with upstream's
/// patterns themselves: fuse a single-use linalg.generic producer, into a
/// contraction only if it moves data (a transpose or broadcast).
bool shouldFuseElementwise(OpOperand *fusedOperand);

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_PASSES_H
