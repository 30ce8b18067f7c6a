//===- AutocastOpInterfaceImpl.cpp - autocast models for TOSA -------------===//

#include "amp/Dialect/AutocastModels.h"
#include "amp/Interfaces/AutocastOpInterface.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {

/// tosa.matmul: low inputs (and zero points), an f32 accumulation.
struct MatMulModel
    : public AutocastOpInterface::ExternalModel<MatMulModel, tosa::MatMulOp> {
  bool isAccumulatorResult(Operation *, unsigned) const { return true; }
};

/// Convolutions: the bias (operand 2) is added to the f32 accumulator.
template <typename OpTy>
struct ConvolutionModel
    : public AutocastOpInterface::ExternalModel<ConvolutionModel<OpTy>, OpTy> {
  bool isLowOperand(Operation *, unsigned index) const { return index != 2; }
  bool isAccumulatorResult(Operation *, unsigned) const { return true; }
};

/// TOSA sums accumulate in their result type and cannot take low inputs
/// with an f32 result: in low precision they would accumulate low.
template <typename OpTy>
struct SumModel
    : public AutocastOpInterface::ExternalModel<SumModel<OpTy>, OpTy> {
  bool canRunLow(Operation *) const { return false; }
};

/// tosa.clamp's float bounds are typed by the element type.
struct ClampModel
    : public AutocastOpInterface::ExternalModel<ClampModel, tosa::ClampOp> {
  void retypeForLowPrecision(Operation *op, FloatType lowType) const {
    for (StringRef name : {"min_val", "max_val"}) {
      auto bound = dyn_cast_or_null<FloatAttr>(op->getAttr(name));
      if (bound && bound.getType() != lowType)
        op->setAttr(name, convertFloatAttr(bound, lowType));
    }
  }
};

template <typename... OpTys>
void attachBoundaryModels(MLIRContext *context) {
  (OpTys::template attachInterface<
       StructuralAutocastModel<OpTys, OpCategory::Boundary>>(*context),
   ...);
}

template <typename... OpTys>
void attachConvolutionModels(MLIRContext *context) {
  (OpTys::template attachInterface<ConvolutionModel<OpTys>>(*context), ...);
}

} // namespace

void mlir::amp::registerTosaAutocastModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tosa::TosaDialect *) {
    tosa::MatMulOp::attachInterface<MatMulModel>(*context);
    attachConvolutionModels<tosa::Conv2DOp, tosa::Conv3DOp,
                            tosa::DepthwiseConv2DOp, tosa::TransposeConv2DOp>(
        context);
    tosa::ReduceSumOp::attachInterface<SumModel<tosa::ReduceSumOp>>(*context);
    tosa::ReduceProductOp::attachInterface<SumModel<tosa::ReduceProductOp>>(
        *context);
    tosa::ClampOp::attachInterface<ClampModel>(*context);
    tosa::CastOp::attachInterface<
        StructuralAutocastModel<tosa::CastOp, OpCategory::Cast>>(*context);
    // Control flow without RegionBranchOpInterface, stateful variables, and
    // block-scaled (MX) formats, which are already low precision.
    attachBoundaryModels<tosa::IfOp, tosa::VariableOp, tosa::VariableReadOp,
                         tosa::VariableWriteOp, tosa::MatmulTBlockScaledOp,
                         tosa::CastToBlockScaledOp>(context);
  });
}
