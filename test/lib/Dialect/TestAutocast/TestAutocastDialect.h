//===- TestAutocastDialect.h - a dialect taught autocast by its interface -===//

#ifndef AMP_TEST_AUTOCAST_DIALECT_H
#define AMP_TEST_AUTOCAST_DIALECT_H

#include "amp/Interfaces/AutocastOpInterface.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TestAutocastOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "TestAutocastOps.h.inc"

namespace amp_test {
/// Adds the test_autocast dialect to `registry`.
void registerTestAutocastDialect(mlir::DialectRegistry &registry);
} // namespace amp_test

#endif // AMP_TEST_AUTOCAST_DIALECT_H
