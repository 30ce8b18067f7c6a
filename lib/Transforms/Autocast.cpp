//===- Autocast.cpp - policy-driven mixed-precision rewrite ---------------===//
//
// Paints every op of each function low or f32 (PrecisionPainting) and then
// rewrites types in one walk in program order: low ops get low operands and
// results (accumulators stay f32), and a cast is made wherever a value's
// type differs from the type its user needs. Casts are cached per
// (value, type), so each value is cast at most once to each type.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "amp/Analysis/PrecisionPainting.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AutocastModels.h"
#include "amp/Utils/FloatCasts.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::amp {
#define GEN_PASS_DEF_AUTOCASTPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {

/// Makes and remembers casts; one per (value, type).
class CastCache {
public:
  CastCache(bool useArithForTensors) : useArithForTensors(useArithForTensors) {}

  /// Records an existing float cast so that it is reused instead of a new
  /// one. It moves right after its operand's definition so that every op
  /// that may need it is dominated; a duplicate is replaced by the first.
  void adoptExisting(Operation *castOp);

  /// `value` as `type`: itself, a cached cast, the source of an exact
  /// widening, a recreated constant, or a new cast.
  Value get(Value value, Type type);

  unsigned getNumCreated() const { return created.size(); }
  bool isCreated(Operation *op) const { return createdSet.contains(op); }

  /// Erases casts and constants that nothing uses any more.
  void eraseDead(ArrayRef<Operation *> candidates);

private:
  Value materialize(Operation *def, Type type, OpBuilder &builder);
  Value createCast(Value value, Type type, OpBuilder &builder);

  /// Where to put a cast of `value`: right after its definition; casts of
  /// block arguments go at the top of the block in the order they are made.
  void setInsertionPoint(OpBuilder &builder, Value value);

  bool useArithForTensors;
  llvm::DenseMap<Block *, Operation *> lastArgumentCast;
  llvm::DenseMap<std::pair<Value, Type>, Value> cache;
  SmallVector<Operation *> created;
  llvm::DenseSet<Operation *> createdSet;
};

} // namespace

/// The input of a float conversion (whatever dialect it is from).
static Value getCastSource(Operation *op) {
  if (getStructuralCategory(op) == OpCategory::Cast)
    return op->getOperand(0);
  return nullptr;
}

void CastCache::adoptExisting(Operation *castOp) {
  Value source = getCastSource(castOp);
  Value result = castOp->getResult(0);
  auto key = std::make_pair(source, result.getType());
  auto [it, inserted] = cache.try_emplace(key, result);
  if (!inserted) {
    result.replaceAllUsesWith(it->second);
    return;
  }
  if (Operation *def = source.getDefiningOp())
    castOp->moveAfter(def);
  else
    castOp->moveBefore(&cast<BlockArgument>(source).getOwner()->front());
}

void CastCache::setInsertionPoint(OpBuilder &builder, Value value) {
  if (Operation *def = value.getDefiningOp())
    return builder.setInsertionPointAfter(def);
  Block *block = cast<BlockArgument>(value).getOwner();
  if (Operation *last = lastArgumentCast.lookup(block))
    return builder.setInsertionPointAfter(last);
  builder.setInsertionPointToStart(block);
}

/// True when converting `from` to `to` loses nothing (f16/bf16 -> f32).
static bool isExactWidening(Type from, Type to) {
  auto fromFloat = dyn_cast<FloatType>(getElementTypeOrSelf(from));
  auto toFloat = dyn_cast<FloatType>(getElementTypeOrSelf(to));
  if (!fromFloat || !toFloat || fromFloat.getWidth() >= toFloat.getWidth())
    return false;
  return llvm::APFloat::isRepresentableAsNormalIn(
             fromFloat.getFloatSemantics(), toFloat.getFloatSemantics()) ||
         toFloat.isF32() || toFloat.isF64();
}

Value CastCache::get(Value value, Type type) {
  if (value.getType() == type)
    return value;
  auto key = std::make_pair(value, type);
  if (Value cached = cache.lookup(key))
    return cached;

  Value result;
  Operation *def = value.getDefiningOp();
  // ext(x) cast back to x's type is x: never narrow a widening again.
  if (def)
    if (Value source = getCastSource(def))
      if (source.getType() == type && isExactWidening(type, value.getType()))
        result = source;
  if (!result) {
    OpBuilder builder(value.getContext());
    setInsertionPoint(builder, value);
    if (def && getStructuralCategory(def) == OpCategory::Materializable)
      result = materialize(def, type, builder);
    if (!result)
      result = createCast(value, type, builder);
    if (isa<BlockArgument>(value))
      lastArgumentCast[cast<BlockArgument>(value).getOwner()] =
          result.getDefiningOp();
    created.push_back(result.getDefiningOp());
    createdSet.insert(result.getDefiningOp());
  }
  cache[key] = result;
  return result;
}

Value CastCache::materialize(Operation *def, Type type, OpBuilder &builder) {
  auto elementType = dyn_cast<FloatType>(getElementTypeOrSelf(type));
  if (!elementType)
    return nullptr;
  Location loc = def->getLoc();
  if (auto empty = dyn_cast<tensor::EmptyOp>(def))
    return tensor::EmptyOp::create(builder, loc, cast<RankedTensorType>(type),
                                   empty.getDynamicSizes());
  if (auto constant = dyn_cast<tosa::ConstOp>(def)) {
    Attribute values = convertFloatAttr(constant.getValues(), elementType);
    if (!values)
      return nullptr;
    return tosa::ConstOp::create(builder, loc, type,
                                 cast<ElementsAttr>(values));
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(def)) {
    Attribute value = convertFloatAttr(constant.getValue(), elementType);
    if (!value)
      return nullptr;
    return arith::ConstantOp::create(builder, loc, cast<TypedAttr>(value));
  }
  // Another dialect's constant: the caller casts it instead.
  return nullptr;
}

Value CastCache::createCast(Value value, Type type, OpBuilder &builder) {
  Location loc = value.getLoc();
  if (isa<TensorType>(type) && !useArithForTensors)
    return tosa::CastOp::create(builder, loc, type, value);
  return createFloatConversion(builder, loc, value, type);
}

void CastCache::eraseDead(ArrayRef<Operation *> candidates) {
  SmallVector<Operation *> worklist(candidates.begin(), candidates.end());
  worklist.append(created.begin(), created.end());
  llvm::DenseSet<Operation *> erased;
  // Later ops first, so that a dead cast of a dead constant frees both.
  for (Operation *op : llvm::reverse(worklist)) {
    if (erased.contains(op) || !op->use_empty())
      continue;
    erased.insert(op);
    op->erase();
  }
}

//===----------------------------------------------------------------------===//
// Rewriting one op
//===----------------------------------------------------------------------===//

namespace {
struct AutocastRewriter {
  AutocastRewriter(const PrecisionPainting &painting, FloatType lowType,
                   CastCache &casts)
      : painting(painting), lowType(lowType), casts(casts) {}

  void rewrite(Operation *op, ArrayRef<Type> originalOperandTypes);
  void rewriteLowOp(Operation *op);

  Type lowered(Type type) const { return withElementType(type, lowType); }

  const PrecisionPainting &painting;
  FloatType lowType;
  CastCache &casts;
};
} // namespace

void AutocastRewriter::rewrite(Operation *op,
                               ArrayRef<Type> originalOperandTypes) {
  if (painting.isLow(op))
    return rewriteLowOp(op);
  // A cast the input already has becomes a no-op when its operand now has
  // the type it casts to.
  if (painting.getCategory(op) == OpCategory::Cast &&
      op->getOperand(0).getType() == op->getResult(0).getType()) {
    op->getResult(0).replaceAllUsesWith(op->getOperand(0));
    return;
  }
  // An f32 op reads every operand at the type it was written with.
  for (OpOperand &operand : op->getOpOperands()) {
    Type wanted = originalOperandTypes[operand.getOperandNumber()];
    if (operand.get().getType() != wanted)
      operand.set(casts.get(operand.get(), wanted));
  }
}

void AutocastRewriter::rewriteLowOp(Operation *op) {
  for (OpOperand &operand : op->getOpOperands()) {
    Value value = operand.get();
    if (!isF32Like(value.getType()) ||
        !isLowOperand(op, operand.getOperandNumber()))
      continue;
    operand.set(casts.get(value, lowered(value.getType())));
  }
  for (OpResult result : op->getResults())
    if (isF32Like(result.getType()) &&
        !isAccumulatorResult(op, result.getResultNumber()))
      result.setType(lowered(result.getType()));
  // Regions and typed attributes follow (the op's AutocastOpInterface).
  retypeForLowPrecision(op, lowType);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Rewrites one function; returns the number of casts made.
/// One remark per painted op that holds f32 values: what it is, what it got
/// and why (the `explain` option).
static void explainPainting(const PrecisionPainting &painting) {
  for (Operation *op : painting.getOps()) {
    OpCategory category = painting.getCategory(op);
    if (category != OpCategory::Allow && category != OpCategory::Deny &&
        category != OpCategory::Infer && category != OpCategory::Clear &&
        category != OpCategory::Unknown)
      continue;
    op->emitRemark() << "amp-autocast: " << stringifyOpCategory(category)
                     << " op runs " << (painting.isLow(op) ? "low" : "f32")
                     << " (" << stringifyPaintReason(painting.getReason(op))
                     << ")";
  }
}

static unsigned autocastFunction(FunctionOpInterface func,
                                 const PrecisionPolicy &policy,
                                 FloatType lowType, bool useArithCasts,
                                 bool explain, llvm::StringSet<> &remarkedOps) {
  PrecisionPainting painting(func, policy, lowType);
  if (explain)
    explainPainting(painting);
  CastCache casts(useArithCasts);

  SmallVector<Operation *> existing;
  for (Operation *op : painting.getOps()) {
    OpCategory category = painting.getCategory(op);
    if (category == OpCategory::Cast &&
        isFloatLike(op->getOperand(0).getType())) {
      casts.adoptExisting(op);
      existing.push_back(op);
    } else if (category == OpCategory::Materializable) {
      existing.push_back(op);
    } else if (op->hasAttr(AMPDialect::kForceLowAttrName) && !canRunLow(op)) {
      op->emitWarning() << "'" << AMPDialect::kForceLowAttrName
                        << "' ignored: this op cannot run in low precision "
                           "with an f32 accumulator";
    } else if (category == OpCategory::Unknown &&
               remarkedOps.insert(op->getName().getStringRef()).second) {
      op->emitRemark() << "op '" << op->getName()
                       << "' is not in the precision policy; kept in f32";
    }
  }

  // Operand types as written, taken before any producer changes.
  std::vector<SmallVector<Type, 4>> originalTypes;
  originalTypes.reserve(painting.getOps().size());
  for (Operation *op : painting.getOps())
    originalTypes.emplace_back(op->getOperandTypes());

  AutocastRewriter rewriter(painting, lowType, casts);
  llvm::DenseSet<Operation *> painted(painting.getOps().begin(),
                                      painting.getOps().end());
  for (auto [op, types] : llvm::zip(painting.getOps(), originalTypes))
    rewriter.rewrite(op, types);

  // Values used inside payloads (not painted) keep their written types.
  for (Operation *op : painting.getOps()) {
    if (!painting.isLow(op))
      continue;
    for (OpResult result : op->getResults()) {
      for (OpOperand &use : llvm::make_early_inc_range(result.getUses())) {
        if (painted.contains(use.getOwner()) || casts.isCreated(use.getOwner()))
          continue;
        Type written = withElementType(result.getType(),
                                       Float32Type::get(func.getContext()));
        use.set(casts.get(result, written));
      }
    }
  }
  unsigned numCasts = casts.getNumCreated();
  casts.eraseDead(existing);
  return numCasts;
}

namespace {
struct AutocastPass : public amp::impl::AutocastPassBase<AutocastPass> {
  using AutocastPassBase::AutocastPassBase;

  void getDependentDialects(DialectRegistry &registry) const override {
    AutocastPassBase::getDependentDialects(registry);
    registerAutocastModels(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    auto emitError = [&] { return mlir::emitError(module.getLoc(), "amp-autocast: "); };

    PrecisionPolicy policy = PrecisionPolicy::getDefault();
    std::optional<LowPrecision> filePrecision;
    if (!policyFile.empty() &&
        failed(policy.loadFile(policyFile, context, emitError, &filePrecision)))
      return signalPassFailure();
    // The command line wins over the file when it was given explicitly.
    LowPrecision lowPrecision = precision;
    if (filePrecision && !precision.hasValue())
      lowPrecision = *filePrecision;
    FloatType lowType = getLowPrecisionType(lowPrecision, context);
    if (failed(checkDisjointLists({{"allow", allowOps},
                                   {"deny", denyOps},
                                   {"infer", inferOps},
                                   {"clear", clearOps}},
                                  emitError)))
      return signalPassFailure();
    if (failed(policy.applyList(allowOps, OpCategory::Allow, context,
                                emitError)) ||
        failed(
            policy.applyList(denyOps, OpCategory::Deny, context, emitError)) ||
        failed(policy.applyList(inferOps, OpCategory::Infer, context,
                                emitError)) ||
        failed(
            policy.applyList(clearOps, OpCategory::Clear, context, emitError)))
      return signalPassFailure();

    llvm::StringSet<> remarkedOps;
    for (auto func : module.getOps<FunctionOpInterface>()) {
      if (func.isExternal())
        continue;
      autocastFunction(func, policy, lowType, castDialect == CastDialect::Arith,
                       explain, remarkedOps);
    }
  }
};
} // namespace
