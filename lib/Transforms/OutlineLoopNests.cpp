//===- OutlineLoopNests.cpp - one function per top-level loop nest --------===//
//
// LLVM's loop passes are superlinear in the loops of one function; a step
// lowered to loops has thousands. Moving each top-level nest into its own
// (noinline) function makes code generation linear in the step's size.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::amp {
#define GEN_PASS_DEF_OUTLINELOOPNESTSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Moves `loop` into a new private function `name` of `module` and calls
/// it in its place. Values the nest reads from outside become arguments,
/// except constants, which are cloned in.
static void outlineLoopNest(Operation *loop, StringRef name,
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
}

namespace {
struct OutlineLoopNestsPass
    : public amp::impl::OutlineLoopNestsPassBase<OutlineLoopNestsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    for (func::FuncOp function : functions) {
      if (function.isExternal())
        continue;
      SmallVector<Operation *> nests;
      for (Block &block : function.getBody())
        for (Operation &op : block)
          if (isa<scf::ForOp, scf::ParallelOp>(op))
            nests.push_back(&op);
      // A function that is one nest already gains nothing.
      if (nests.size() < 2)
        continue;
      for (auto [index, nest] : llvm::enumerate(nests))
        outlineLoopNest(nest, (function.getName() + "_nest" + Twine(index)).str(),
                        symbols);
    }
  }
};
} // namespace
