//===- Contractions.cpp - what a GEMM's payload looks like ----------------===//

#include "amp/Utils/Contractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

/// Whether `value` is block argument `arg` of the body, possibly widened to
/// f32 by an arith.extf.
static bool isOperandRead(Value value, BlockArgument arg) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  return value == arg;
}

bool mlir::amp::isMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument a = body->getArgument(0), b = body->getArgument(1),
                out = body->getArgument(2);
  if ((add.getLhs() == out) == (add.getRhs() == out))
    return false;
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  return (isOperandRead(mul.getLhs(), a) && isOperandRead(mul.getRhs(), b)) ||
         (isOperandRead(mul.getLhs(), b) && isOperandRead(mul.getRhs(), a));
}
