//===- BufferizableOpInterfaceImpl.cpp - amp ops in bufferization ---------===//
//
// A packed `amp.all_reduce` (one 1-D tensor, what amp-lower-ops leaves)
// reduces its operand's buffer in place: it reads and writes the operand
// and its result is that same buffer. One-shot analysis copies the operand
// first when another reader still needs the rank's own value. The op then
// becomes the call of runtime/include/amprt_collectives.def for its
// element type.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/Transforms/BufferizableOpInterfaceImpl.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"
#include "amp/Utils/RuntimeCalls.h"

#include "amprt_comm.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::bufferization;

static_assert(AMPRT_REDUCE_SUM == static_cast<int>(Reduction::Sum) &&
                  AMPRT_REDUCE_MEAN == static_cast<int>(Reduction::Mean) &&
                  AMPRT_REDUCE_MAX == static_cast<int>(Reduction::Max),
              "amp.all_reduce's reductions are passed to libamprt as is");

/// Whether libamprt has an all-reduce for `element`.
static bool hasRuntimeAllReduce(Type element) {
  std::string name = getRuntimeTypeName(element);
#define AMPRT_ALL_REDUCE(NAME, ELEMENT_TYPE, C_TYPE, DTYPE)                    \
  if (name == #ELEMENT_TYPE)                                                   \
    return true;
#include "amprt_collectives.def"
  return false;
}

namespace {
struct AllReduceOpInterface
    : public BufferizableOpInterface::ExternalModel<AllReduceOpInterface,
                                                    AllReduceOp> {
  bool bufferizesToMemoryRead(Operation *op, OpOperand &opOperand,
                              const AnalysisState &state) const {
    return true;
  }

  bool bufferizesToMemoryWrite(Operation *op, OpOperand &opOperand,
                               const AnalysisState &state) const {
    return true;
  }

  AliasingValueList getAliasingValues(Operation *op, OpOperand &opOperand,
                                      const AnalysisState &state) const {
    return {{op->getResult(opOperand.getOperandNumber()),
             BufferRelation::Equivalent}};
  }

  LogicalResult bufferize(Operation *op, RewriterBase &rewriter,
                          const BufferizationOptions &options,
                          BufferizationState &state) const {
    auto reduce = cast<AllReduceOp>(op);
    if (reduce.getValues().size() != 1 ||
        cast<RankedTensorType>(reduce.getValues().front().getType())
                .getRank() != 1)
      return op->emitError("amp.all_reduce must be packed into one 1-D "
                           "tensor before bufferization (run amp-lower-ops)");
    Type element = getElementTypeOrSelf(reduce.getValues().front().getType());
    if (!hasRuntimeAllReduce(element))
      return op->emitError("the runtime has no all-reduce of ") << element;
    FailureOr<Value> buffer =
        getBuffer(rewriter, reduce.getValues().front(), options, state);
    if (failed(buffer))
      return failure();
    Location loc = op->getLoc();
    Value view = memref::CastOp::create(
        rewriter, loc, getFullyDynamicStridedType(element, 1), *buffer);
    Value reduction = arith::ConstantIntOp::create(
        rewriter, loc, static_cast<int64_t>(reduce.getReduction()), 32);
    SmallVector<Value> operands = {view, reduction};
    std::string name = "amp_rt_all_reduce_" + getRuntimeTypeName(element);
    func::FuncOp callee = declareRuntimeFunction(
        op->getParentOfType<ModuleOp>(), name, operands);
    func::CallOp::create(rewriter, loc, callee, operands);
    replaceOpWithBufferizedValues(rewriter, op, *buffer);
    return success();
  }
};
} // namespace

void mlir::amp::registerBufferizableOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, AMPDialect *dialect) {
    AllReduceOp::attachInterface<AllReduceOpInterface>(*context);
  });
}
