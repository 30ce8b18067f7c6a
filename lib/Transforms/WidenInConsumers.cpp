//===- WidenInConsumers.cpp - f16/bf16 widened where it is read -----------===//
//
// A cast from f16/bf16 to f32 that tensor fusion could not fuse into its
// consumers (a reduction, such as a bias gradient, that elementwise fusion
// leaves alone) is materialized: an f32 copy of a low-precision tensor,
// written once and read back, alive as long as its last reader. Widening is
// exact, so each reader may as well widen the low-precision value itself.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Buffers.h"
#include "amp/Utils/Contractions.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp {
#define GEN_PASS_DEF_WIDENINCONSUMERSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether `op` only widens f16/bf16 to f32, elementwise.
static bool isPlainWidening(linalg::GenericOp op) {
  auto extf = dyn_cast_or_null<arith::ExtFOp>(getElementwiseFloatCast(op));
  return extf && op.getNumResults() == 1 && extf.getType().isF32() &&
         (extf.getIn().getType().isF16() || extf.getIn().getType().isBF16());
}

/// Whether `use` is an input of a linalg op with a body of its own (a
/// generic, reduce or map) that may widen it there: not a contraction,
/// whose operand types choose the GEMM the runtime runs.
static bool mayWidenInConsumer(OpOperand &use) {
  Operation *owner = use.getOwner();
  if (!isa<linalg::GenericOp, linalg::ReduceOp, linalg::MapOp>(owner))
    return false;
  auto consumer = cast<linalg::LinalgOp>(owner);
  return consumer.isDpsInput(&use) && !isMultiplyAccumulate(consumer);
}

/// Makes the consumer of `use` read `narrow` and widen it in its body.
static void widenInConsumer(OpOperand &use, Value narrow) {
  auto consumer = cast<linalg::LinalgOp>(use.getOwner());
  BlockArgument argument = consumer.getMatchingBlockArgument(&use);
  Type wide = argument.getType();
  use.set(narrow);
  argument.setType(getElementTypeOrSelf(narrow.getType()));
  OpBuilder builder = OpBuilder::atBlockBegin(argument.getOwner());
  auto extf = arith::ExtFOp::create(builder, consumer.getLoc(), wide, argument);
  argument.replaceAllUsesExcept(extf.getResult(), extf);
}

namespace {
struct WidenInConsumersPass
    : amp::impl::WidenInConsumersPassBase<WidenInConsumersPass> {
  void runOnOperation() override {
    SmallVector<linalg::GenericOp> widenings;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (op.hasPureTensorSemantics() && isPlainWidening(op))
        widenings.push_back(op);
    });
    for (linalg::GenericOp widening : widenings) {
      Value narrow = widening.getDpsInputOperand(0)->get();
      for (OpOperand &use :
           llvm::make_early_inc_range(widening->getResult(0).getUses()))
        if (mayWidenInConsumer(use))
          widenInConsumer(use, narrow);
      // With its tensor.empty, once no reader is left.
      eraseDeadDefinitions(widening.getOperation());
    }
  }
};
} // namespace
