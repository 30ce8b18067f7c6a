//===- Passes.h - amp transformation passes ---------------------*- C++ -*-===//

#ifndef AMP_TRANSFORMS_PASSES_H
#define AMP_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
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

/// amp-fuse-elementwise-buffers on one block: merges later elementwise
/// linalg.generics on buffers (and, with `intoReductions`, reductions)
/// into earlier elementwise ones over the same iteration space where one
/// loop nest computes the same; returns how many merged. With
/// `keepLifetimes`, an op is not merged into an earlier one when that would
/// make a buffer above a page it writes first live longer: they share no
/// buffer, or ops in between write memory and the merge frees fewer bytes.
int64_t fuseElementwiseBufferOps(Block &block, bool intoReductions = false,
                                 bool keepLifetimes = false);

/// amp-forward-identity-copies on one function: the readers of a buffer
/// copied whole from another that neither changes while it is read read
/// the original; returns how many copies went.
int64_t forwardIdentityCopies(func::FuncOp func);

/// amp-fuse-fills-into-parallel-loops on one block: moves whole-buffer
/// fills into the parallel loop that first touches the buffer; returns how
/// many moved.
int64_t fuseFillsIntoParallelLoops(Block &block);

/// amp-merge-independent-launches on one block: joins later gpu.launch
/// ops into earlier ones they do not depend on; returns how many joined.
int64_t mergeIndependentLaunches(Block &block);

} // namespace mlir::amp

#endif // AMP_TRANSFORMS_PASSES_H
