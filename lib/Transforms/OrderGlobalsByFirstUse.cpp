//===- OrderGlobalsByFirstUse.cpp - deterministic order of memref.globals -===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::amp {
#define GEN_PASS_DEF_ORDERGLOBALSBYFIRSTUSEPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct OrderGlobalsByFirstUsePass
    : public amp::impl::OrderGlobalsByFirstUsePassBase<
          OrderGlobalsByFirstUsePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    DenseMap<StringAttr, size_t> firstUse;
    module.walk([&](memref::GetGlobalOp get) {
      firstUse.try_emplace(get.getNameAttr().getAttr(), firstUse.size());
    });
    SmallVector<memref::GlobalOp> globals(
        module.getBody()->getOps<memref::GlobalOp>());
    auto key = [&](memref::GlobalOp global) {
      auto use = firstUse.find(global.getSymNameAttr());
      return std::make_pair(use == firstUse.end() ? firstUse.size()
                                                  : use->second,
                            global.getSymName());
    };
    llvm::stable_sort(globals, [&](memref::GlobalOp a, memref::GlobalOp b) {
      return key(a) < key(b);
    });
    Block *body = module.getBody();
    for (memref::GlobalOp global : llvm::reverse(globals))
      global->moveBefore(body, body->begin());
  }
};
} // namespace
