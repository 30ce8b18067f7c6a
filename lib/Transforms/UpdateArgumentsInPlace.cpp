//===- UpdateArgumentsInPlace.cpp - state updates in their own buffers ----===//
//
// A step's `amp.update_of` results are the next parameters and optimizer
// state. Returned as new values, each needs a buffer beside the old one for
// the whole session. Tied here to their arguments on tensors, One-Shot
// Bufferize writes them in place where that is safe and copies where the old
// value is still read afterwards: its conflict analysis, not ours, decides.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Transforms/Passes.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"

namespace mlir::amp {
#define GEN_PASS_DEF_UPDATEARGUMENTSINPLACEPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

std::optional<unsigned> mlir::amp::getUpdatedArgument(FunctionOpInterface func,
                                                      unsigned result) {
  auto index = func.getResultAttrOfType<IntegerAttr>(
      result, AMPDialect::kUpdateOfAttrName);
  if (!index || index.getInt() < 0 ||
      index.getInt() >= static_cast<int64_t>(func.getNumArguments()))
    return std::nullopt;
  return index.getInt();
}

std::optional<unsigned> mlir::amp::getInPlaceUpdateTarget(FunctionOpInterface func,
                                                          unsigned result) {
  std::optional<unsigned> arg = getUpdatedArgument(func, result);
  if (!arg)
    return std::nullopt;
  // The caller's data is not ours to overwrite.
  if (!func.getArgAttr(*arg, AMPDialect::kParamAttrName) &&
      !func.getArgAttr(*arg, AMPDialect::kStateAttrName) &&
      !func.getArgAttr(*arg, AMPDialect::kScalerAttrName) &&
      !func.getArgAttr(*arg, AMPDialect::kWorkingCopyOfAttrName))
    return std::nullopt;
  auto type = dyn_cast<ShapedType>(func.getResultTypes()[result]);
  if (!type || !type.hasStaticShape() ||
      func.getArgumentTypes()[*arg] != type)
    return std::nullopt;
  for (unsigned r = 0; r < result; ++r)
    if (getUpdatedArgument(func, r) == arg)
      return std::nullopt;
  return arg;
}

/// The function's returns (one per block that ends in one).
static SmallVector<Operation *> getReturns(FunctionOpInterface func) {
  SmallVector<Operation *> returns;
  for (Block &block : func.getFunctionBody())
    if (!block.empty() &&
        block.back().hasTrait<OpTrait::ReturnLike>())
      returns.push_back(&block.back());
  return returns;
}

void mlir::amp::updateArgumentsInPlace(FunctionOpInterface func) {
  if (func.isExternal())
    return;
  MLIRContext *context = func.getContext();
  for (unsigned r = 0, e = func.getNumResults(); r < e; ++r) {
    std::optional<unsigned> arg = getInPlaceUpdateTarget(func, r);
    if (!arg || !isa<RankedTensorType>(func.getResultTypes()[r]))
      continue;
    Value destination = func.getArgument(*arg);
    for (Operation *ret : getReturns(func)) {
      OpBuilder builder(ret);
      Value next = ret->getOperand(r);
      auto inPlace = bufferization::MaterializeInDestinationOp::create(
          builder, ret->getLoc(), next, destination);
      ret->setOperand(r, inPlace.getResult());
    }
    func.setArgAttr(*arg,
                    bufferization::BufferizationDialect::kWritableAttrName,
                    BoolAttr::get(context, true));
  }
}

namespace {
struct UpdateArgumentsInPlacePass
    : public amp::impl::UpdateArgumentsInPlacePassBase<
          UpdateArgumentsInPlacePass> {
  void runOnOperation() override {
    getOperation().walk(
        [](FunctionOpInterface func) { updateArgumentsInPlace(func); });
  }
};
} // namespace
