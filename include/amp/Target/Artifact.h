//===- Artifact.h - compile a training module to an artifact ----*- C++ -*-===//
//
// Turns a module on tensors (after the amp passes) into a shared object
// with the C ABI of runtime/include/amp_artifact.h: the module is lowered
// (amp-lower-to-cpu or amp-lower-to-cuda), its host code compiled to an
// object, and linked with a generated shim that describes every public
// function and calls it through one uniform entry point. A CUDA artifact
// embeds its kernels (fatbin), links libamprt_cuda and exports the device
// memory and copies the runtime must use for every buffer.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TARGET_ARTIFACT_H
#define AMP_TARGET_ARTIFACT_H

#include "amp/Pipelines/Pipelines.h"
#include "amp/Support/EnumChoices.h"

#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::amp {

/// CUDAEmulated: a CPU artifact whose loop nests are the CUDA path's
/// kernels run as host loops (amp-lower-to-cuda-emulated), for testing the
/// GPU mapping without a GPU.
enum class ArtifactTarget { CPU, CUDA, CUDAEmulated };

inline constexpr llvm::cl::OptionEnumValue kArtifactTargetTable[] = {
    clEnumValN(ArtifactTarget::CPU, "cpu", "host code and libamprt"),
    clEnumValN(ArtifactTarget::CUDA, "cuda",
               "kernels + cuBLASLt through libamprt_cuda"),
    clEnumValN(ArtifactTarget::CUDAEmulated, "cuda-emulated",
               "the CUDA path's kernels as host loops: tests the GPU mapping "
               "on a CPU"),
};
inline constexpr EnumChoices<ArtifactTarget> kArtifactTargets{
    kArtifactTargetTable};

struct ArtifactOptions {
  ArtifactTarget target = ArtifactTarget::CPU;
  /// Where the shared object goes.
  std::string outputPath;
  /// Directory holding amp_artifact.h (and amprt_cuda.h).
  std::string runtimeIncludeDir;
  /// Directory holding libamprt.so (CPU GEMMs) or libamprt_cuda.so.
  std::string runtimeLibraryDir;
  /// C compiler used to build the shim and link (found on PATH if empty).
  std::string cCompiler;
  /// LLVM optimization level of the generated host code.
  unsigned optLevel = 3;
  /// CUDA: the GPU architecture and the toolkit that assembles kernels.
  std::string cudaChip = AMPLowerToCUDAOptions::kDefaultChip;
  std::string cudaToolkit;
  /// CPU: the step's buffers in one liveness-planned workspace
  /// (--amp-lower-to-cpu's plan-memory).
  bool planMemory = true;
  /// Parameters and state updated in their own buffers, the updates marked
  /// `in_place` in the tables (the lowerings' update-in-place).
  bool updateInPlace = true;
  /// Keep the generated shim, object and LLVM IR next to the output.
  bool keepIntermediates = false;
};

/// Compiles `module` (consumed: it is lowered in place) into an artifact.
/// Reports located errors for what the ABI cannot express (dynamic shapes,
/// unsupported element types).
LogicalResult compileToArtifact(ModuleOp module,
                                const ArtifactOptions &options);

} // namespace mlir::amp

AMP_DECLARE_CHOICE_OPTION(::mlir::amp::ArtifactTarget)

#endif // AMP_TARGET_ARTIFACT_H
