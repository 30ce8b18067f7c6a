//===- amp-opt.cpp - opt-style driver for the amp passes ------------------===//
//
// Registers the amp dialect and passes next to every upstream dialect and
// pass, so that users can mix ours with the usual MLIR pipelines.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAMP.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef AMP_INCLUDE_TESTS
#include "TestAutocastDialect.h"
#endif

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::amp::registerAllAMPPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary (amp-lower-to-cuda) translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::amp::registerAMPDialect(registry);
#ifdef AMP_INCLUDE_TESTS
  // A dialect outside amp-mlir, for the tests of the AutocastOpInterface.
  amp_test::registerTestAutocastDialect(registry);
#endif

  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "amp-mlir optimizer driver\n", registry));
}
