//===- PrecisionPainting.cpp - global low/f32 decision per function -------===//

#include "amp/Analysis/PrecisionPainting.h"

#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/Interfaces/ControlFlowInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

StringRef mlir::amp::stringifyPaintReason(PaintReason reason) {
  switch (reason) {
  case PaintReason::Policy:
    return "category";
  case PaintReason::Propagated:
    return "neighbours";
  case PaintReason::Attribute:
    return "amp attribute";
  case PaintReason::Optimizer:
    return "optimizer";
  case PaintReason::Loss:
    return "loss";
  case PaintReason::Unsupported:
    return "no f32 accumulation in low precision";
  }
  llvm_unreachable("unhandled reason");
}

//===----------------------------------------------------------------------===//
// Painting
//===----------------------------------------------------------------------===//

PrecisionPainting::PrecisionPainting(FunctionOpInterface func,
                                     const PrecisionPolicy &policy,
                                     FloatType lowType)
    : lowType(lowType) {
  func->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == func.getOperation())
      return WalkResult::advance();
    ops.push_back(op);
    return hasPayloadRegions(op) ? WalkResult::skip() : WalkResult::advance();
  });
  states.reserve(ops.size());
  classify(func, policy);
  markOptimizerAndLoss(func);
  propagateDeny();
  paintBetweenLowOps();
  spreadClearUpward();
  spreadDownward();
}

PrecisionPainting::OpState *PrecisionPainting::lookup(Operation *op) {
  auto it = states.find(op);
  return it == states.end() ? nullptr : &it->second;
}

const PrecisionPainting::OpState *
PrecisionPainting::lookup(Operation *op) const {
  auto it = states.find(op);
  return it == states.end() ? nullptr : &it->second;
}

bool PrecisionPainting::isLow(Operation *op) const {
  const OpState *state = lookup(op);
  return state && state->low;
}

OpCategory PrecisionPainting::getCategory(Operation *op) const {
  const OpState *state = lookup(op);
  return state ? state->category : OpCategory::NoFloat;
}

PaintReason PrecisionPainting::getReason(Operation *op) const {
  const OpState *state = lookup(op);
  return state ? state->reason : PaintReason::Policy;
}

bool PrecisionPainting::isMovable(const OpState &state) const {
  return (state.category == OpCategory::Infer ||
          state.category == OpCategory::Clear) &&
         !state.low && !state.forcedF32 && !state.forcedLow && !state.denied;
}

bool PrecisionPainting::isLowValue(Value value) const {
  if (getElementTypeOrSelf(value.getType()) == lowType)
    return true;
  auto result = dyn_cast<OpResult>(value);
  if (!result)
    return false;
  const OpState *state = lookup(result.getOwner());
  // An f32 value widened from a low one (a cast the input already has).
  if (state && state->category == OpCategory::Cast &&
      isF32Like(value.getType()) &&
      getElementTypeOrSelf(result.getOwner()->getOperand(0).getType()) ==
          lowType)
    return true;
  return state && state->low &&
         !isAccumulatorResult(result.getOwner(), result.getResultNumber());
}

void PrecisionPainting::classify(FunctionOpInterface func,
                                 const PrecisionPolicy &policy) {
  for (Operation *op : ops) {
    OpState &state = states[op];
    state.category = policy.classify(op);
    bool paintable = state.category != OpCategory::Boundary &&
                     state.category != OpCategory::NoFloat &&
                     state.category != OpCategory::Cast &&
                     state.category != OpCategory::Materializable;
    if (!paintable)
      continue;
    if (op->hasAttr(AMPDialect::kKeepF32AttrName)) {
      state.forcedF32 = true;
      state.reason = PaintReason::Attribute;
    } else if (op->hasAttr(AMPDialect::kForceLowAttrName) && canRunLow(op)) {
      state.forcedLow = true;
      state.low = true;
      state.reason = PaintReason::Attribute;
    } else if (!canRunLow(op)) {
      state.forcedF32 = true;
      if (state.category == OpCategory::Allow ||
          state.category == OpCategory::Infer ||
          state.category == OpCategory::Clear ||
          op->hasAttr(AMPDialect::kForceLowAttrName))
        state.reason = PaintReason::Unsupported;
    } else if (state.category == OpCategory::Allow) {
      state.low = true;
    }
  }
}

void PrecisionPainting::markOptimizerAndLoss(FunctionOpInterface func) {
  auto forceF32 = [&](Operation *op, PaintReason reason) {
    OpState *state = lookup(op);
    if (!state || state->forcedLow || state->category == OpCategory::Boundary)
      return;
    if (!state->forcedF32 || state->reason == PaintReason::Policy)
      state->reason = reason;
    state->forcedF32 = true;
    state->low = false;
  };

  // The optimizer: everything computed from an amp.grad result.
  SmallVector<Operation *> worklist;
  llvm::SmallPtrSet<Operation *, 16> seen;
  for (Operation *op : ops)
    if (isa<GradOp>(op))
      worklist.push_back(op);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    for (Operation *user : op->getUsers()) {
      if (!seen.insert(user).second)
        continue;
      forceF32(user, PaintReason::Optimizer);
      worklist.push_back(user);
    }
  }

  // The loss tail: ops whose results only reach the amp.loss result.
  llvm::SmallDenseSet<unsigned> lossResults;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (func.getResultAttr(i, AMPDialect::kLossAttrName))
      lossResults.insert(i);
  if (lossResults.empty())
    return;
  llvm::SmallPtrSet<Operation *, 16> lossOnly;
  for (Operation *op : llvm::reverse(ops)) {
    if (op->getNumResults() == 0 ||
        lookup(op)->category == OpCategory::Boundary)
      continue;
    bool onlyLoss = llvm::all_of(op->getUses(), [&](OpOperand &use) {
      Operation *user = use.getOwner();
      if (isa<LossGradOp>(user) || lossOnly.contains(user))
        return true;
      return user->hasTrait<OpTrait::ReturnLike>() &&
             user->getParentOp() == func.getOperation() &&
             lossResults.contains(use.getOperandNumber());
    });
    if (!onlyLoss || op->use_empty())
      continue;
    lossOnly.insert(op);
    forceF32(op, PaintReason::Loss);
  }
}

/// True when some float operand of `op` is produced by an op for which
/// `pred` holds.
template <typename Pred>
static bool anyFloatProducer(Operation *op, Pred pred) {
  for (Value operand : op->getOperands())
    if (isFloatLike(operand.getType()))
      if (Operation *producer = operand.getDefiningOp())
        if (pred(producer))
          return true;
  return false;
}

void PrecisionPainting::propagateDeny() {
  // Forward: which infer/clear ops are reached from a deny op through
  // infer and clear ops only.
  for (Operation *op : ops) {
    OpState &state = *lookup(op);
    if (state.category == OpCategory::Deny && !state.forcedLow) {
      state.reachedFromDeny = true;
      continue;
    }
    if ((state.category != OpCategory::Infer &&
         state.category != OpCategory::Clear) ||
        state.forcedLow || state.low)
      continue;
    state.reachedFromDeny = anyFloatProducer(op, [&](Operation *producer) {
      const OpState *producerState = lookup(producer);
      return producerState && producerState->reachedFromDeny;
    });
  }
  // Backward: an infer op reached is denied; a clear op only when it leads
  // to a denied op (TF paints deny -> clear* -> infer, not a dangling clear).
  for (Operation *op : llvm::reverse(ops)) {
    OpState &state = *lookup(op);
    if (!state.reachedFromDeny || state.category == OpCategory::Deny)
      continue;
    // A reason already given (the loss, the optimizer) says more.
    auto deny = [&] {
      state.denied = true;
      if (state.reason == PaintReason::Policy)
        state.reason = PaintReason::Propagated;
    };
    if (state.category == OpCategory::Infer) {
      deny();
      continue;
    }
    for (Operation *user : op->getUsers()) {
      OpState *userState = lookup(user);
      if (userState && userState->denied) {
        deny();
        break;
      }
    }
  }
}

void PrecisionPainting::paintBetweenLowOps() {
  // Forward: downstream of a low op (or of a value that is already low).
  for (Operation *op : ops) {
    OpState &state = *lookup(op);
    if (state.low) {
      state.fed = true;
      continue;
    }
    if (!isMovable(state))
      continue;
    for (Value operand : op->getOperands()) {
      if (!isFloatLike(operand.getType()))
        continue;
      Operation *producer = operand.getDefiningOp();
      const OpState *producerState = producer ? lookup(producer) : nullptr;
      if ((producerState && producerState->fed) || isLowValue(operand)) {
        state.fed = true;
        break;
      }
    }
  }
  // Backward: upstream of an operand that a low op reads low.
  SmallVector<Operation *> between;
  for (Operation *op : llvm::reverse(ops)) {
    OpState &state = *lookup(op);
    if (!isMovable(state) || !state.fed)
      continue;
    for (OpResult result : op->getResults()) {
      if (!isFloatLike(result.getType()))
        continue;
      for (OpOperand &use : result.getUses()) {
        Operation *user = use.getOwner();
        const OpState *userState = lookup(user);
        if (!userState)
          continue;
        state.feeds |=
            (userState->low && isLowOperand(user, use.getOperandNumber())) ||
            userState->feeds;
      }
    }
    if (state.feeds)
      between.push_back(op);
  }
  for (Operation *op : between) {
    OpState &state = *lookup(op);
    state.low = true;
    state.reason = PaintReason::Propagated;
  }
  // A clear op only moves data: it must not round an f32 value that one of
  // its users reads in f32 (cast -> move -> cast back). Such an op stays
  // f32 and its low users cast after it. Later ops first, so that a chain
  // of clear ops is undone from its end.
  for (Operation *op : between) {
    OpState &state = *lookup(op);
    if (state.category != OpCategory::Clear)
      continue;
    bool roundsInput = llvm::any_of(op->getOperands(), [&](Value operand) {
      if (!isFloatLike(operand.getType()) || isLowValue(operand))
        return false;
      Operation *producer = operand.getDefiningOp();
      return !producer || getCategory(producer) != OpCategory::Materializable;
    });
    bool readInF32 = false;
    for (OpResult result : op->getResults())
      if (isFloatLike(result.getType()))
        for (OpOperand &use : result.getUses())
          readInF32 |= !isLow(use.getOwner()) ||
                       !isLowOperand(use.getOwner(), use.getOperandNumber());
    if (roundsInput && readInF32) {
      state.low = false;
      state.reason = PaintReason::Policy;
    }
  }
}

void PrecisionPainting::spreadClearUpward() {
  for (Operation *op : llvm::reverse(ops)) {
    OpState &state = *lookup(op);
    if (state.category != OpCategory::Clear || !isMovable(state))
      continue;
    bool anyUse = false, allLow = true;
    for (OpResult result : op->getResults()) {
      if (!isFloatLike(result.getType()))
        continue;
      for (OpOperand &use : result.getUses()) {
        anyUse = true;
        Operation *user = use.getOwner();
        allLow &= isLow(user) && isLowOperand(user, use.getOperandNumber());
      }
    }
    if (anyUse && allLow) {
      state.low = true;
      state.reason = PaintReason::Propagated;
    }
  }
}

void PrecisionPainting::spreadDownward() {
  for (Operation *op : ops) {
    OpState &state = *lookup(op);
    if (!isMovable(state))
      continue;
    bool anyInput = false, allLow = true;
    for (Value operand : op->getOperands()) {
      if (!isFloatLike(operand.getType()))
        continue;
      Operation *producer = operand.getDefiningOp();
      if (producer && getCategory(producer) == OpCategory::Materializable)
        continue; // constants are recreated in whatever type is needed
      anyInput = true;
      allLow &= isLowValue(operand);
    }
    if (anyInput && allLow) {
      state.low = true;
      state.reason = PaintReason::Propagated;
    }
  }
}
