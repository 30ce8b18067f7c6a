//===- StridedCopiesToLinalg.cpp - strided copies as loop nests -----------===//
//
// A memref.copy between strided views (a concatenation into a subview, a
// transposed slice) lowers to the host's element-by-element memrefCopy,
// which on the CUDA path makes the host wait for the GPU and read and
// write device buffers. As a linalg.copy it becomes a parallel loop nest:
// a kernel. Copies between whole buffers stay memref.copy, which the CUDA
// path turns into one cuMemcpyAsync.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"
#include "amp/Utils/Copies.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::amp {
#define GEN_PASS_DEF_STRIDEDCOPIESTOLINALGPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct StridedCopiesToLinalgPass
    : public amp::impl::StridedCopiesToLinalgPassBase<
          StridedCopiesToLinalgPass> {
  void runOnOperation() override {
    SmallVector<memref::CopyOp> copies;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!isWholeBufferCopy(copy))
        copies.push_back(copy);
    });
    for (memref::CopyOp copy : copies) {
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    }
  }
};
} // namespace
