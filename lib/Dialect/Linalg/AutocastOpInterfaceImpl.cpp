//===- AutocastOpInterfaceImpl.cpp - autocast models for linalg -----------===//
//
// One model for every structured linalg op. A summing op keeps its inits and
// results f32 when its inputs go low; a low op's payload is retyped: a
// named op's body is built again by its region builder, a user-written
// payload keeps computing in f32 (widen on entry, narrow on exit).
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AutocastModels.h"
#include "amp/Interfaces/AutocastOpInterface.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

using namespace mlir;
using namespace mlir::amp;

/// A linalg op that sums into its inits.
static bool isAccumulating(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0 || !op.getBlock())
    return false;
  return llvm::any_of(op.getBlock()->getOperations(), [](Operation &inner) {
    return isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, arith::DivFOp,
               math::FmaOp>(inner);
  });
}

/// Linalg ops whose payload is written by the user rather than generated
/// from the op's name.
static bool hasUserPayload(Operation *op) {
  return isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp,
             linalg::TransposeOp, linalg::BroadcastOp>(op);
}

/// Low block arguments are widened on entry and yielded values narrowed to
/// the inits' types on exit.
static void retypeUserPayload(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  OpBuilder builder(op->getContext());
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(&operand);
    if (!arg)
      continue;
    Type elementType = getElementTypeOrSelf(operand.get().getType());
    if (arg.getType() == elementType)
      continue;
    Type oldType = arg.getType();
    arg.setType(elementType);
    bool usedInBody = llvm::any_of(arg.getUsers(), [&](Operation *user) {
      return user != body->getTerminator();
    });
    if (!usedInBody)
      continue;
    builder.setInsertionPointToStart(body);
    Value widened = arith::ExtFOp::create(builder, arg.getLoc(), oldType, arg);
    arg.replaceAllUsesExcept(widened, widened.getDefiningOp());
    // A yield of the argument itself keeps the argument.
    Operation *terminator = body->getTerminator();
    for (OpOperand &yielded : terminator->getOpOperands())
      if (yielded.get() == widened)
        yielded.set(arg);
  }
  Operation *terminator = body->getTerminator();
  builder.setInsertionPoint(terminator);
  for (OpOperand &yielded : terminator->getOpOperands()) {
    Type wanted = getElementTypeOrSelf(
        op.getDpsInits()[yielded.getOperandNumber()].getType());
    yielded.set(createFloatConversion(builder, terminator->getLoc(),
                                      yielded.get(), wanted));
  }
}

/// A named op's body is generated from its operand types: build it again
/// for the new types with the op's own region builder.
static void rebuildNamedRegion(linalg::LinalgOp op) {
  Region &region = op->getRegion(0);
  Block *oldBody = &region.front();
  auto *newBody = new Block();
  region.push_back(newBody);
  for (OpOperand &operand : op->getOpOperands())
    newBody->addArgument(getElementTypeOrSelf(operand.get().getType()),
                         op.getLoc());
  ImplicitLocOpBuilder builder(op.getLoc(), op->getContext());
  builder.setInsertionPointToStart(newBody);
  op.getRegionBuilder()(builder, *newBody, op->getAttrs(),
                        [&] { return op->emitError(); });
  oldBody->dropAllDefinedValueUses();
  oldBody->erase();
}

namespace {
template <typename OpTy>
struct StructuredOpModel
    : public AutocastOpInterface::ExternalModel<StructuredOpModel<OpTy>, OpTy> {
  static bool hasPayloadRegions() { return true; }

  bool canRunLow(Operation *op) const {
    return hasUserPayload(op) ||
           cast<linalg::LinalgOp>(op).getRegionBuilder() != nullptr;
  }

  bool isLowOperand(Operation *op, unsigned index) const {
    auto linalgOp = cast<linalg::LinalgOp>(op);
    return !isAccumulating(linalgOp) ||
           !linalgOp.isDpsInit(&op->getOpOperand(index));
  }

  bool isAccumulatorResult(Operation *op, unsigned) const {
    return isAccumulating(cast<linalg::LinalgOp>(op));
  }

  void retypeForLowPrecision(Operation *op, FloatType) const {
    if (hasUserPayload(op))
      retypeUserPayload(cast<linalg::LinalgOp>(op));
    else
      rebuildNamedRegion(cast<linalg::LinalgOp>(op));
  }
};

template <typename... OpTys>
void attachStructuredOpModels(MLIRContext *context) {
  (OpTys::template attachInterface<StructuredOpModel<OpTys>>(*context), ...);
}
} // namespace

void mlir::amp::registerLinalgAutocastModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    attachStructuredOpModels<
#define GET_OP_LIST
#include "mlir/Dialect/Linalg/IR/LinalgStructuredOps.cpp.inc"
        >(context);
  });
}
