//===- MasterWeights.cpp - f32 masters, one low working copy per param ----===//
//
// After autocast, a param is read low through casts of the argument. This
// pass makes that one working copy per low type, at the top of the step,
// shared by forward and backward; the optimizer keeps reading and writing
// the f32 master. Optionally (Apex O2) the copy becomes step state.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Analysis/TrainingGraph.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp {
#define GEN_PASS_DEF_MASTERWEIGHTSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// A cast of an f32 value to a narrower float type.
static bool isNarrowingFloatCast(Operation *op) {
  if (!isa<tosa::CastOp, arith::TruncFOp>(op))
    return false;
  auto from = dyn_cast<FloatType>(getElementTypeOrSelf(op->getOperand(0)));
  auto to = dyn_cast<FloatType>(getElementTypeOrSelf(op->getResult(0)));
  return from && to && from.isF32() && to.getWidth() < 32;
}

/// Casts `value` like `like` (same op kind) to `type`.
static Value castLike(OpBuilder &builder, Operation *like, Value value,
                      Type type) {
  if (isa<tosa::CastOp>(like))
    return tosa::CastOp::create(builder, value.getLoc(), type, value);
  return arith::TruncFOp::create(builder, value.getLoc(), type, value);
}

LogicalResult mlir::amp::applyMasterWeights(TrainingGraph &graph,
                                            bool cacheWorkingCopy) {
  FunctionOpInterface func = graph.func;
  Block &entry = func.getFunctionBody().front();
  MLIRContext *context = func.getContext();
  Builder attrs(context);

  // One working copy per (param, low type), at the top, in param order.
  SmallVector<std::pair<unsigned, Operation *>> copies;
  Operation *lastCopy = nullptr;
  for (unsigned param : graph.params) {
    llvm::SmallDenseMap<Type, Operation *> copyOfType;
    for (Operation *user :
         llvm::make_early_inc_range(func.getArgument(param).getUsers())) {
      if (!isNarrowingFloatCast(user))
        continue;
      Type type = user->getResult(0).getType();
      auto [it, inserted] = copyOfType.try_emplace(type, user);
      if (!inserted) {
        user->getResult(0).replaceAllUsesWith(it->second->getResult(0));
        user->erase();
        continue;
      }
      if (lastCopy)
        user->moveAfter(lastCopy);
      else
        user->moveBefore(&entry.front());
      lastCopy = user;
      copies.emplace_back(param, user);
    }
  }
  if (!cacheWorkingCopy)
    return success();

  // Apex O2: the copy comes in as an argument and leaves as the cast of the
  // updated master.
  OpBuilder builder(context);
  for (auto [param, copy] : copies) {
    unsigned copyArg = func.getNumArguments();
    Type type = copy->getResult(0).getType();
    (void)func.insertArgument(copyArg, type,
                              attrs.getDictionaryAttr(attrs.getNamedAttr(
                                  AMPDialect::kWorkingCopyOfAttrName,
                                  attrs.getI64IntegerAttr(param))),
                              copy->getLoc());
    copy->getResult(0).replaceAllUsesWith(func.getArgument(copyArg));
    if (std::optional<unsigned> update = graph.getUpdateResult(param)) {
      builder.setInsertionPoint(graph.returnOp);
      Value next =
          castLike(builder, copy, graph.returnOp->getOperand(*update), type);
      unsigned result = func.getNumResults();
      (void)func.insertResult(result, type,
                              attrs.getDictionaryAttr(attrs.getNamedAttr(
                                  AMPDialect::kUpdateOfAttrName,
                                  attrs.getI64IntegerAttr(copyArg))));
      graph.returnOp->insertOperands(graph.returnOp->getNumOperands(), next);
      graph.updates.emplace_back(result, copyArg);
    }
    copy->erase();
  }
  return success();
}

namespace {
struct MasterWeightsPass
    : public amp::impl::MasterWeightsPassBase<MasterWeightsPass> {
  using MasterWeightsPassBase::MasterWeightsPassBase;

  void runOnOperation() override {
    if (failed(forEachTrainingStep(
            getOperation(), "amp-master-weights", [&](TrainingGraph &graph) {
              return applyMasterWeights(graph, cacheWorkingCopy);
            })))
      signalPassFailure();
  }
};
} // namespace
