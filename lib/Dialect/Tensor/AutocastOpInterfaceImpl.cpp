//===- AutocastOpInterfaceImpl.cpp - autocast models for tensor -----------===//

#include "amp/Dialect/AutocastModels.h"
#include "amp/Interfaces/AutocastOpInterface.h"

#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

namespace {
/// tensor.pad and tensor.generate compute their elements in a region: kept
/// as written, and autocast does not paint inside.
template <typename OpTy>
struct PayloadBoundaryModel
    : public AutocastOpInterface::ExternalModel<PayloadBoundaryModel<OpTy>,
                                                OpTy> {
  static std::optional<OpCategory> getStructuralCategory() {
    return OpCategory::Boundary;
  }
  static bool hasPayloadRegions() { return true; }
};
} // namespace

void mlir::amp::registerTensorAutocastModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, tensor::TensorDialect *) {
    tensor::PadOp::attachInterface<PayloadBoundaryModel<tensor::PadOp>>(
        *context);
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
