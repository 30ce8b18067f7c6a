//===- PolicyFuzzer.cpp - the autocast policy-file parser -----------------===//
//
// Any bytes as a policy file: a located error or a policy, never a crash.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Dialect/AutocastModels.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static amp_fuzz::InputFile file;
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registry.insert<arith::ArithDialect, linalg::LinalgDialect,
                    math::MathDialect, tensor::TensorDialect,
                    tosa::TosaDialect>();
    amp::registerAutocastModels(registry);
    auto *ctx = new MLIRContext(registry);
    ctx->getDiagEngine().registerHandler([](Diagnostic &) {});
    return ctx;
  }();
  amp::PrecisionPolicy policy = amp::PrecisionPolicy::getDefault();
  std::optional<amp::LowPrecision> precision;
  (void)policy.loadFile(file.write(data, size), context,
                        [&] { return emitError(UnknownLoc::get(context)); },
                        &precision);
  return 0;
}
