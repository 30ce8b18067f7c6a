//===- PassesFuzzer.cpp - amp-opt's passes on generated graphs ------------===//
//
// Structure-aware: the input bytes choose a graph (ops from TOSA, arith and
// math on tensor<1x4x4xf32>, amp.keep_f32/force_low attributes, and
// optionally the training markers: params, a loss, its seed, gradients and
// updates), written as MLIR text from valid templates and parsed. Every
// such graph goes through --amp-autocast (f16 and bf16, both cast
// dialects), --amp-pipeline and --amp-precision-report: they may fail with
// diagnostics, never crash, and what succeeds must verify. (Fuzzing
// MLIR's own parsers is upstream's business: mutated text crashes some of
// MLIR 22's custom op parsers, e.g. linalg.reduce's.)
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
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// Reads the input one choice at a time (zeros once it is used up).
class Choices {
public:
  Choices(const uint8_t *data, size_t size) : data(data), size(size) {}
  unsigned next(unsigned bound) {
    return bound == 0 ? 0 : (offset < size ? data[offset++] : 0) % bound;
  }
  bool done() const { return offset >= size; }

private:
  const uint8_t *data;
  size_t size;
  size_t offset = 0;
};

constexpr const char *kType = "tensor<1x4x4xf32>";

/// A training-step-shaped function chosen by `choices`, as MLIR text.
std::string generateGraph(Choices &choices) {
  unsigned numArgs = 1 + choices.next(4);
  bool training = choices.next(2);
  std::vector<std::string> values;
  std::vector<bool> isParam(numArgs);
  std::string body;
  auto value = [&] { return values[choices.next(values.size())]; };
  auto fresh = [&] { return "%v" + std::to_string(values.size()); };
  auto attrs = [&] {
    switch (choices.next(8)) {
    case 0:
      return std::string(" {amp.keep_f32}");
    case 1:
      return std::string(" {amp.force_low}");
    default:
      return std::string();
    }
  };
  for (unsigned i = 0; i < numArgs; ++i) {
    values.push_back("%a" + std::to_string(i));
    // A training step has at least one param (else loss scaling has
    // nothing to unscale and the pipeline stops early).
    isParam[i] = training && (i == 0 || choices.next(2));
  }
  body += "  %shift = \"tosa.const\"() <{values = dense<0> : tensor<1xi8>}> "
          ": () -> tensor<1xi8>\n"
          "  %zp = \"tosa.const\"() <{values = dense<0.0> : tensor<1xf32>}> "
          ": () -> tensor<1xf32>\n";
  const std::string t = kType;
  unsigned numOps = 1 + choices.next(24);
  for (unsigned n = 0; n < numOps && !choices.done(); ++n) {
    std::string out = fresh(), line;
    switch (choices.next(16)) {
    case 0:
    case 1: {
      static const char *binary[] = {"tosa.add", "tosa.sub", "tosa.maximum",
                                     "tosa.minimum"};
      line = out + " = \"" + binary[choices.next(4)] + "\"(" + value() + ", " +
             value() + ")" + attrs() + " : (" + t + ", " + t + ") -> " + t;
      break;
    }
    case 2:
      line = out + " = \"tosa.mul\"(" + value() + ", " + value() +
             ", %shift)" + attrs() + " : (" + t + ", " + t +
             ", tensor<1xi8>) -> " + t;
      break;
    case 3:
    case 4:
      line = out + " = \"tosa.matmul\"(" + value() + ", " + value() +
             ", %zp, %zp)" + attrs() + " : (" + t + ", " + t +
             ", tensor<1xf32>, tensor<1xf32>) -> " + t;
      break;
    case 5:
    case 6: {
      static const char *unary[] = {"tosa.exp",   "tosa.tanh",
                                    "tosa.sigmoid", "tosa.abs",
                                    "tosa.reciprocal", "tosa.erf"};
      line = out + " = \"" + unary[choices.next(6)] + "\"(" + value() + ")" +
             attrs() + " : (" + t + ") -> " + t;
      break;
    }
    case 7:
      line = out + " = \"tosa.transpose\"(" + value() +
             ") <{perms = array<i32: 0, 2, 1>}>" + attrs() + " : (" + t +
             ") -> " + t;
      break;
    case 8:
      line = out + " = \"tosa.clamp\"(" + value() +
             ") <{min_val = -1.0 : f32, max_val = 1.0 : f32}>" + attrs() +
             " : (" + t + ") -> " + t;
      break;
    case 9: {
      std::string low = out + "h";
      line = low + " = \"tosa.cast\"(" + value() + ") : (" + t +
             ") -> tensor<1x4x4xf16>\n  " + out + " = \"tosa.cast\"(" + low +
             ") : (tensor<1x4x4xf16>) -> " + t;
      break;
    }
    case 10:
      line = out + " = \"tosa.const\"() <{values = dense<" +
             std::to_string(choices.next(5)) + ".5> : " + t + "}> : () -> " +
             t;
      break;
    case 11: {
      static const char *arith[] = {"arith.addf", "arith.mulf", "arith.subf"};
      line = out + " = \"" + arith[choices.next(3)] + "\"(" + value() + ", " +
             value() + ")" + attrs() + " : (" + t + ", " + t + ") -> " + t;
      break;
    }
    case 12: {
      static const char *math[] = {"math.exp", "math.tanh", "math.sqrt"};
      line = out + " = \"" + math[choices.next(3)] + "\"(" + value() + ")" +
             attrs() + " : (" + t + ") -> " + t;
      break;
    }
    case 13:
      line = out + " = \"tosa.reduce_sum\"(" + value() +
             ") <{axis = 1 : i32}> : (" + t +
             ") -> tensor<1x1x4xf32>\n  " + out + "b = \"tosa.add\"(" +
             value() + ", " + out + ") : (" + t +
             ", tensor<1x1x4xf32>) -> " + t;
      out += "b";
      break;
    default:
      line = out + " = \"tosa.negate\"(" + value() + ", %zp, %zp)" + attrs() +
             " : (" + t + ", tensor<1xf32>, tensor<1xf32>) -> " + t;
      break;
    }
    body += "  " + line + "\n";
    values.push_back(out);
  }

  std::string signature, results, returns, returnTypes;
  for (unsigned i = 0; i < numArgs; ++i)
    signature += std::string(i ? ", " : "") + "%a" + std::to_string(i) +
                 ": " + t + (isParam[i] ? " {amp.param}" : "");
  if (!training) {
    std::string last = values.back();
    return "func.func @graph(" + signature + ") -> " + t + " {\n" + body +
           "  return " + last + " : " + t + "\n}\n";
  }
  // The loss (a one-element sum of the last value), its seed, a gradient
  // and an SGD update for each param.
  std::string last = values.back();
  body += "  %r1 = \"tosa.reduce_sum\"(" + last +
          ") <{axis = 1 : i32}> : (" + t + ") -> tensor<1x1x4xf32>\n"
          "  %loss = \"tosa.reduce_sum\"(%r1) <{axis = 2 : i32}> : "
          "(tensor<1x1x4xf32>) -> tensor<1x1x1xf32>\n"
          "  %seed = \"amp.loss_grad\"(%loss) : (tensor<1x1x1xf32>) -> "
          "tensor<1x1x1xf32>\n";
  results = "tensor<1x1x1xf32> {amp.loss}";
  returns = "%loss";
  returnTypes = "tensor<1x1x1xf32>";
  for (unsigned i = 0; i < numArgs; ++i) {
    if (!isParam[i])
      continue;
    std::string id = std::to_string(i);
    body += "  %d" + id + " = \"tosa.mul\"(" + value() +
            ", %seed, %shift) : (" + t +
            ", tensor<1x1x1xf32>, tensor<1xi8>) -> " + t + "\n"
            "  %g" + id + " = \"amp.grad\"(%d" + id + ") {param = " + id +
            " : i64} : (" + t + ") -> " + t + "\n"
            "  %u" + id + " = \"tosa.sub\"(%a" + id + ", %g" + id + ") : (" + t +
            ", " + t + ") -> " + t + "\n";
    results += ", " + t + " {amp.update_of = " + id + " : i64}";
    returns += ", %u" + id;
    returnTypes += ", " + t;
  }
  return "func.func @step(" + signature + ") -> (" + results + ") {\n" + body +
         "  return " + returns + " : " + returnTypes + "\n}\n";
}

} // namespace

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
  Choices choices(data, size);
  std::string text = generateGraph(choices);
  if (std::getenv("AMP_FUZZ_PRINT"))
    std::fputs(text.c_str(), stderr);
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, context);
  if (!module)
    return 0; // a template the verifier refuses (e.g. a bad training shape)

  auto check = [&](function_ref<void(OpPassManager &)> build) {
    OwningOpRef<ModuleOp> copy = module->clone();
    PassManager pm(context);
    build(pm);
    // The pass manager verifies after each pass: a pass that succeeds
    // must leave valid IR.
    if (succeeded(pm.run(*copy)) && failed(verify(*copy)))
      std::abort();
  };
  for (auto precision : {amp::LowPrecision::F16, amp::LowPrecision::BF16}) {
    for (auto casts : {amp::CastDialect::Tosa, amp::CastDialect::Arith})
      check([&](OpPassManager &pm) {
        amp::AutocastPassOptions autocast;
        autocast.precision = precision;
        autocast.castDialect = casts;
        pm.addPass(amp::createAutocastPass(autocast));
        amp::PrecisionReportPassOptions report;
        report.outputFile = "/dev/null";
        pm.addPass(amp::createPrecisionReportPass(report));
      });
    check([&](OpPassManager &pm) {
      amp::AMPPipelineOptions options;
      options.precision = precision;
      amp::buildAMPPipeline(pm, options);
    });
  }
  return 0;
}
