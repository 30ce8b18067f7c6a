//===- AutocastModels.h - AutocastOpInterface for upstream dialects -*- C++
//-*-===//
//
// External models of the AutocastOpInterface for the upstream dialects a
// training step is written in, one file per dialect in lib/Dialect/<name>/
// (math ops need nothing beyond the interface's defaults). amp-autocast and
// amp-precision-report register them themselves; an embedder that queries
// the interface directly registers them with registerAutocastModels.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AUTOCASTMODELS_H
#define AMP_DIALECT_AUTOCASTMODELS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::amp {

void registerArithAutocastModels(DialectRegistry &registry);
void registerLinalgAutocastModels(DialectRegistry &registry);
void registerTensorAutocastModels(DialectRegistry &registry);
void registerTosaAutocastModels(DialectRegistry &registry);

/// All of the above.
void registerAutocastModels(DialectRegistry &registry);

} // namespace mlir::amp

#endif // AMP_DIALECT_AUTOCASTMODELS_H
