//===- Padding.cpp - zero-padded copies readers can pad for ---------------===//
//
// A convolution whose input is `tensor.pad`ded with zeros reads, once
// bufferized, a fresh buffer filled with zeros and then written in its
// interior by a copy. A library convolution pads by itself, and skips the
// taps that only see padding (ResNet's last stage at 32x32 images: eight
// of nine), so the pass calling it asks here for the unpadded operand.
//
//===----------------------------------------------------------------------===//

#include "amp/Utils/Padding.h"
#include "amp/Utils/Buffers.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::amp;

/// Whether `op` fills all of `buffer` with +0: a linalg.fill, or a
/// linalg.map without inputs that yields the constant.
static bool isZeroFillOf(Operation *op, Value buffer) {
  Value value;
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (fill.getOutputs().front() != buffer)
      return false;
    value = fill.getInputs().front();
  } else if (auto map = dyn_cast<linalg::MapOp>(op)) {
    if (!map.getInputs().empty() || map.getInit() != buffer)
      return false;
    auto yield = cast<linalg::YieldOp>(map.getMapper().front().getTerminator());
    value = yield.getValues().front();
    // A value of the body is not the constant.
    if (value.getParentRegion() == &map.getMapper())
      return false;
  } else {
    return false;
  }
  return matchPattern(value, m_PosZeroFloat());
}

/// Whether `op` only reads `buffer`: a linalg op taking it as an input and
/// not as an init.
static bool onlyReads(Operation *op, Value buffer) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureBufferSemantics())
    return false;
  for (OpOperand &init : linalgOp.getDpsInitsMutable())
    if (init.get() == buffer)
      return false;
  return true;
}

std::optional<ZeroPaddedCopy> mlir::amp::matchZeroPaddedCopy(Value value) {
  auto alloc = value.getDefiningOp<memref::AllocOp>();
  if (!alloc || !alloc.getType().hasStaticShape())
    return std::nullopt;
  ZeroPaddedCopy padded;
  padded.buffer = alloc;
  SmallVector<Operation *> readers;
  for (Operation *user : alloc->getUsers()) {
    if (!padded.zeroFill && isZeroFillOf(user, value)) {
      padded.zeroFill = user;
    } else if (auto subview = dyn_cast<memref::SubViewOp>(user);
               subview && !padded.interior) {
      padded.interior = subview;
    } else if (onlyReads(user, value)) {
      readers.push_back(user);
    } else {
      return std::nullopt;
    }
  }
  if (!padded.zeroFill || !padded.interior || !padded.interior->hasOneUse())
    return std::nullopt;
  memref::SubViewOp interior = padded.interior;
  padded.copy = dyn_cast<memref::CopyOp>(*interior->getUsers().begin());
  if (!padded.copy || padded.copy.getTarget() != interior.getResult())
    return std::nullopt;
  // Fill, copy and readers in this order in one block: every read sees the
  // zeros around the copied values.
  Block *block = alloc->getBlock();
  if (padded.zeroFill->getBlock() != block ||
      padded.copy->getBlock() != block ||
      !padded.zeroFill->isBeforeInBlock(padded.copy))
    return std::nullopt;
  for (Operation *reader : readers)
    if (reader->getBlock() != block || !padded.copy->isBeforeInBlock(reader))
      return std::nullopt;
  // The interior: a box of unit strides at static offsets.
  if (!interior.hasUnitStride() ||
      !ShapedType::isStaticShape(interior.getStaticOffsets()) ||
      !ShapedType::isStaticShape(interior.getStaticSizes()) ||
      interior.getStaticSizes().size() != alloc.getType().getShape().size())
    return std::nullopt;
  for (auto [offset, size, full] :
       llvm::zip_equal(interior.getStaticOffsets(), interior.getStaticSizes(),
                       alloc.getType().getShape())) {
    padded.low.push_back(offset);
    padded.high.push_back(full - offset - size);
  }
  return padded;
}

Value mlir::amp::getUnpaddedValue(ZeroPaddedCopy padded,
                                  Operation *reader) {
  Value source = padded.copy.getSource();
  Value root = getRootBuffer(source);
  for (Operation *op = padded.copy->getNextNode(); op && op != reader;
       op = op->getNextNode())
    if (mayWriteBuffer(op, root))
      return padded.interior.getResult();
  return source;
}

void mlir::amp::eraseIfUnread(ZeroPaddedCopy padded) {
  for (Operation *user : padded.buffer->getUsers())
    if (user != padded.zeroFill && user != padded.interior.getOperation())
      return;
  // No one reads the zeros any more; the interior may still be read.
  padded.zeroFill->erase();
  if (!padded.interior->hasOneUse())
    return;
  padded.copy->erase();
  padded.interior->erase();
  padded.buffer->erase();
}
