//===- CPUArtifact.h - compile a training module to a CPU artifact -*- C++
//-*-===//
//
// Turns a module on tensors (after the amp passes) into a shared object
// with the C ABI of runtime/include/amp_artifact.h: the module is lowered
// to LLVM (amp-lower-to-cpu), compiled to an object for the host, and
// linked with a generated shim that describes every public function and
// calls it through one uniform entry point.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TARGET_CPUARTIFACT_H
#define AMP_TARGET_CPUARTIFACT_H

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::amp {

struct CPUArtifactOptions {
  /// Where the shared object goes.
  std::string outputPath;
  /// Directory holding amp_artifact.h.
  std::string runtimeIncludeDir;
  /// Directory holding libamprt.so (the artifact links it for its GEMMs).
  std::string runtimeLibraryDir;
  /// C compiler used to build the shim and link (found on PATH if empty).
  std::string cCompiler;
  /// LLVM optimization level of the generated code.
  unsigned optLevel = 3;
  /// Keep the generated shim, object and LLVM IR next to the output.
  bool keepIntermediates = false;
};

/// Compiles `module` (consumed: it is lowered in place) into an artifact.
/// Reports located errors for what the ABI cannot express (dynamic shapes,
/// unsupported element types).
LogicalResult compileToCPUArtifact(ModuleOp module,
                                   const CPUArtifactOptions &options);

} // namespace mlir::amp

#endif // AMP_TARGET_CPUARTIFACT_H
