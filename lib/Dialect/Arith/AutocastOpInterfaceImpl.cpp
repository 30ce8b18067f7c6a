//===- AutocastOpInterfaceImpl.cpp - autocast models for arith ------------===//

#include "amp/Dialect/AutocastModels.h"
#include "amp/Interfaces/AutocastOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::amp;

void mlir::amp::registerArithAutocastModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, arith::ArithDialect *) {
    arith::ExtFOp::attachInterface<
        StructuralAutocastModel<arith::ExtFOp, OpCategory::Cast>>(*context);
    arith::TruncFOp::attachInterface<
        StructuralAutocastModel<arith::TruncFOp, OpCategory::Cast>>(*context);
    // A bitcast reinterprets bits: its types are not autocast's to change.
    arith::BitcastOp::attachInterface<
        StructuralAutocastModel<arith::BitcastOp, OpCategory::Boundary>>(
        *context);
  });
}
