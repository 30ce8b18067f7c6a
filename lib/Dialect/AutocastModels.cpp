//===- AutocastModels.cpp - every upstream dialect's autocast models ------===//

#include "amp/Dialect/AutocastModels.h"

void mlir::amp::registerAutocastModels(DialectRegistry &registry) {
  registerArithAutocastModels(registry);
  registerLinalgAutocastModels(registry);
  registerTensorAutocastModels(registry);
  registerTosaAutocastModels(registry);
}
