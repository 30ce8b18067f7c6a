//===- LoopOutlining.h - loop nests moved into functions -------*- C++ -*-===//
//
// Shared by amp-outline-loop-nests (one function per nest, for compile
// time) and amp-outline-parallel-chunks (one function per chunk of a
// parallel nest, for threads).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_UTILS_LOOPOUTLINING_H
#define AMP_UTILS_LOOPOUTLINING_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::amp {

/// Moves `loop` into a new private, noinline function `name` and calls it
/// in its place. Values the nest reads from outside become arguments, in
/// first-use order, except constants, which are cloned in (bounds stay
/// static). Returns the call.
func::CallOp outlineLoopNest(Operation *loop, StringRef name,
                             SymbolTable &symbols);

} // namespace mlir::amp

#endif // AMP_UTILS_LOOPOUTLINING_H
