//===- DropMarkers.cpp - remove the amp markers after lowering ------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Transforms/Passes.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_DROPMARKERSPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// `attrs` without the amp dialect's attributes.
static DictionaryAttr withoutMarkers(DictionaryAttr attrs) {
  if (!attrs)
    return attrs;
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute attr : attrs)
    if (attr.getName().getValue().split('.').first !=
        AMPDialect::getDialectNamespace())
      kept.push_back(attr);
  return DictionaryAttr::get(attrs.getContext(), kept);
}

void mlir::amp::dropAMPMarkers(FunctionOpInterface func) {
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    func.setArgAttrs(i, withoutMarkers(func.getArgAttrDict(i)));
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    func.setResultAttrs(i, withoutMarkers(func.getResultAttrDict(i)));
  for (NamedAttribute attr : llvm::to_vector(func->getDiscardableAttrs()))
    if (attr.getName().getValue().split('.').first ==
        AMPDialect::getDialectNamespace())
      func->removeDiscardableAttr(attr.getName());
}

namespace {
struct DropMarkersPass
    : public amp::impl::DropMarkersPassBase<DropMarkersPass> {
  void runOnOperation() override {
    WalkResult leftOver = getOperation().walk([](Operation *op) {
      // amp.all_reduce refers to no marker; bufferization lowers it.
      if (op->getDialect() && isa<AMPDialect>(op->getDialect()) &&
          !isa<AllReduceOp>(op)) {
        op->emitError("amp-drop-markers: '")
            << op->getName()
            << "' is still here; run amp-lower-ops first (it refers to the "
               "markers)";
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (leftOver.wasInterrupted())
      return signalPassFailure();
    getOperation().walk([](FunctionOpInterface func) { dropAMPMarkers(func); });
  }
};
} // namespace
