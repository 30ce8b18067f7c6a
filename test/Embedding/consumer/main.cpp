// Embeds amp-mlir in a host compiler: register, parse, run a pipeline.
#include "amp/InitAMP.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModule = R"mlir(
func.func @matmul(%a: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, mlir::tosa::TosaDialect>();
  mlir::amp::registerAMPDialect(registry); // 1
  mlir::amp::registerAllAMPPasses();       // 2
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  mlir::PassManager pm(&context);
  if (!module ||
      mlir::failed(mlir::parsePassPipeline( // 3
          "amp-autocast{precision=bf16}", pm)) ||
      mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
