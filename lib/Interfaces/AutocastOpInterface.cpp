//===- AutocastOpInterface.cpp - how an op runs in low precision ----------===//

#include "amp/Interfaces/AutocastOpInterface.h"

#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/Interfaces/AutocastOpInterface.cpp.inc"

StringRef mlir::amp::stringifyOpCategory(OpCategory category) {
  switch (category) {
  case OpCategory::Allow:
    return "allow";
  case OpCategory::Deny:
    return "deny";
  case OpCategory::Infer:
    return "infer";
  case OpCategory::Clear:
    return "clear";
  case OpCategory::Unknown:
    return "unknown";
  case OpCategory::Boundary:
    return "boundary";
  case OpCategory::Cast:
    return "cast";
  case OpCategory::Materializable:
    return "constant";
  case OpCategory::NoFloat:
    return "no-float";
  }
  llvm_unreachable("unhandled category");
}

/// The amp dialect's own ops (the gradient markers, the loss-scaling ops)
/// are the training graph's structure: kept as written.
static bool isAMPDialectName(StringRef opName) {
  return opName.starts_with("amp.");
}

std::optional<OpCategory>
mlir::amp::getStructuralCategory(RegisteredOperationName name) {
  if (name.hasTrait<OpTrait::IsTerminator>() ||
      name.hasInterface<CallOpInterface>() ||
      name.hasInterface<RegionBranchOpInterface>() ||
      name.hasInterface<LoopLikeOpInterface>() ||
      isAMPDialectName(name.getStringRef()))
    return OpCategory::Boundary;
  if (name.hasTrait<OpTrait::ConstantLike>())
    return OpCategory::Materializable;
  if (auto *model = name.getInterface<AutocastOpInterface>())
    return model->getStructuralCategory();
  return std::nullopt;
}

std::optional<OpCategory> mlir::amp::getStructuralCategory(Operation *op) {
  if (std::optional<RegisteredOperationName> name = op->getRegisteredInfo())
    return getStructuralCategory(*name);
  // Unregistered ops: only what the IR itself says.
  if (op->getNumRegions() == 0 && op->getNumSuccessors() == 0)
    return std::nullopt;
  return OpCategory::Boundary;
}

std::optional<OpCategory> mlir::amp::getDefaultCategory(Operation *op) {
  if (auto autocast = dyn_cast<AutocastOpInterface>(op))
    return autocast.getDefaultCategory();
  return std::nullopt;
}

bool mlir::amp::hasPayloadRegions(Operation *op) {
  auto autocast = dyn_cast<AutocastOpInterface>(op);
  return autocast && autocast.hasPayloadRegions();
}

bool mlir::amp::canRunLow(Operation *op) {
  auto autocast = dyn_cast<AutocastOpInterface>(op);
  return !autocast || autocast.canRunLow();
}

bool mlir::amp::isLowOperand(Operation *op, unsigned index) {
  auto autocast = dyn_cast<AutocastOpInterface>(op);
  return !autocast || autocast.isLowOperand(index);
}

bool mlir::amp::isAccumulatorResult(Operation *op, unsigned index) {
  auto autocast = dyn_cast<AutocastOpInterface>(op);
  return autocast && autocast.isAccumulatorResult(index);
}

void mlir::amp::retypeForLowPrecision(Operation *op, FloatType lowType) {
  if (auto autocast = dyn_cast<AutocastOpInterface>(op))
    autocast.retypeForLowPrecision(lowType);
}
