//===- AutocastOpInterfaceImpl.cpp - autocast models for tensor -----------===//

#include "amp/Dialect/AutocastModels.h"
#include "amp/Interfaces/AutocastOpInterface.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::amp;

/// The constant every padded element of `op` gets, if it has one.
static std::optional<APFloat> getConstantPadding(tensor::PadOp op) {
  Value yielded = op.getConstantPaddingValue();
  FloatAttr value;
  if (!yielded || !matchPattern(yielded, m_Constant(&value)))
    return std::nullopt;
  return value.getValue();
}

/// Whether `value` converts to f16 and to bf16 exactly.
static bool isExactInHalfTypes(const APFloat &value) {
  for (const llvm::fltSemantics *semantics :
       {&APFloat::IEEEhalf(), &APFloat::BFloat()}) {
    APFloat converted = value;
    bool lostInfo = false;
    APFloat::opStatus status = converted.convert(
        *semantics, APFloat::rmNearestTiesToEven, &lostInfo);
    if (lostInfo || (status & APFloat::opOverflow))
      return false;
  }
  return true;
}

namespace {
/// tensor.generate computes its elements in a region: kept as written, and
/// autocast does not paint inside.
template <typename OpTy>
struct PayloadBoundaryModel
    : public AutocastOpInterface::ExternalModel<PayloadBoundaryModel<OpTy>,
                                                OpTy> {
  static std::optional<OpCategory> getStructuralCategory() {
    return OpCategory::Boundary;
  }
  static bool hasPayloadRegions() { return true; }
};

/// tensor.pad moves data (clear in the default policy): with a constant
/// padding value both half types hold exactly (zeros, a max-pool's -inf)
/// it pads a low tensor as well as an f32 one, so that the cast happens
/// before it, on the smaller tensor, and a convolution can still take its
/// input unpadded. Its region computes elements: autocast does not paint
/// inside.
struct PadModel
    : public AutocastOpInterface::ExternalModel<PadModel, tensor::PadOp> {
  static bool hasPayloadRegions() { return true; }

  bool canRunLow(Operation *op) const {
    std::optional<APFloat> padding =
        getConstantPadding(cast<tensor::PadOp>(op));
    return padding && isExactInHalfTypes(*padding);
  }

  void retypeForLowPrecision(Operation *op, FloatType lowType) const {
    Operation *yield = cast<tensor::PadOp>(op).getBody()->getTerminator();
    OpBuilder builder(yield);
    Value padding = yield->getOperand(0);
    yield->setOperand(0, createFloatConversion(builder, yield->getLoc(),
                                               padding, lowType));
  }
};
} // namespace

void mlir::amp::registerTensorAutocastModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    tensor::PadOp::attachInterface<PadModel>(*context);
    tensor::GenerateOp::attachInterface<
        PayloadBoundaryModel<tensor::GenerateOp>>(*context);
    tensor::BitcastOp::attachInterface<
        StructuralAutocastModel<tensor::BitcastOp, OpCategory::Boundary>>(
        *context);
    // An empty tensor has no values: made in whatever type a user needs.
    tensor::EmptyOp::attachInterface<
        StructuralAutocastModel<tensor::EmptyOp, OpCategory::Materializable>>(
        *context);
  });
}
