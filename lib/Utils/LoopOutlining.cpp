//===- LoopOutlining.cpp - loop nests moved into functions ----------------===//

#include "amp/Utils/LoopOutlining.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

func::CallOp mlir::amp::outlineLoopNest(Operation *loop, StringRef name,
                                        SymbolTable &symbols) {
  // Every value the nest uses that is defined outside it, in first-use order.
  llvm::SetVector<Value> captured;
  auto capture = [&](Value value) {
    if (!loop->isAncestor(value.getParentRegion()->getParentOp()))
      captured.insert(value);
  };
  loop->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      capture(operand);
  });
  SmallVector<Value> arguments;
  SmallVector<Operation *> constants;
  for (Value value : captured) {
    Operation *def = value.getDefiningOp();
    if (def && def->hasTrait<OpTrait::ConstantLike>())
      constants.push_back(def);
    else
      arguments.push_back(value);
  }

  OpBuilder builder(loop->getContext());
  auto type = builder.getFunctionType(ValueRange(arguments).getTypes(),
                                      loop->getResultTypes());
  auto function = func::FuncOp::create(builder, loop->getLoc(), name, type);
  function.setPrivate();
  function->setAttr("passthrough", builder.getArrayAttr(
                                       {builder.getStringAttr("noinline")}));
  symbols.insert(function);
  Block *body = function.addEntryBlock();
  builder.setInsertionPointToStart(body);
  IRMapping mapping;
  for (auto [value, argument] : llvm::zip(arguments, body->getArguments()))
    mapping.map(value, argument);
  llvm::SmallPtrSet<Operation *, 8> cloned;
  for (Operation *constant : constants)
    if (cloned.insert(constant).second)
      builder.clone(*constant, mapping);
  Operation *copy = builder.clone(*loop, mapping);
  func::ReturnOp::create(builder, loop->getLoc(), copy->getResults());

  builder.setInsertionPoint(loop);
  auto call = func::CallOp::create(builder, loop->getLoc(), function, arguments);
  loop->replaceAllUsesWith(call.getResults());
  loop->erase();
  return call;
}
