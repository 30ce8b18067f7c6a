/*===- AMP.h - C API of amp-mlir for host compilers ----------------*- C -*-===*
 *
 * For compilers that drive MLIR through its C API: register the amp dialect
 * in a context and the amp passes and pipelines in the global registry, then
 * use them in textual pipelines, e.g.
 *
 *   mlirDialectHandleRegisterDialect(mlirGetDialectHandle__amp__(), ctx);
 *   ampRegisterPasses();
 *   mlirParsePassPipeline(opm, mlirStringRefCreateFromCString(
 *       "builtin.module(amp-pipeline{precision=f16})"), ...);
 *
 *===----------------------------------------------------------------------===*/

#ifndef AMP_C_AMP_H
#define AMP_C_AMP_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mlirGetDialectHandle__amp__(): the amp dialect (training markers and
 * loss-scaling ops). */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(AMP, amp);

/* Registers every amp pass (amp-autocast, amp-precision-report,
 * amp-master-weights, amp-loss-scaling, amp-lower-ops,
 * amp-contractions-to-runtime-calls) and the pipelines amp-pipeline and
 * amp-lower-to-cpu. Safe to call more than once. */
MLIR_CAPI_EXPORTED void ampRegisterPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* AMP_C_AMP_H */
