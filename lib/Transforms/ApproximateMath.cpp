//===- ApproximateMath.cpp - elementwise math without libm calls ----------===//
//
// A libm call per element keeps LLVM from vectorizing an elementwise loop;
// MLIR's polynomial approximations are plain arith and vectorize. The
// approximations are only made for finite inputs: NaN and infinities get
// their exact results from a select, so that an overflow still reaches the
// loss scaler's inf/NaN check as one.
//
//===----------------------------------------------------------------------===//

#include "amp/Transforms/Passes.h"

#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <cmath>
#include <limits>

namespace mlir::amp {
#define GEN_PASS_DEF_APPROXIMATEMATHPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {

/// An op the pass approximates, with its exact results at +inf and -inf.
struct Approximated {
  StringLiteral name;
  double atPositiveInfinity, atNegativeInfinity;
};

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

const Approximated kApproximated[] = {
    {"math.tanh", 1.0, -1.0},  {"math.exp", kInf, 0.0},
    {"math.expm1", kInf, -1.0}, {"math.log", kInf, kNaN},
    {"math.log1p", kInf, kNaN}, {"math.erf", 1.0, -1.0},
};

const Approximated *lookup(StringRef name) {
  for (const Approximated &op : kApproximated)
    if (op.name == name)
      return &op;
  return nullptr;
}

/// Wraps the result of `op` (one float operand, one result) so that a NaN
/// input gives NaN and an infinite one the exact limit, whatever the
/// approximation computes there.
void guardSpecialValues(Operation *op, const Approximated &limits) {
  OpBuilder builder(op->getContext());
  builder.setInsertionPointAfter(op);
  Location loc = op->getLoc();
  Value input = op->getOperand(0), result = op->getResult(0);
  Type type = input.getType();
  auto element = cast<FloatType>(getElementTypeOrSelf(type));
  auto constant = [&](double value) -> Value {
    TypedAttr attr = builder.getFloatAttr(element, value);
    if (auto shaped = dyn_cast<ShapedType>(type))
      attr = DenseElementsAttr::get(shaped, attr);
    return arith::ConstantOp::create(builder, loc, type, attr);
  };
  auto select = [&](arith::CmpFPredicate predicate, Value rhs, Value ifTrue,
                    Value ifFalse) -> Value {
    Value test = arith::CmpFOp::create(builder, loc, predicate, input, rhs);
    return arith::SelectOp::create(builder, loc, test, ifTrue, ifFalse);
  };
  Value atPositive = select(arith::CmpFPredicate::OEQ, constant(kInf),
                            constant(limits.atPositiveInfinity), result);
  Value atNegative = select(arith::CmpFPredicate::OEQ, constant(-kInf),
                            constant(limits.atNegativeInfinity), atPositive);
  Value guarded = select(arith::CmpFPredicate::UNO, input, input, atNegative);
  result.replaceAllUsesExcept(guarded, atPositive.getDefiningOp());
}

struct ApproximateMathPass
    : mlir::amp::impl::ApproximateMathPassBase<ApproximateMathPass> {
  using ApproximateMathPassBase::ApproximateMathPassBase;

  void runOnOperation() override {
    SmallVector<std::string> names(ops.begin(), ops.end());
    if (names.empty())
      for (const Approximated &op : kApproximated)
        names.push_back(op.name.str());
    for (const std::string &name : names)
      if (!lookup(name)) {
        std::string known;
        for (const Approximated &op : kApproximated)
          known += (known.empty() ? "" : ", ") + op.name.str();
        getOperation()->emitError()
            << "amp-approximate-math: cannot approximate '" << name
            << "' (it approximates " << known << ")";
        return signalPassFailure();
      }
    auto wanted = [&](StringRef name) {
      return llvm::is_contained(names, name.str());
    };
    getOperation()->walk([&](Operation *op) {
      Type element = op->getNumResults() == 1
                         ? getElementTypeOrSelf(op->getResult(0))
                         : Type();
      // The approximations exist for f32, and through it f16 and bf16.
      if (op->getNumOperands() == 1 && element &&
          (element.isF32() || element.isF16() || element.isBF16()) &&
          wanted(op->getName().getStringRef()))
        guardSpecialValues(op, *lookup(op->getName().getStringRef()));
    });
    RewritePatternSet patterns(&getContext());
    populateMathF32ExpansionPatterns(patterns, wanted);
    populateMathPolynomialApproximationPatterns(patterns, wanted);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
