//===- ContractionsToRuntimeCalls.cpp - buffer matmuls to libamprt GEMM ---===//
//
// docs/toolchain.md: named ops with library_call are ignored and a generic with
// one callee breaks on the second shape; what works is a pass after
// bufferization that views the operands as fully dynamic strided memrefs and
// calls one C-interface function per (input type, batched). Any linalg op
// whose body is a multiply-accumulate and whose loops are one (or no) batch,
// m, n and k loop is such a GEMM, named or generic: elementwise fusion folds
// transposes and reshapes into the maps, which become strides of the views.
//
//===----------------------------------------------------------------------===//

#include "amp/Conversion/Passes.h"
#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Utils/Buffers.h"
#include "amp/Utils/Contractions.h"
#include "amp/Utils/Padding.h"
#include "amp/Utils/ReversedCopies.h"
#include "amp/Utils/RuntimeCalls.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::amp {
#define GEN_PASS_DEF_CONTRACTIONSTORUNTIMECALLSPASS
#include "amp/Conversion/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

/// Whether `view` covers every element of `root` (a whole-buffer reshape
/// or the buffer itself).
static bool coversWholeBuffer(Value view, Value root) {
  auto viewType = dyn_cast<MemRefType>(view.getType());
  auto rootType = dyn_cast<MemRefType>(root.getType());
  return viewType && rootType && viewType.hasStaticShape() &&
         rootType.hasStaticShape() &&
         viewType.getNumElements() == rootType.getNumElements();
}

/// Whether `fill` writes zeros over all of `root`.
static bool isWholeZeroFill(linalg::FillOp fill, Value root) {
  Attribute value;
  if (!fill || !coversWholeBuffer(fill.getOutputs().front(), root) ||
      !matchPattern(fill.getInputs().front(), m_Constant(&value)))
    return false;
  auto zero = dyn_cast<FloatAttr>(value);
  return zero && zero.getValue().isZero();
}

/// How the zeros a contraction accumulates into got into its output
/// buffer: a fill of it, or a copy from a buffer a fill zeroed (one zero
/// tensor shared by several contractions bufferizes so).
struct ZeroInit {
  linalg::FillOp fill;
  memref::CopyOp copy; // null where `fill` writes the output itself
};

/// Whether `op` copies from `root` into another buffer.
static bool onlyCopiesFrom(Operation *op, Value root) {
  auto copy = dyn_cast<memref::CopyOp>(op);
  return copy && getRootBuffer(copy.getSource()) == root &&
         getRootBuffer(copy.getTarget()) != root;
}

/// The zeros of `out`'s buffer that the contraction `op` accumulates into,
/// when nothing between their writer and `op` touches that buffer and both
/// cover all of it (through any reshape): a call that overwrites its output
/// computes the same without them.
static std::optional<ZeroInit> findZeroInit(Operation *op, Value out) {
  Value root = getRootBuffer(out);
  if (!coversWholeBuffer(out, root))
    return std::nullopt;
  // Past copies of these zeros into other contractions' buffers (a zero
  // tensor shared by several, the last of which accumulates in place).
  Operation *writer = findNearestUser(op, root, /*forward=*/false);
  while (writer && onlyCopiesFrom(writer, root))
    writer = findNearestUser(writer, root, /*forward=*/false);
  if (auto fill = dyn_cast_or_null<linalg::FillOp>(writer))
    return isWholeZeroFill(fill, root) ? std::optional(ZeroInit{fill, {}})
                                       : std::nullopt;
  auto copy = dyn_cast_or_null<memref::CopyOp>(writer);
  if (!copy || getRootBuffer(copy.getTarget()) != root ||
      !coversWholeBuffer(copy.getTarget(), root))
    return std::nullopt;
  Value source = getRootBuffer(copy.getSource());
  // Past the other copies of the same zeros (one per contraction).
  Operation *zeroWriter = findNearestUser(copy, source, /*forward=*/false);
  while (zeroWriter && onlyCopiesFrom(zeroWriter, source))
    zeroWriter = findNearestUser(zeroWriter, source, /*forward=*/false);
  auto fill = dyn_cast_or_null<linalg::FillOp>(zeroWriter);
  if (!coversWholeBuffer(copy.getSource(), source) ||
      !isWholeZeroFill(fill, source))
    return std::nullopt;
  return ZeroInit{fill, copy};
}

/// Erases what wrote the zeros `init` describes, now that `call`
/// overwrites them: the fill of the output, unless a copy of its zeros
/// between it and `call` still reads them, or the copy and, once nothing
/// else reads them, the copied zeros.
static void eraseZeroInit(ZeroInit init, Operation *call) {
  if (!init.copy) {
    Value root = getRootBuffer(init.fill.getOutputs().front());
    for (Operation *op = init.fill->getNextNode(); op && op != call;
         op = op->getNextNode())
      if (onlyCopiesFrom(op, root))
        return;
    init.fill->erase();
    return;
  }
  Value source = getRootBuffer(init.copy.getSource());
  init.copy->erase();
  auto alloc = source.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc->hasOneUse() || *alloc->user_begin() != init.fill)
    return;
  init.fill->erase();
  alloc->erase();
}

/// The loops of a contraction in GEMM roles, C[batch, m, n] += A[batch, m,
/// k] * B[batch, k, n], each role a list of loops from outer to inner that
/// the operands' layouts let act as one (e.g. the [batch, tokens] rows of a
/// linear layer on 3-D activations). Loops of extent 1 have no role.
struct GemmLoops {
  SmallVector<unsigned> batch, m, n, k;
  SmallVector<int64_t> extents;
};

/// The non-unit m, n, k and batch loops of `op`, if it is a multiply-
/// accumulate with at least one of each of m, n and k: a matrix product.
/// Batched dot products and sums of products (m or n of extent 1) are
/// reductions, not GEMMs.
static std::optional<GemmLoops> findMatrixProductLoops(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumReductionLoops() == 0 || !isMultiplyAccumulate(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return std::nullopt;
  GemmLoops loops;
  loops.extents = op.getStaticLoopRanges();
  auto nonUnit = [&](ArrayRef<unsigned> list) {
    SmallVector<unsigned> kept;
    for (unsigned loop : list)
      if (loops.extents[loop] != 1)
        kept.push_back(loop);
    return kept;
  };
  loops.batch = nonUnit(dims->batch);
  loops.m = nonUnit(dims->m);
  loops.n = nonUnit(dims->n);
  loops.k = nonUnit(dims->k);
  if (loops.m.empty() || loops.n.empty() || loops.k.empty())
    return std::nullopt;
  return loops;
}

/// The position of the result of `map` that is loop `loop`, if any.
static std::optional<unsigned> dimOfLoop(AffineMap map, unsigned loop) {
  for (auto [position, result] : llvm::enumerate(map.getResults()))
    if (auto dim = dyn_cast<AffineDimExpr>(result);
        dim && dim.getPosition() == loop)
      return position;
  return std::nullopt;
}

/// Orders the loops of one role from outer to inner and checks that every
/// operand that uses them lays them out as one dimension: the stride of each
/// is the extent times the stride of the next. An operand that uses none of
/// them is one that the role does not index (B for m) or, for the batch
/// role, one shared by every batch.
static LogicalResult mergeRole(SmallVector<unsigned> &role,
                               ArrayRef<int64_t> extents,
                               ArrayRef<AffineMap> maps,
                               ArrayRef<MemRefType> types,
                               std::string &reason) {
  if (role.size() <= 1)
    return success();
  std::optional<SmallVector<int64_t>> order;
  for (auto [mapOfOperand, type] : llvm::zip(maps, types)) {
    AffineMap map = mapOfOperand;
    unsigned used = llvm::count_if(
        role, [&](unsigned loop) { return dimOfLoop(map, loop).has_value(); });
    if (used == 0)
      continue;
    if (used != role.size()) {
      reason = "an operand uses only some of the loops of one GEMM dimension";
      return failure();
    }
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(type.getStridesAndOffset(strides, offset)) ||
        llvm::any_of(strides, ShapedType::isDynamic)) {
      reason = "loops of one GEMM dimension on an operand with dynamic strides";
      return failure();
    }
    auto strideOf = [&](unsigned loop) {
      return strides[*dimOfLoop(map, loop)];
    };
    if (!order) {
      llvm::stable_sort(role, [&](unsigned x, unsigned y) {
        return strideOf(x) > strideOf(y);
      });
      order.emplace();
    }
    for (unsigned i = 0; i + 1 < role.size(); ++i)
      if (strideOf(role[i]) != extents[role[i + 1]] * strideOf(role[i + 1])) {
        reason = "the loops of one GEMM dimension are not one dimension of an "
                 "operand's layout";
        return failure();
      }
  }
  return success();
}

/// The GEMM roles of `op`'s loops, or a reason why it is not a GEMM.
static FailureOr<GemmLoops> matchGemm(linalg::LinalgOp op,
                                      std::string &reason) {
  if (!op.hasPureBufferSemantics()) {
    reason = "its operands are not buffers";
    return failure();
  }
  std::optional<GemmLoops> loops = findMatrixProductLoops(op);
  if (!loops) {
    reason = "it is not a matrix product";
    return failure();
  }
  if (llvm::any_of(loops->extents, ShapedType::isDynamic)) {
    reason = "a loop has a dynamic extent";
    return failure();
  }
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap map : maps)
    for (AffineExpr result : map.getResults()) {
      auto constant = dyn_cast<AffineConstantExpr>(result);
      if (!isa<AffineDimExpr>(result) &&
          !(constant && constant.getValue() == 0)) {
        reason = "an operand is indexed by " +
                 std::string(llvm::formatv("{0}", result));
        return failure();
      }
    }
  // Every loop of extent > 1 has a role (none is summed in one input only).
  unsigned roles =
      loops->batch.size() + loops->m.size() + loops->n.size() + loops->k.size();
  if (roles != static_cast<unsigned>(llvm::count_if(
                   loops->extents, [](int64_t e) { return e != 1; }))) {
    reason = "a loop is neither batch, m, n nor k";
    return failure();
  }
  SmallVector<MemRefType> types;
  for (OpOperand &operand : op->getOpOperands())
    types.push_back(cast<MemRefType>(operand.get().getType()));
  // Two row (or column) loops that are not one dimension of A (B) and C
  // can still be a batch and the rows: the other input, which does not use
  // that loop, is then shared by every batch (a zero batch stride).
  for (SmallVector<unsigned> *role : {&loops->m, &loops->n}) {
    if (!loops->batch.empty() || role->size() != 2 ||
        succeeded(mergeRole(*role, loops->extents, maps, types, reason)))
      continue;
    loops->batch = {role->front()};
    role->erase(role->begin());
  }
  for (SmallVector<unsigned> *role :
       {&loops->batch, &loops->m, &loops->n, &loops->k})
    if (failed(mergeRole(*role, loops->extents, maps, types, reason)))
      return failure();
  return *loops;
}

/// The extent of the GEMM dimension made of the loops of `role`.
static int64_t getRoleExtent(ArrayRef<unsigned> role,
                             ArrayRef<int64_t> extents) {
  int64_t size = 1;
  for (unsigned loop : role)
    size *= extents[loop];
  return size;
}

/// `operand` seen as the matrices of `roles` (batch?, rows, cols), each a
/// list of loops merged into one dimension: a fully dynamic strided view
/// whose stride for a role is the operand's stride of the dimension indexed
/// by the role's innermost loop, 0 where it uses none of them (an operand
/// shared by every batch). A plain cast where that is the operand as it is.
static Value gemmView(OpBuilder &builder, Location loc, Value operand,
                      AffineMap map, ArrayRef<ArrayRef<unsigned>> roles,
                      ArrayRef<int64_t> extents) {
  auto type = cast<MemRefType>(operand.getType());
  int64_t rank = roles.size();
  MemRefType viewType = getFullyDynamicStridedType(type.getElementType(), rank);
  bool asIs = type.getRank() == rank;
  for (auto [position, role] : llvm::enumerate(roles))
    asIs = asIs && role.size() == 1 && dimOfLoop(map, role[0]) == position;
  if (asIs)
    return memref::CastOp::create(builder, loc, viewType, operand);

  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, operand);
  SmallVector<OpFoldResult> sizes, strides;
  for (ArrayRef<unsigned> role : roles) {
    sizes.push_back(builder.getIndexAttr(getRoleExtent(role, extents)));
    std::optional<unsigned> dim = dimOfLoop(map, role.back());
    if (dim)
      strides.push_back(metadata.getStrides()[*dim]);
    else
      strides.push_back(builder.getIndexAttr(0));
  }
  return memref::ReinterpretCastOp::create(
      builder, loc, viewType, metadata.getBaseBuffer(),
      OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// Whether cuBLASLt can read `operand` as the matrices of (rows, cols)
/// `roles` in place: its static strides make the rows' or the columns'
/// elements contiguous (what libamprt_cuda reads, plainly or transposed;
/// `colsOnly` for C, which is only written plainly). True when a stride is
/// dynamic: the runtime decides then.
static bool isReadableInPlace(Value operand, AffineMap map,
                              ArrayRef<unsigned> rows, ArrayRef<unsigned> cols,
                              ArrayRef<int64_t> extents, bool colsOnly) {
  auto type = cast<MemRefType>(operand.getType());
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(type.getStridesAndOffset(strides, offset)))
    return true;
  // A role's stride is its innermost loop's (0 where the operand has no
  // dimension for it); a role of extent 1 has any stride.
  auto contiguous = [&](ArrayRef<unsigned> role) {
    std::optional<unsigned> dim = dimOfLoop(map, role.back());
    int64_t stride = dim ? strides[*dim] : 0;
    return getRoleExtent(role, extents) == 1 || stride == 1 ||
           ShapedType::isDynamic(stride);
  };
  return contiguous(cols) || (!colsOnly && contiguous(rows));
}

/// A dense (identity-layout) buffer with `operand`'s shape and elements
/// copied in when `copyIn`: what the GPU's GEMM reads or writes in place of
/// an operand neither of whose matrix dimensions is contiguous. The copies
/// become kernels (amp-strided-copies-to-linalg), not a gather through the
/// host at run time.
static Value createDenseCopy(OpBuilder &builder, Location loc, Value operand,
                             bool copyIn) {
  auto type = cast<MemRefType>(operand.getType());
  auto denseType = MemRefType::get(type.getShape(), type.getElementType());
  Value dense = memref::AllocOp::create(builder, loc, denseType);
  if (copyIn)
    memref::CopyOp::create(builder, loc, operand, dense);
  return dense;
}

/// Replaces `op` by a runtime call when it is a GEMM of the runtime's types;
/// otherwise leaves it and says why in `reason`.
/// Rows of A that a rounding GEMM of `inputType` rounds at a time: 64 (or
/// as many as A has), and for bf16 at least a quarter of A. Measured on
/// Zen 4 for a first layer's weight gradient (A the transposed 64 x 784
/// input batch): oneDNN's bf16 GEMM takes 26% longer in blocks of 64 rows,
/// 13% in blocks of 128 and 6% in blocks of 196; the f16 one, which runs
/// in f32 here, is as fast in blocks of 64 (its scratch holds f32, twice
/// the copy's bytes per row).
static int64_t getRoundingBlockRows(int64_t rows, Type inputType) {
  int64_t block = 64;
  if (inputType.isBF16())
    block = std::max<int64_t>(block, llvm::divideCeil(rows, 4));
  return std::min(rows, block);
}

/// An f16/bf16 copy of a whole f32 buffer made by a lone `arith.truncf`
/// loop (a cast of an input or a weight) whose readers are all 2-D GEMMs
/// that may read the f32 buffer instead: nothing writes it between the
/// cast and them.
struct RoundedCopy {
  linalg::GenericOp cast;
  Value source; // the f32 buffer, of the copy's shape and layout
};

/// Whether `view` reaches `root` through whole-buffer reshapes only, which
/// keep the elements' order (a transpose would not).
static bool isReshapeOf(Value view, Value root) {
  while (view != root) {
    Operation *def = view.getDefiningOp();
    if (!isa_and_nonnull<memref::CollapseShapeOp, memref::ExpandShapeOp>(def))
      return false;
    view = def->getOperand(0);
  }
  return true;
}

/// The rounded copy `op` makes, if it is one: a loop over all of an f32
/// buffer and all of an allocation of the same shape and layout, in the
/// same order, whose body is only an `arith.truncf` to a type the
/// runtime's rounding GEMMs take.
static std::optional<RoundedCopy> matchRoundedCopy(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 1 ||
      op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  Block &body = op.getRegion().front();
  auto truncf = dyn_cast<arith::TruncFOp>(body.front());
  if (!truncf || truncf.getIn() != body.getArgument(0) ||
      !truncf.getIn().getType().isF32() ||
      !lookupRuntimeRoundingGemm(truncf.getType(), /*accumulate=*/true) ||
      body.getTerminator()->getOperands() != ValueRange{truncf.getResult()})
    return std::nullopt;
  Value in = op.getDpsInputOperand(0)->get();
  Value out = op.getDpsInitOperand(0)->get();
  Value source = getRootBuffer(in), copy = getRootBuffer(out);
  auto sourceType = dyn_cast<MemRefType>(source.getType());
  auto copyType = dyn_cast<MemRefType>(copy.getType());
  if (!copy.getDefiningOp<memref::AllocOp>() || !sourceType || !copyType ||
      !getStaticBufferBytes(sourceType) || !getStaticBufferBytes(copyType) ||
      sourceType.getShape() != copyType.getShape() ||
      !coversWholeBuffer(in, source) || !coversWholeBuffer(out, copy) ||
      !isReshapeOf(in, source) || !isReshapeOf(out, copy))
    return std::nullopt;
  return RoundedCopy{op, source};
}

/// The ops of a block in order, with what each may write: the step's
/// roots by declared effects, or anything that is not a local allocation
/// (a call).
class BlockWrites {
public:
  explicit BlockWrites(Block &block) {
    for (Operation &op : block) {
      position[&op] = position.size();
      if (mayTouchUnlistedMemory(&op)) {
        unlisted.push_back(position[&op]);
        continue;
      }
      op.walk([&](MemoryEffectOpInterface effects) {
        SmallVector<MemoryEffects::EffectInstance> instances;
        effects.getEffects(instances);
        for (const MemoryEffects::EffectInstance &effect : instances)
          if (isa<MemoryEffects::Write>(effect.getEffect()) &&
              effect.getValue())
            writes[getRootBuffer(effect.getValue())].push_back(position[&op]);
      });
    }
  }
  /// Whether an op strictly between `first` and `last` may write `root`.
  bool writtenBetween(Value root, Operation *first, Operation *last) const {
    size_t from = position.lookup(first), to = position.lookup(last);
    auto within = [&](ArrayRef<size_t> list) {
      auto it = llvm::upper_bound(list, from);
      return it != list.end() && *it < to;
    };
    auto known = writes.find(root);
    return (known != writes.end() && within(known->second)) ||
           (!isLocalAllocation(root) && within(unlisted));
  }

private:
  DenseMap<Operation *, size_t> position;
  DenseMap<Value, SmallVector<size_t>> writes;
  SmallVector<size_t> unlisted;
};

/// Whether `reader` is a 2-D GEMM on inputs of `input`'s type into f32
/// that reads `input` as its A (the operand indexed by m) and not as B,
/// which the runtime's rounding GEMM can replace.
static bool isRoundableGemmReader(linalg::LinalgOp reader, OpOperand &input) {
  std::string reason;
  FailureOr<GemmLoops> loops = matchGemm(reader, reason);
  if (failed(loops) || !loops->batch.empty() ||
      !getElementTypeOrSelf(reader.getDpsInitOperand(0)->get()).isF32() ||
      !reader.isDpsInput(&input))
    return false;
  Type inputType = getElementTypeOrSelf(input.get());
  for (OpOperand *operand : reader.getDpsInputOperands()) {
    if (getElementTypeOrSelf(operand->get()) != inputType)
      return false;
    bool isA =
        dimOfLoop(reader.getMatchingIndexingMap(operand), loops->m.front())
            .has_value();
    if (operand->get() == input.get() && !isA)
      return false;
  }
  return true;
}

/// The rounded copies (by the copy's allocation) that every reader of may
/// read the f32 buffer instead: each reader is a 2-D GEMM taking the copy
/// itself as its A, after the cast in its block, not writing the f32
/// buffer, and nothing writes the f32 buffer between the cast and it.
static DenseMap<Value, RoundedCopy> findGemmOnlyRoundedCopies(ModuleOp module) {
  DenseMap<Value, RoundedCopy> copies;
  DenseMap<Block *, std::unique_ptr<BlockWrites>> writesOf;
  module.walk([&](linalg::GenericOp op) {
    std::optional<RoundedCopy> rounded = matchRoundedCopy(op);
    if (!rounded)
      return;
    Value copy = getRootBuffer(op.getDpsInitOperand(0)->get());
    std::unique_ptr<BlockWrites> &writes = writesOf[op->getBlock()];
    if (!writes)
      writes = std::make_unique<BlockWrites>(*op->getBlock());
    // The cast reaches the copy through reshapes that only it uses.
    llvm::SmallPtrSet<Operation *, 4> castViews;
    for (Value view = op.getDpsInitOperand(0)->get(); view != copy;
         view = view.getDefiningOp()->getOperand(0))
      if (view.hasOneUse())
        castViews.insert(view.getDefiningOp());
    bool readByGemmsOnly = true;
    for (OpOperand &use : copy.getUses()) {
      Operation *user = use.getOwner();
      if (user == op || castViews.contains(user))
        continue;
      auto reader = dyn_cast<linalg::LinalgOp>(user);
      if (!reader || reader->getBlock() != op->getBlock() ||
          !op->isBeforeInBlock(reader) || !isRoundableGemmReader(reader, use) ||
          getRootBuffer(reader.getDpsInitOperand(0)->get()) ==
              rounded->source ||
          writes->writtenBetween(rounded->source, op, reader)) {
        readByGemmsOnly = false;
        break;
      }
    }
    if (readByGemmsOnly)
      copies[copy] = *rounded;
  });
  return copies;
}

/// Erases the cast of each of `copies` and the copy once nothing else
/// uses it (every reader became a rounding GEMM).
static void
eraseUnreadRoundedCopies(const DenseMap<Value, RoundedCopy> &copies) {
  for (const auto &entry : copies) {
    Value copy = entry.first;
    linalg::GenericOp cast = entry.second.cast;
    Value out = cast.getDpsInitOperand(0)->get();
    Value in = cast.getDpsInputOperand(0)->get();
    bool unread = llvm::all_of(copy.getUsers(), [&](Operation *user) {
      return user == cast || (user->getNumResults() == 1 &&
                              user->getResult(0) == out && out.hasOneUse());
    });
    if (!unread)
      continue;
    cast->erase();
    eraseDeadDefinitions(
        {out.getDefiningOp(), in.getDefiningOp(), copy.getDefiningOp()});
  }
}

static LogicalResult convert(linalg::LinalgOp op, std::optional<ZeroInit> zeros,
                             GemmRuntime runtime, ModuleOp module,
                             const DenseMap<Value, RoundedCopy> &rounded,
                             std::string &reason) {
  FailureOr<GemmLoops> loops = matchGemm(op, reason);
  if (failed(loops))
    return failure();
  Value lhs = op.getDpsInputOperand(0)->get();
  Value rhs = op.getDpsInputOperand(1)->get();
  Value out = op.getDpsInitOperand(0)->get();
  Type inputType = cast<MemRefType>(lhs.getType()).getElementType();
  bool batched = !loops->batch.empty();
  // Inputs that read C (a GEMM into its own operand) keep the zeros.
  if (zeros && (getRootBuffer(lhs) == getRootBuffer(out) ||
                getRootBuffer(rhs) == getRootBuffer(out)))
    zeros.reset();
  const RuntimeGemm *gemm =
      lookupRuntimeGemm(inputType, batched ? 3 : 2, /*accumulate=*/!zeros,
                        Float32Type::get(op->getContext()));
  if (!gemm || cast<MemRefType>(rhs.getType()).getElementType() != inputType ||
      !cast<MemRefType>(out.getType()).getElementType().isF32()) {
    reason = "the runtime has no GEMM for these element types";
    return failure();
  }
  // A is the input that holds the m loops.
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!dimOfLoop(maps[0], loops->m.front())) {
    std::swap(lhs, rhs);
    std::swap(maps[0], maps[1]);
  }
  auto rolesOf = [&](ArrayRef<unsigned> rows, ArrayRef<unsigned> cols) {
    SmallVector<ArrayRef<unsigned>> roles;
    if (batched)
      roles.push_back(loops->batch);
    roles.append({rows, cols});
    return roles;
  };
  OpBuilder builder(op);
  Location loc = op.getLoc();
  // The GPU reads no operand through the host: a layout cuBLASLt cannot
  // take is made dense by a copy on the device first (static strides only;
  // C is copied back after the call).
  Value writeBack;
  if (runtime == GemmRuntime::CUDA && llvm::all_of(ValueRange{lhs, rhs, out}, [](Value v) {
        return cast<MemRefType>(v.getType()).hasStaticShape();
      })) {
    if (!isReadableInPlace(lhs, maps[0], loops->m, loops->k, loops->extents,
                           /*colsOnly=*/false))
      lhs = createDenseCopy(builder, loc, lhs, /*copyIn=*/true);
    if (!isReadableInPlace(rhs, maps[1], loops->k, loops->n, loops->extents,
                           /*colsOnly=*/false))
      rhs = createDenseCopy(builder, loc, rhs, /*copyIn=*/true);
    if (!isReadableInPlace(out, maps[2], loops->m, loops->n, loops->extents,
                           /*colsOnly=*/true)) {
      writeBack = out;
      out = createDenseCopy(builder, loc, out, /*copyIn=*/!zeros);
    }
  }
  // A rounded copy's readers read the f32 buffer and round it themselves.
  Value roundedSource;
  const RuntimeRoundingGemm *rounding = nullptr;
  if (auto known = rounded.find(lhs);
      known != rounded.end() && runtime == GemmRuntime::CPU && !batched) {
    rounding = lookupRuntimeRoundingGemm(inputType, /*accumulate=*/!zeros);
    roundedSource = rounding ? known->second.source : Value();
  }
  SmallVector<Value> operands = {
      gemmView(builder, loc, roundedSource ? roundedSource : lhs, maps[0],
               rolesOf(loops->m, loops->k), loops->extents),
      gemmView(builder, loc, rhs, maps[1], rolesOf(loops->k, loops->n),
               loops->extents),
      gemmView(builder, loc, out, maps[2], rolesOf(loops->m, loops->n),
               loops->extents)};
  StringRef gemmName = gemm->name;
  if (roundedSource) {
    // Rows of A, each K long, a block at a time.
    int64_t elements = getRoundingBlockRows(
                           getRoleExtent(loops->m, loops->extents), inputType) *
                       getRoleExtent(loops->k, loops->extents);
    // The rows as the runtime multiplies them: bf16, or f32 for f16.
    Type scratchType = rounding->scratchType == "f32"
                           ? Type(builder.getF32Type())
                           : Type(builder.getBF16Type());
    assert(getRuntimeTypeName(scratchType) == rounding->scratchType &&
           "a scratch type amprt_rounding_gemm.def did not have");
    Value scratch = memref::AllocOp::create(
        builder, loc, MemRefType::get({elements}, scratchType),
        builder.getI64IntegerAttr(64));
    operands.push_back(memref::CastOp::create(
        builder, loc, getFullyDynamicStridedType(scratchType, 1), scratch));
    gemmName = rounding->name;
  }

  std::string name = (getRuntimeGemmPrefix(runtime) + gemmName).str();
  func::FuncOp callee = declareRuntimeFunction(module, name, operands);
  // libamprt_cuda queues the GEMM on its stream and returns.
  if (runtime == GemmRuntime::CUDA)
    callee->setAttr(AMPDialect::kStreamOrderedAttrName, builder.getUnitAttr());
  auto call = func::CallOp::create(builder, loc, callee, operands);
  if (writeBack)
    memref::CopyOp::create(builder, loc, out, writeBack);
  op->erase();
  if (zeros)
    eraseZeroInit(*zeros, call);
  return success();
}

/// A convolution of runtime/include/amprt_conv.def.
struct RuntimeConv {
  StringLiteral name;
  StringLiteral inputType;
  int64_t rank; // 4: plain NHWC, 5: grouped NGCHW
  bool accumulate;
  bool reversed; // the filter's taps read in reverse order in H and W
};

static constexpr RuntimeConv kRuntimeConvs[] = {
#define AMPRT_CONV(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, REVERSED)       \
  {#NAME, #INPUT_TYPE, RANK, ACCUMULATE, REVERSED},
#include "amprt_conv.def"
};

/// `operand` as a fully dynamic strided view whose dimension i is
/// dimension dims[i] of `operand`, or a new unit dimension where dims[i] is
/// -1: a transposed (NCHW as NHWC) or expanded (depthwise as grouped) view.
static Value convView(OpBuilder &builder, Location loc, Value operand,
                      ArrayRef<int64_t> dims) {
  auto type = cast<MemRefType>(operand.getType());
  MemRefType viewType =
      getFullyDynamicStridedType(type.getElementType(), dims.size());
  if (llvm::equal(dims, llvm::seq<int64_t>(0, type.getRank())))
    return memref::CastOp::create(builder, loc, viewType, operand);
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, operand);
  SmallVector<OpFoldResult> sizes, strides;
  for (int64_t dim : dims) {
    if (dim < 0) {
      sizes.push_back(builder.getIndexAttr(1));
      strides.push_back(builder.getIndexAttr(1));
      continue;
    }
    sizes.push_back(builder.getIndexAttr(type.getDimSize(dim)));
    strides.push_back(metadata.getStrides()[dim]);
  }
  return memref::ReinterpretCastOp::create(
      builder, loc, viewType, metadata.getBaseBuffer(),
      OpFoldResult(metadata.getOffset()), sizes, strides);
}

/// Whether `op` is a convolution: one libamprt runs (named or generic), or
/// a named one it does not (left as loops, with a reason). Pooling ops are
/// convolutions too, but add or max, not multiply.
static bool isConvolution(linalg::LinalgOp op) {
  return getConvLayout(op) ||
         (isa<linalg::ConvolutionOpInterface>(op.getOperation()) &&
          isMultiplyAccumulate(op));
}

/// The operand a convolution reads as its input and as its filter.
static Value getConvInputOperand(linalg::LinalgOp op, const ConvLayout &layout) {
  return op.getDpsInputOperand(layout.inputOperand)->get();
}
static Value getConvFilterOperand(linalg::LinalgOp op,
                                  const ConvLayout &layout) {
  return op.getDpsInputOperand(1 - layout.inputOperand)->get();
}

/// The runtime's convolution for `op` (its layout, input, filter and
/// output element types) that adds to its output (`accumulate`) or
/// overwrites it, with its filter taps `reversed` or not, if it has one.
static const RuntimeConv *lookupRuntimeConv(linalg::LinalgOp op,
                                            bool accumulate, bool reversed) {
  std::optional<ConvLayout> layout = getConvLayout(op);
  if (!layout)
    return nullptr;
  Type inputType = getElementTypeOrSelf(getConvInputOperand(op, *layout));
  if (getElementTypeOrSelf(getConvFilterOperand(op, *layout)) != inputType ||
      !getElementTypeOrSelf(op.getDpsInitOperand(0)->get()).isF32())
    return nullptr;
  std::string typeName = getRuntimeTypeName(inputType);
  const RuntimeConv *conv =
      llvm::find_if(kRuntimeConvs, [&](const RuntimeConv &c) {
        return c.inputType == typeName && c.rank == layout->rank &&
               c.accumulate == accumulate && c.reversed == reversed;
      });
  return conv == std::end(kRuntimeConvs) ? nullptr : conv;
}

/// The input a convolution's call reads and the zeros it pads it with
/// (top, left, bottom, right).
struct ConvInput {
  Value value;
  SmallVector<int64_t, 4> padding = {0, 0, 0, 0};
};

/// The input of `op` as its call takes it: the unpadded buffer where `op`
/// reads a zero-padded copy that is padded only in H and W (`padded`, to be
/// erased once unread), else the input as it is.
static ConvInput getConvInput(linalg::LinalgOp op,
                              std::optional<ZeroPaddedCopy> &padded) {
  std::optional<ConvLayout> layout = getConvLayout(op);
  if (!layout)
    return ConvInput{op.getDpsInputOperand(0)->get()};
  Value input = getConvInputOperand(op, *layout);
  ConvInput result{input};
  padded = matchZeroPaddedCopy(input);
  if (!padded)
    return result;
  // The call's H and W dimensions (NHWC or NGCHW), as the input's.
  int64_t callH = layout->rank == 4 ? 1 : 3;
  int64_t h = layout->input[callH], w = layout->input[callH + 1];
  for (auto [dim, pair] :
       llvm::enumerate(llvm::zip_equal(padded->low, padded->high))) {
    auto [low, high] = pair;
    if ((low || high) && static_cast<int64_t>(dim) != h &&
        static_cast<int64_t>(dim) != w) {
      padded.reset();
      return result;
    }
  }
  result.value = getUnpaddedValue(*padded, op);
  // A 1-D convolution's H is a unit dimension the input does not have.
  auto pad = [](ArrayRef<int64_t> amounts, int64_t dim) {
    return dim < 0 ? 0 : amounts[dim];
  };
  result.padding = {pad(padded->low, h), pad(padded->low, w),
                    pad(padded->high, h), pad(padded->high, w)};
  return result;
}

/// Replaces a buffer convolution (any layout getConvLayout knows) by a
/// call of libamprt's convolution (CPU only: the CUDA
/// runtime has none yet), the operands viewed in the call's layout,
/// strides, dilations and the input's padding as i64.
static LogicalResult convertConvolution(linalg::LinalgOp op,
                                        const ConvInput &convInput,
                                        bool reversedTaps,
                                        std::optional<ZeroInit> zeros,
                                        GemmRuntime runtime, ModuleOp module,
                                        std::string &reason) {
  std::optional<ConvLayout> layout = getConvLayout(op);
  if (!layout) {
    reason = ("the runtime has no " + op->getName().getStringRef() +
              " (1-D and 2-D convolutions that multiply and accumulate only)")
                 .str();
    return failure();
  }
  if (runtime != GemmRuntime::CPU) {
    reason = "the CUDA runtime has no convolution";
    return failure();
  }
  if (!op.hasPureBufferSemantics()) {
    reason = "its operands are not buffers";
    return failure();
  }
  Value input = convInput.value;
  Value filter = getConvFilterOperand(op, *layout);
  Value output = op.getDpsInitOperand(0)->get();
  // An output of zeros is overwritten instead (inputs that read it keep
  // them).
  Value outputRoot = getRootBuffer(output);
  if (zeros && (getRootBuffer(input) == outputRoot ||
                getRootBuffer(filter) == outputRoot))
    zeros.reset();
  const RuntimeConv *conv =
      lookupRuntimeConv(op, /*accumulate=*/!zeros, reversedTaps);
  if (!conv) {
    reason = "the runtime has no convolution for these element types";
    return failure();
  }
  OpBuilder builder(op);
  Location loc = op.getLoc();
  SmallVector<Value> operands = {
      convView(builder, loc, input, layout->input),
      convView(builder, loc, filter, layout->filter),
      convView(builder, loc, output, layout->output)};
  for (ArrayRef<int64_t> values : {layout->strides, layout->dilations})
    for (int64_t value : values)
      operands.push_back(arith::ConstantIntOp::create(
          builder, loc, builder.getI64Type(), value));
  for (int64_t value : convInput.padding)
    operands.push_back(arith::ConstantIntOp::create(
        builder, loc, builder.getI64Type(), value));

  std::string name = (getRuntimeGemmPrefix(runtime) + conv->name).str();
  func::FuncOp callee = declareRuntimeFunction(module, name, operands);
  auto call = func::CallOp::create(builder, loc, callee, operands);
  op->erase();
  if (zeros)
    eraseZeroInit(*zeros, call);
  return success();
}

/// Whether `filter`, a view of `root` that `conv` reads as its filter,
/// has exactly the dimensions of `root` that `reversed` marks as its
/// spatial (KH, KW) ones.
static bool reversesTaps(linalg::LinalgOp conv, Value filter, Value root,
                         const llvm::SmallBitVector &reversed) {
  std::optional<ConvLayout> layout = getConvLayout(conv);
  std::optional<SmallVector<int64_t>> dims = getViewDims(filter, root);
  if (!layout || !dims)
    return false;
  // The call's filter is FHWC (rank 4) or GFCHW (rank 5).
  ArrayRef<int64_t> spatial = ArrayRef(layout->filter).drop_front(
      layout->rank == 4 ? 1 : 3).take_front(2);
  llvm::SmallBitVector taps(reversed.size());
  for (int64_t dim : spatial)
    if (dim >= 0) // a 1-D convolution's unit H has nothing to reverse
      taps.set((*dims)[dim]);
  return taps == reversed;
}

/// The convolutions among `candidates` whose filter is a copy reversed in
/// H and W (torch-mlir's data gradients), which from here on read the copy
/// made in order, or what it copies, with their taps reversed (the
/// runtime's `_reversed` calls). A copy is made in order only when every
/// reader is such a convolution, after it in its block.
static llvm::SmallPtrSet<Operation *, 16>
readReversedFiltersInOrder(ArrayRef<linalg::LinalgOp> candidates) {
  llvm::MapVector<Value, SmallVector<linalg::LinalgOp>> byFilter;
  for (linalg::LinalgOp op : candidates)
    if (std::optional<ConvLayout> layout = getConvLayout(op))
      if (op.hasPureBufferSemantics() &&
          lookupRuntimeConv(op, /*accumulate=*/true, /*reversed=*/true))
        byFilter[getRootBuffer(getConvFilterOperand(op, *layout))].push_back(
            op);
  llvm::SmallPtrSet<Operation *, 16> reversedConvs;
  for (auto &[root, convs] : byFilter) {
    std::optional<ReversedCopy> reversed = matchReversedCopy(root);
    if (!reversed)
      continue;
    // Every use: the copy, a transposed or cast view, or one of `convs`
    // reading it as its filter with the reversed dimensions as taps.
    bool allReversedTaps = true;
    SmallVector<Value> views = {root};
    Operation *lastReader = nullptr;
    while (!views.empty() && allReversedTaps) {
      Value view = views.pop_back_val();
      for (OpOperand &use : view.getUses()) {
        Operation *user = use.getOwner();
        if (user == reversed->copy)
          continue;
        if (isa<memref::TransposeOp, memref::CastOp>(user)) {
          views.push_back(user->getResult(0));
          continue;
        }
        auto conv = dyn_cast<linalg::LinalgOp>(user);
        if (!conv || !llvm::is_contained(convs, conv) ||
            use.getOperandNumber() != 1 - getConvLayout(conv)->inputOperand ||
            user->getBlock() != reversed->copy->getBlock() ||
            !reversed->copy->isBeforeInBlock(user) ||
            !reversesTaps(conv, view, root, reversed->reversed)) {
          allReversedTaps = false;
          break;
        }
        if (!lastReader || lastReader->isBeforeInBlock(user))
          lastReader = user;
      }
    }
    if (!allReversedTaps || !lastReader)
      continue;
    copyInOrder(*reversed);
    for (linalg::LinalgOp conv : convs)
      reversedConvs.insert(conv);
    // A copy of a whole buffer that stays unwritten: read that instead.
    if (Value source = getForwardableSource(*reversed, lastReader)) {
      reversed->buffer.getResult().replaceAllUsesExcept(source,
                                                        reversed->copy);
      reversed->copy->erase();
      reversed->buffer->erase();
    }
  }
  return reversedConvs;
}

namespace {
struct ContractionsToRuntimeCallsPass
    : public amp::impl::ContractionsToRuntimeCallsPassBase<
          ContractionsToRuntimeCallsPass> {
  using Base::Base;
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<linalg::LinalgOp> candidates;
    module.walk([&](linalg::LinalgOp op) {
      if (isConvolution(op) || findMatrixProductLoops(op))
        candidates.push_back(op);
    });
    // Where each contraction's zeros come from, decided before any call
    // (which may touch any memory) stands between them and it.
    DenseMap<Operation *, ZeroInit> zeroInits;
    for (linalg::LinalgOp op : candidates)
      if (op.hasPureBufferSemantics() && op.getNumDpsInits() == 1)
        if (std::optional<ZeroInit> zeros =
                findZeroInit(op, op.getDpsInitOperand(0)->get()))
          zeroInits[op] = *zeros;
    // What each convolution reads, decided likewise.
    DenseMap<Operation *, ConvInput> convInputs;
    SmallVector<ZeroPaddedCopy> paddedCopies;
    llvm::SmallPtrSet<Operation *, 16> reversedConvs;
    if (runtime == GemmRuntime::CPU) {
      reversedConvs = readReversedFiltersInOrder(candidates);
      for (linalg::LinalgOp op : candidates) {
        if (!isConvolution(op) || !op.hasPureBufferSemantics())
          continue;
        std::optional<ZeroPaddedCopy> padded;
        convInputs[op] = getConvInput(op, padded);
        if (padded)
          paddedCopies.push_back(*padded);
      }
    }
    // Which bf16 copies GEMMs may round themselves, decided likewise.
    DenseMap<Value, RoundedCopy> roundedCopies;
    if (runtime == GemmRuntime::CPU && roundOperands)
      roundedCopies = findGemmOnlyRoundedCopies(module);
    bool failedAny = false;
    for (linalg::LinalgOp op : candidates) {
      std::string reason;
      LogicalResult converted = failure();
      std::optional<ZeroInit> zeros;
      if (auto known = zeroInits.find(op); known != zeroInits.end())
        zeros = known->second;
      if (isConvolution(op)) {
        auto known = convInputs.find(op);
        ConvInput input = known != convInputs.end()
                              ? known->second
                              : ConvInput{op.getDpsInputOperand(0)->get()};
        converted = convertConvolution(op, input, reversedConvs.contains(op),
                                       zeros, runtime, module, reason);
      } else {
        converted = convert(op, zeros, runtime, module, roundedCopies, reason);
      }
      if (succeeded(converted) || !requireAll)
        continue;
      op.emitError() << "contraction left as a loop nest: " << reason;
      failedAny = true;
    }
    eraseUnreadRoundedCopies(roundedCopies);
    // A padded copy every reader of which now pads by itself is dead.
    llvm::SmallPtrSet<Operation *, 8> erased;
    for (const ZeroPaddedCopy &padded : paddedCopies)
      if (erased.insert(padded.buffer).second)
        eraseIfUnread(padded);
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
