//===- Contractions.cpp - what a GEMM's payload looks like ----------------===//

#include "amp/Utils/Contractions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

/// Whether `value` is block argument `arg` of the body, possibly widened to
/// f32 by an arith.extf.
static bool isOperandRead(Value value, BlockArgument arg) {
  if (auto ext = value.getDefiningOp<arith::ExtFOp>())
    value = ext.getIn();
  return value == arg;
}

bool mlir::amp::isMultiplyAccumulate(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  if (!body || body->getNumArguments() != 3)
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(body->getTerminator());
  if (!yield || yield.getNumOperands() != 1)
    return false;
  auto add = yield.getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  BlockArgument a = body->getArgument(0), b = body->getArgument(1),
                out = body->getArgument(2);
  if ((add.getLhs() == out) == (add.getRhs() == out))
    return false;
  Value product = add.getLhs() == out ? add.getRhs() : add.getLhs();
  auto mul = product.getDefiningOp<arith::MulFOp>();
  if (!mul)
    return false;
  return (isOperandRead(mul.getLhs(), a) && isOperandRead(mul.getRhs(), b)) ||
         (isOperandRead(mul.getLhs(), b) && isOperandRead(mul.getRhs(), a));
}

namespace {
/// One term of an input index: `coefficient * loop`.
struct IndexTerm {
  unsigned loop;
  int64_t coefficient;
};

/// What each loop of a convolution does.
enum class ConvRole { None, Batch, Group, OutputChannel, InputChannel, Image, Tap };

/// A window dimension: the input index `stride * image + dilation * tap`
/// (no tap where the filter has extent 1 there and lost the dimension).
struct ConvWindow {
  unsigned inputDim = 0;
  unsigned image = 0;
  std::optional<unsigned> tap;
  int64_t stride = 1, dilation = 1;
};
} // namespace

/// `expr` as `loop` or `c * loop`, if it is one.
static std::optional<IndexTerm> getIndexTerm(AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return IndexTerm{dim.getPosition(), 1};
  auto mul = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!mul || mul.getKind() != AffineExprKind::Mul)
    return std::nullopt;
  auto dim = dyn_cast<AffineDimExpr>(mul.getLHS());
  auto constant = dyn_cast<AffineConstantExpr>(mul.getRHS());
  if (!dim || !constant || constant.getValue() <= 0)
    return std::nullopt;
  return IndexTerm{dim.getPosition(), constant.getValue()};
}

/// Each result of `map` as one or two index terms; nothing where a result
/// is anything else (a constant, a difference, a modulo, ...).
static std::optional<SmallVector<SmallVector<IndexTerm, 2>>>
getIndexTerms(AffineMap map) {
  SmallVector<SmallVector<IndexTerm, 2>> results;
  for (AffineExpr expr : map.getResults()) {
    SmallVector<IndexTerm, 2> terms;
    auto add = dyn_cast<AffineBinaryOpExpr>(expr);
    for (AffineExpr term : add && add.getKind() == AffineExprKind::Add
                               ? SmallVector<AffineExpr>{add.getLHS(),
                                                         add.getRHS()}
                               : SmallVector<AffineExpr>{expr}) {
      std::optional<IndexTerm> indexTerm = getIndexTerm(term);
      if (!indexTerm)
        return std::nullopt;
      terms.push_back(*indexTerm);
    }
    results.push_back(terms);
  }
  return results;
}

/// The layout of a convolution whose input is operand `inputOperand` (the
/// operand indexed by windows), read off the indexing maps: each loop's
/// role follows from the operands it indexes (batch: input and output;
/// group: all three; output channel: filter and output; input channel:
/// input and filter; image and tap: a window of the input and the output
/// or the filter).
static std::optional<mlir::amp::ConvLayout>
inferConvLayout(ArrayRef<AffineMap> maps, unsigned inputOperand) {
  AffineMap inputMap = maps[inputOperand], filterMap = maps[1 - inputOperand],
            outputMap = maps[2];
  if (!filterMap.isProjectedPermutation(/*allowZeroInResults=*/false) ||
      !outputMap.isProjectedPermutation(/*allowZeroInResults=*/false))
    return std::nullopt;
  std::optional<SmallVector<SmallVector<IndexTerm, 2>>> inputTerms =
      getIndexTerms(inputMap);
  if (!inputTerms)
    return std::nullopt;
  unsigned numLoops = inputMap.getNumDims();
  llvm::SmallBitVector inFilter(numLoops), inOutput(numLoops);
  for (AffineExpr expr : filterMap.getResults())
    inFilter.set(cast<AffineDimExpr>(expr).getPosition());
  for (AffineExpr expr : outputMap.getResults())
    inOutput.set(cast<AffineDimExpr>(expr).getPosition());

  SmallVector<ConvRole> roles(numLoops, ConvRole::None);
  SmallVector<ConvWindow, 2> windows;
  // The input dimension each plain (non-window) loop indexes.
  DenseMap<unsigned, unsigned> inputDimOf;
  auto assign = [&](unsigned loop, ConvRole role) {
    if (roles[loop] != ConvRole::None)
      return false; // a loop indexing two input dimensions
    roles[loop] = role;
    return true;
  };
  for (auto [dim, terms] : llvm::enumerate(*inputTerms)) {
    if (terms.size() == 1 && terms[0].coefficient == 1) {
      unsigned loop = terms[0].loop;
      bool f = inFilter.test(loop), o = inOutput.test(loop);
      ConvRole role = f && o  ? ConvRole::Group
                      : o     ? ConvRole::Batch
                      : f     ? ConvRole::InputChannel
                              : ConvRole::None;
      if (role == ConvRole::None || !assign(loop, role))
        return std::nullopt;
      inputDimOf[loop] = dim;
      continue;
    }
    // A window: an image loop of the output (strided) plus, unless the
    // filter has extent 1 there, a tap loop of the filter (dilated).
    ConvWindow window;
    window.inputDim = dim;
    bool haveImage = false;
    for (const IndexTerm &term : terms) {
      bool f = inFilter.test(term.loop), o = inOutput.test(term.loop);
      if (o && !f && !haveImage) {
        window.image = term.loop;
        window.stride = term.coefficient;
        haveImage = true;
      } else if (f && !o && !window.tap) {
        window.tap = term.loop;
        window.dilation = term.coefficient;
      } else {
        return std::nullopt;
      }
    }
    if (!haveImage || !assign(window.image, ConvRole::Image) ||
        (window.tap && !assign(*window.tap, ConvRole::Tap)))
      return std::nullopt;
    windows.push_back(window);
  }
  // The loops only the filter and the output share.
  for (unsigned loop = 0; loop < numLoops; ++loop)
    if (roles[loop] == ConvRole::None && inFilter.test(loop) &&
        inOutput.test(loop))
      roles[loop] = ConvRole::OutputChannel;
  // Every loop has a role, and the call has one dimension per role.
  auto single = [&](ConvRole role) -> std::optional<std::optional<unsigned>> {
    std::optional<unsigned> found;
    for (unsigned loop = 0; loop < numLoops; ++loop)
      if (roles[loop] == role) {
        if (found)
          return std::nullopt;
        found = loop;
      }
    return found;
  };
  if (llvm::is_contained(roles, ConvRole::None) || windows.empty() ||
      windows.size() > 2)
    return std::nullopt;
  auto batch = single(ConvRole::Batch), group = single(ConvRole::Group),
       outputChannel = single(ConvRole::OutputChannel),
       inputChannel = single(ConvRole::InputChannel);
  if (!batch || !group || !outputChannel || !inputChannel)
    return std::nullopt;

  // Where a loop is among `map`'s results (-1: not there, a unit dimension
  // of the call).
  auto position = [](AffineMap map, std::optional<unsigned> loop) -> int64_t {
    if (!loop)
      return -1;
    std::optional<unsigned> pos = map.getResultPosition(
        getAffineDimExpr(*loop, map.getContext()));
    return pos ? static_cast<int64_t>(*pos) : -1;
  };
  auto inputPosition = [&](std::optional<unsigned> loop) -> int64_t {
    return loop ? static_cast<int64_t>(inputDimOf.lookup(*loop)) : -1;
  };
  // One window is W, two are H and W.
  std::optional<ConvWindow> h, w = windows.back();
  if (windows.size() == 2)
    h = windows.front();
  auto imageOf = [](std::optional<ConvWindow> window) {
    return window ? std::optional<unsigned>(window->image) : std::nullopt;
  };
  auto tapOf = [](std::optional<ConvWindow> window) {
    return window ? window->tap : std::nullopt;
  };
  int64_t inputH = h ? static_cast<int64_t>(h->inputDim) : -1;
  int64_t inputW = w->inputDim;

  mlir::amp::ConvLayout layout;
  layout.inputOperand = inputOperand;
  layout.strides = {h ? h->stride : 1, w->stride};
  layout.dilations = {h ? h->dilation : 1, w->dilation};
  if (!*group) {
    layout.rank = 4;
    layout.input = {inputPosition(*batch), inputH, inputW,
                    inputPosition(*inputChannel)};
    layout.filter = {position(filterMap, *outputChannel),
                     position(filterMap, tapOf(h)),
                     position(filterMap, tapOf(w)),
                     position(filterMap, *inputChannel)};
    layout.output = {position(outputMap, *batch),
                     position(outputMap, imageOf(h)),
                     position(outputMap, imageOf(w)),
                     position(outputMap, *outputChannel)};
  } else {
    layout.rank = 5;
    layout.input = {inputPosition(*batch), inputPosition(*group),
                    inputPosition(*inputChannel), inputH, inputW};
    layout.filter = {position(filterMap, *group),
                     position(filterMap, *outputChannel),
                     position(filterMap, *inputChannel),
                     position(filterMap, tapOf(h)),
                     position(filterMap, tapOf(w))};
    layout.output = {position(outputMap, *batch),
                     position(outputMap, *group),
                     position(outputMap, *outputChannel),
                     position(outputMap, imageOf(h)),
                     position(outputMap, imageOf(w))};
  }
  return layout;
}

std::optional<mlir::amp::ConvLayout> mlir::amp::getConvLayout(Operation *op) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || linalgOp.getNumDpsInputs() != 2 ||
      linalgOp.getNumDpsInits() != 1 || !isMultiplyAccumulate(linalgOp))
    return std::nullopt;
  SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
  // The input is the operand indexed by windows; a filter of one tap and a
  // stride of one leave none, which is a matrix product, not this.
  for (unsigned inputOperand : {0u, 1u})
    if (std::optional<ConvLayout> layout = inferConvLayout(maps, inputOperand))
      return layout;
  return std::nullopt;
}
