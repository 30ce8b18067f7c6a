//===- OutlineLoopNests.cpp - one function per top-level loop nest --------===//
//
// LLVM's loop passes are superlinear in the loops of one function; a step
// lowered to loops has thousands. Moving each top-level nest into its own
// (noinline) function makes code generation linear in the step's size.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/LoopOutlining.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::amp {
#define GEN_PASS_DEF_OUTLINELOOPNESTSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

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
