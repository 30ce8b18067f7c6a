//===- BufferizableOpInterfaceImpl.h - amp ops in bufferization -*- C++ -*-===//

#ifndef AMP_DIALECT_AMP_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
#define AMP_DIALECT_AMP_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::amp {
/// Lets one-shot bufferization turn a packed (1-D) `amp.all_reduce` into
/// the runtime's in-place collective call.
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);
} // namespace mlir::amp

#endif // AMP_DIALECT_AMP_TRANSFORMS_BUFFERIZABLEOPINTERFACEIMPL_H
