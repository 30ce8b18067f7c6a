//===- PrecisionReport.cpp - what precision each op runs in ---------------===//
//
// Reads the types of an (already rewritten) graph and tells, per function,
// how many ops of each policy category run low or f32, how many float casts
// there are, and the bytes of float tensors produced compared with the
// same graph in f32. It changes nothing.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Dialect/AutocastModels.h"

#include "amp/Analysis/PrecisionPolicy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::amp {
#define GEN_PASS_DEF_PRECISIONREPORTPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
struct FunctionReport {
  // [category][0 = f32, 1 = low]
  unsigned counts[4][2] = {};
  unsigned unknown = 0;
  unsigned casts = 0;
  uint64_t f32Bytes = 0;
  uint64_t mixedBytes = 0;
  uint64_t castBytes = 0;
};
} // namespace

/// True when a float value of `type` is narrower than f32.
static bool isLowFloat(Type type) {
  auto element = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  return element && element.getWidth() < 32;
}

/// Bytes of a statically shaped float tensor at `bitWidth` bits an element.
static uint64_t tensorBytes(Type type, unsigned bitWidth) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape() ||
      !isa<FloatType>(tensor.getElementType()))
    return 0;
  return tensor.getNumElements() * bitWidth / 8;
}

static FunctionReport analyze(FunctionOpInterface func,
                              const PrecisionPolicy &policy) {
  FunctionReport report;
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    OpCategory category = policy.classify(op, /*anyFloatWidth=*/true);
    bool isCast = category == OpCategory::Cast;
    // Activations: tensors computed by the graph's own ops. Cast outputs
    // are counted apart: they do not exist in the f32 graph.
    if (category != OpCategory::Materializable)
      for (Type type : op->getResultTypes()) {
        if (!isa<FloatType>(getElementTypeOrSelf(type)))
          continue;
        unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
        if (isCast) {
          report.castBytes += tensorBytes(type, width);
          continue;
        }
        report.mixedBytes += tensorBytes(type, width);
        report.f32Bytes += tensorBytes(type, isLowFloat(type) ? 32 : width);
      }
    bool low = llvm::any_of(op->getOperandTypes(), isLowFloat) ||
               llvm::any_of(op->getResultTypes(), isLowFloat);
    switch (category) {
    case OpCategory::Allow:
    case OpCategory::Deny:
    case OpCategory::Infer:
    case OpCategory::Clear:
      ++report.counts[static_cast<int>(category)][low];
      break;
    case OpCategory::Unknown:
      ++report.unknown;
      break;
    case OpCategory::Cast:
      ++report.casts;
      break;
    default:
      break;
    }
    return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                     : WalkResult::advance();
  });
  return report;
}

static void print(raw_ostream &os, StringRef name,
                  const FunctionReport &report) {
  os << "amp precision report for @" << name << "\n";
  os << llvm::format("  %-10s %8s %8s\n", "category", "low", "f32");
  for (OpCategory category : {OpCategory::Allow, OpCategory::Deny,
                              OpCategory::Infer, OpCategory::Clear}) {
    const unsigned *row = report.counts[static_cast<int>(category)];
    os << llvm::format("  %-10s %8u %8u\n",
                       stringifyOpCategory(category).str().c_str(), row[1],
                       row[0]);
  }
  os << llvm::format("  %-10s %8s %8u\n", "unknown", "-", report.unknown);
  os << "  casts: " << report.casts << " (" << report.castBytes
     << " bytes written)\n";
  double ratio =
      report.f32Bytes ? 100.0 * report.mixedBytes / report.f32Bytes : 100.0;
  os << "  activation bytes: f32 " << report.f32Bytes << ", mixed "
     << report.mixedBytes << llvm::format(" (%.1f%%)\n", ratio);
}

namespace {
struct PrecisionReportPass
    : public amp::impl::PrecisionReportPassBase<PrecisionReportPass> {
  using PrecisionReportPassBase::PrecisionReportPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    registerAutocastModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    auto emitError = [&] {
      return mlir::emitError(module.getLoc(), "amp-precision-report: ");
    };
    PrecisionPolicy policy = PrecisionPolicy::getDefault();
    if (!policyFile.empty() &&
        failed(policy.loadFile(policyFile, &getContext(), emitError)))
      return signalPassFailure();

    std::string errorMessage;
    std::unique_ptr<llvm::ToolOutputFile> file;
    if (outputFile != "-") {
      file = openOutputFile(outputFile, &errorMessage);
      if (!file) {
        emitError() << errorMessage;
        return signalPassFailure();
      }
    }
    raw_ostream &os = file ? file->os() : llvm::errs();
    for (auto func : module.getOps<FunctionOpInterface>())
      if (!func.isExternal())
        print(os, func.getName(), analyze(func, policy));
    if (file) {
      // A write error (a full disk) fails the pass and leaves no report.
      file->os().flush();
      if (file->os().has_error()) {
        emitError() << "cannot write '" << outputFile
                    << "': " << file->os().error().message();
        file->os().clear_error();
        return signalPassFailure();
      }
      file->keep();
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
