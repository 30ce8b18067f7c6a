//===- Buffers.h - which buffer a memref value is a view of ---*- C++ -*-===//

#ifndef AMP_UTILS_BUFFERS_H
#define AMP_UTILS_BUFFERS_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace mlir::amp {

/// The buffer `value` is a view of, through the ops that make views
/// (subviews, reshapes, casts, transposes), or `value` itself. Two memrefs with different roots
/// are taken not to overlap: the step's buffers (allocations, inputs,
/// state and out-params) never do.
Value getRootBuffer(Value value);

/// The bytes of a static, identity-layout buffer of plain elements in the
/// default memory space, or nothing.
std::optional<int64_t> getStaticBufferBytes(MemRefType type);

/// Whether `op` or an op nested in it takes a view of `root` as operand.
bool usesBuffer(Operation *op, Value root);

/// Whether `op` or an op nested in it may touch memory it is not given (an
/// op without declared memory effects, such as a call). Such an op can
/// reach any buffer that escaped the function, though not one the
/// function allocated and did not pass to it.
bool mayTouchUnlistedMemory(Operation *op);

/// Whether `root` is an allocation of the function (no other code holds
/// it unless given it).
bool isLocalAllocation(Value root);

/// Whether `op` may write the buffer whose root is `root`: it writes a
/// view of it by its declared effects, or it may touch memory unlisted
/// (mayTouchUnlistedMemory) and `root` is not a local allocation.
bool mayWriteBuffer(Operation *op, Value root);

/// The nearest op after `op` in its block (before it, when `forward` is
/// false) that uses `root` other than by taking a view of it, or null when there is none or when an op in
/// between may touch `root` unseen (mayTouchUnlistedMemory, for a root
/// that is not a local allocation).
Operation *findNearestUser(Operation *op, Value root, bool forward);

/// Erases each of `ops` that is trivially dead (an unused view or
/// allocation) and, as they become dead in turn, the ops defining its
/// operands: what a rewrite that stopped using a buffer leaves behind.
void eraseDeadDefinitions(ArrayRef<Operation *> ops);

/// Moves the ops that define what `users` use (their operands and the
/// values their bodies take from above) and sit after `before` in its
/// block to just before it, in order: pure ops without regions,
/// allocations (a fresh buffer may as well exist earlier) and ops
/// `mayMove` accepts. False, with nothing moved, when another op (or
/// `before` itself) defines one of them.
bool hoistDefinitionsAbove(ArrayRef<Operation *> users, Operation *before,
                           llvm::function_ref<bool(Operation *)> mayMove);

} // namespace mlir::amp

#endif // AMP_UTILS_BUFFERS_H
