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

/// How libamprt's convolution sees a convolution: the rank of its call (4:
/// plain, input N x H x W x C, filter F x KH x KW x C, output N x OH x OW x
/// F; 5: grouped, N x G x C x H x W, G x F x C x KH x KW, N x G x F x OH x
/// OW), per operand (input, filter, output) the operand's dimension for
/// each of the call's dimensions (-1: a unit dimension the operand does not
/// have), which DPS input is the input (the other is the filter), and the
/// strides and dilations in H and W. The call reads views of the operands
/// in that order, so every layout is one of the two calls.
struct ConvLayout {
  int64_t rank;
  SmallVector<int64_t> input, filter, output;
  unsigned inputOperand = 0;
  SmallVector<int64_t, 2> strides, dilations;
};

/// The layout of `op` where it is a convolution libamprt can run: a linalg
/// op (named or generic) that multiplies and accumulates, one of whose
/// inputs is indexed by one or two windows `stride * image + dilation *
/// tap`, with at most one loop each of batch, group, input and output
/// channel (any layout: channels first or last, plain, grouped or
/// depthwise, any filter layout; one window is a 1-D convolution with a
/// unit H). Read off the indexing maps, so a convolution that
/// torch-mlir or fusion left as a linalg.generic is one too.
std::optional<ConvLayout> getConvLayout(Operation *op);

} // namespace mlir::amp

#endif // AMP_UTILS_CONTRACTIONS_H
