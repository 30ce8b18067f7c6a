//===- InitAMP.h - register everything amp-mlir provides --------*- C++ -*-===//
//
// One place that the drivers (amp-opt, amp-compile), the C API and the
// mlir-opt plugin call, so that they all offer the same passes.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INITAMP_H
#define AMP_INITAMP_H

namespace mlir {
class DialectRegistry;
namespace amp {

/// Adds the amp dialect and its interface models (bufferization of
/// `amp.all_reduce`) to `registry`.
void registerAMPDialect(DialectRegistry &registry);

/// Registers every amp pass and pipeline, once (later calls do nothing).
void registerAllAMPPasses();

} // namespace amp
} // namespace mlir

#endif // AMP_INITAMP_H
