//===- AMPPlugin.cpp - amp-mlir as an mlir-opt plugin ---------------------===//
//
//   mlir-opt-22 --load-dialect-plugin=libAMPPlugin.so \
//               --load-pass-plugin=libAMPPlugin.so --amp-pipeline ...
//
// One shared object serves both flags. It links Debian's libMLIR.so, the
// same one mlir-opt-22 uses, so registries are shared, not duplicated.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAMP.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AMP", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            mlir::amp::registerAMPDialect(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "AMP", LLVM_VERSION_STRING,
          [] { mlir::amp::registerAllAMPPasses(); }};
}
