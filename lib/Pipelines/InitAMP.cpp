//===- InitAMP.cpp - register everything amp-mlir provides ----------------===//

#include "amp/InitAMP.h"

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/Transforms/BufferizableOpInterfaceImpl.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"

#include <mutex>

void mlir::amp::registerAMPDialect(DialectRegistry &registry) {
  registry.insert<AMPDialect>();
  registerBufferizableOpInterfaceExternalModels(registry);
}

void mlir::amp::registerAllAMPPasses() {
  static std::once_flag once;
  std::call_once(once, [] {
    registerAMPPasses();
    registerAMPConversionPasses();
    registerAMPPipelines();
  });
}
