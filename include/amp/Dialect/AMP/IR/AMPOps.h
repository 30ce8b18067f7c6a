//===- AMPOps.h - amp dialect operations ------------------------*- C++ -*-===//

#ifndef AMP_DIALECT_AMP_IR_AMPOPS_H
#define AMP_DIALECT_AMP_IR_AMPOPS_H

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "amp/Dialect/AMP/IR/AMPOpsEnums.h.inc"

#define GET_OP_CLASSES
#include "amp/Dialect/AMP/IR/AMPOps.h.inc"

#endif // AMP_DIALECT_AMP_IR_AMPOPS_H
