//===- TestAutocastDialect.cpp - a dialect taught autocast by its interface
//===//

#include "TestAutocastDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace amp_test;

#include "TestAutocastOpsDialect.cpp.inc"

void TestAutocastDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "TestAutocastOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "TestAutocastOps.cpp.inc"

void amp_test::registerTestAutocastDialect(DialectRegistry &registry) {
  registry.insert<TestAutocastDialect>();
}

//===----------------------------------------------------------------------===//
// fma_acc: allow, the accumulator stays in its type
//===----------------------------------------------------------------------===//

LogicalResult FmaAccOp::verify() {
  if (getLhs().getType() != getRhs().getType())
    return emitOpError("multiplies operands of one type");
  if (getAcc().getType() != getResult().getType())
    return emitOpError("returns the type of its accumulator");
  return success();
}

std::optional<amp::OpCategory> FmaAccOp::getDefaultCategory() {
  return amp::OpCategory::Allow;
}

bool FmaAccOp::isLowOperand(unsigned index) {
  return index != getAccMutable().getOperandNumber();
}

bool FmaAccOp::isAccumulatorResult(unsigned) { return true; }

//===----------------------------------------------------------------------===//
// scale: infer, an attribute typed by the element type
//===----------------------------------------------------------------------===//

LogicalResult ScaleOp::verify() {
  if (getFactor().getType() != getElementTypeOrSelf(getInput().getType()))
    return emitOpError("needs a factor of the element type, got ")
           << getFactor().getType();
  return success();
}

std::optional<amp::OpCategory> ScaleOp::getDefaultCategory() {
  return amp::OpCategory::Infer;
}

void ScaleOp::retypeForLowPrecision(FloatType lowType) {
  APFloat factor = getFactorAttr().getValue();
  bool lostInfo;
  factor.convert(lowType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                 &lostInfo);
  setFactorAttr(FloatAttr::get(lowType, factor));
}

//===----------------------------------------------------------------------===//
// sum: infer, but never low
//===----------------------------------------------------------------------===//

std::optional<amp::OpCategory> SumOp::getDefaultCategory() {
  return amp::OpCategory::Infer;
}

bool SumOp::canRunLow() { return false; }

//===----------------------------------------------------------------------===//
// tag: a boundary
//===----------------------------------------------------------------------===//

std::optional<amp::OpCategory> TagOp::getStructuralCategory() {
  return amp::OpCategory::Boundary;
}
