//===- AMP.cpp - C API of amp-mlir ----------------------------------------===//

#include "amp-c/AMP.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/InitAMP.h"

#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(AMP, amp, mlir::amp::AMPDialect)

void ampRegisterPasses(void) { mlir::amp::registerAllAMPPasses(); }
