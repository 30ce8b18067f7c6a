//===- Contractions.h - what a GEMM's payload looks like --------*- C++ -*-===//
//
// Shared by the fusion that keeps contractions library-shaped and the pass
// that turns them into library calls: both must agree on what a GEMM is.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_CONTRACTIONS_H
#define AMP_UTILS_CONTRACTIONS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::amp {

/// Whether the body of `op` is `out + a * b` over its two inputs (in either
/// order, each possibly widened by arith.extf): the only payload a GEMM
/// computes. Stricter than upstream's isContractionBody, which lets any
/// unary op (an exp, a negation) through.
bool isMultiplyAccumulate(linalg::LinalgOp op);

} // namespace mlir::amp

#endif // AMP_UTILS_CONTRACTIONS_H
