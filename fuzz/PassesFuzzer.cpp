//===- PassesFuzzer.cpp - amp-opt's passes on parsed IR -------------------===//
//
// Any bytes that parse (and verify) as MLIR go through --amp-pipeline and
// --amp-precision-report: they may fail with diagnostics, never crash, and
// what they produce must verify.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAMP.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstdlib>

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerAllDialects(registry);
    amp::registerAMPDialect(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->loadAllAvailableDialects();
    ctx->getDiagEngine().registerHandler([](Diagnostic &) {});
    return ctx;
  }();
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, context);
  if (!module)
    return 0;
  for (auto precision : {amp::LowPrecision::F16, amp::LowPrecision::BF16}) {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(context);
    amp::AMPPipelineOptions options;
    options.precision = precision;
    amp::buildAMPPipeline(pm, options);
    amp::PrecisionReportPassOptions report;
    report.outputFile = "/dev/null";
    pm.addPass(amp::createPrecisionReportPass(report));
    // A pass that succeeds must leave valid IR (the pass manager verifies
    // after each pass; a failure here is a bug).
    if (succeeded(pm.run(*copy)) && failed(verify(*copy)))
      std::abort();
  }
  return 0;
}
