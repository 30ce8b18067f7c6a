//===- Copies.cpp - which buffer copies the GPU does in one piece ---------===//

#include "amp/Utils/Copies.h"

using namespace mlir;

bool mlir::amp::isWholeBufferCopy(memref::CopyOp copy) {
  auto source = dyn_cast<MemRefType>(copy.getSource().getType());
  auto target = dyn_cast<MemRefType>(copy.getTarget().getType());
  return source && target && source.getLayout().isIdentity() &&
         target.getLayout().isIdentity() && source.hasStaticShape() &&
         source.getShape() == target.getShape();
}
