//===- PrecisionReport.cpp - what precision each op runs in ---------------===//
//
// Reads the types of an (already rewritten) graph and tells, per function,
// how many ops of each policy category run low or f32, how many float casts
// there are, the bytes of float tensors produced, and (for a training step)
// the bytes the forward pass keeps for the backward pass, each compared
// with the same graph in f32. It changes nothing.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AutocastModels.h"

#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
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
  /// Bytes of the forward values the backward pass reads; absent for a
  /// function without an `amp.loss` result.
  std::optional<std::pair<uint64_t, uint64_t>> savedBytes; // f32, mixed
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

/// The value `op` converts to another float type: the input of a cast op,
/// or of a linalg.generic that is nothing but a cast; null otherwise.
static Value getCastInput(Operation *op, const PrecisionPolicy &policy) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return getElementwiseFloatCast(generic) ? generic.getDpsInputs().front()
                                            : nullptr;
  if (op->getNumOperands() > 0 &&
      policy.classify(op, /*anyFloatWidth=*/true) == OpCategory::Cast)
    return op->getOperand(0);
  return nullptr;
}

/// The ops of `block` that the value `root` is computed from, through the
/// values their nested regions capture too.
static llvm::SmallPtrSet<Operation *, 32> getDefiningOps(Block &block,
                                                         Value root) {
  llvm::SmallPtrSet<Operation *, 32> ops;
  SmallVector<Operation *> worklist;
  auto visit = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (!def)
      return;
    Operation *ancestor = block.findAncestorOpInBlock(*def);
    if (ancestor && ops.insert(ancestor).second)
      worklist.push_back(ancestor);
  };
  visit(root);
  while (!worklist.empty())
    worklist.pop_back_val()->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        visit(operand);
    });
  return ops;
}

/// The bytes of activations: every value the forward pass (what the loss is
/// computed from) produces and anything after it reads, at its type, against
/// the same graph in f32, where a cast is its input and a value kept at two
/// precisions is kept once. A reshape or a widening cast is its input's
/// memory; an argument (the caller's memory) and a constant count nothing.
/// The peak of a step is often where these and the first gradients are
/// alive together.
static std::optional<std::pair<uint64_t, uint64_t>>
getSavedBytes(FunctionOpInterface func, const PrecisionPolicy &policy) {
  std::optional<unsigned> loss;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (func.getResultAttr(i, AMPDialect::kLossAttrName))
      loss = i;
  Region &body = func.getFunctionBody();
  if (!loss || !body.hasOneBlock())
    return std::nullopt;
  Block &block = body.front();
  Operation *terminator = block.getTerminator();
  llvm::SmallPtrSet<Operation *, 32> forward =
      getDefiningOps(block, terminator->getOperand(*loss));

  auto readAfterForward = [&](Value value) {
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      Operation *ancestor = block.findAncestorOpInBlock(*user);
      return ancestor && ancestor != terminator && !forward.contains(ancestor);
    });
  };
  // The value whose memory `value` is: through reshapes (views once
  // bufferized) and widening casts (lossless: the lowering widens in the
  // readers instead of keeping a copy) and, for the f32 graph, through
  // every cast.
  auto getStorage = [&](Value value, bool inF32) {
    while (Operation *def = value.getDefiningOp()) {
      if (isa<tosa::ReshapeOp, tensor::ExpandShapeOp, tensor::CollapseShapeOp>(
              def)) {
        value = def->getOperand(0);
        continue;
      }
      Value input = getCastInput(def, policy);
      if (!input || !(inF32 || getElementTypeOrSelf(input.getType())
                                       .getIntOrFloatBitWidth() <
                                   getElementTypeOrSelf(value.getType())
                                       .getIntOrFloatBitWidth()))
        break;
      value = input;
    }
    return value;
  };
  // Bytes of `storage` in a graph, once; an argument is the caller's, a
  // constant no activation.
  auto countOnce = [&](llvm::DenseSet<Value> &counted, Value storage,
                       bool asF32) -> uint64_t {
    Operation *def = storage.getDefiningOp();
    if (!def || policy.classify(def, /*anyFloatWidth=*/true) ==
                    OpCategory::Materializable)
      return 0;
    if (!counted.insert(storage).second)
      return 0;
    Type type = storage.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    return tensorBytes(type, asF32 && isLowFloat(type) ? 32 : width);
  };
  llvm::DenseSet<Value> countedF32, countedMixed;
  uint64_t f32Bytes = 0, mixedBytes = 0;
  for (Operation &op : block) {
    if (!forward.contains(&op))
      continue;
    for (Value value : op.getResults()) {
      if (!isa<FloatType>(getElementTypeOrSelf(value.getType())) ||
          !readAfterForward(value))
        continue;
      mixedBytes += countOnce(countedMixed, getStorage(value, false), false);
      f32Bytes += countOnce(countedF32, getStorage(value, true), true);
    }
  }
  return std::make_pair(f32Bytes, mixedBytes);
}

static FunctionReport analyze(FunctionOpInterface func,
                              const PrecisionPolicy &policy) {
  FunctionReport report;
  report.savedBytes = getSavedBytes(func, policy);
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
  if (report.savedBytes) {
    auto [f32Saved, mixedSaved] = *report.savedBytes;
    os << "  saved for backward: f32 " << f32Saved << ", mixed " << mixedSaved
       << llvm::format(" (%.1f%%)\n",
                       f32Saved ? 100.0 * mixedSaved / f32Saved : 100.0);
  }
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
