//===- cublaslt.h - cuBLASLt, loaded where the runtime runs -----*- C++ -*-===//
//
// libamprt_cuda does not link cuBLASLt: it loads it on first use, so that
// one build works with the toolkit's cuBLASLt and with the one PyTorch's
// pip wheels carry (nvidia-cublas, CUDA 13 or 12), whichever the process
// finds first.
//
//===----------------------------------------------------------------------===//

#ifndef AMPRT_CUDA_CUBLASLT_H
#define AMPRT_CUDA_CUBLASLT_H

#include <cublasLt.h>

#include <string>

namespace amprt::cuda {

/// The cuBLASLt entry points libamprt_cuda uses.
struct CublasLtApi {
  decltype(&cublasLtCreate) create;
  decltype(&cublasLtGetVersion) getVersion;
  decltype(&cublasLtGetStatusString) statusString;
  decltype(&cublasLtMatmulDescCreate) descCreate;
  decltype(&cublasLtMatmulDescSetAttribute) descSetAttribute;
  decltype(&cublasLtMatrixLayoutCreate) layoutCreate;
  decltype(&cublasLtMatrixLayoutSetAttribute) layoutSetAttribute;
  decltype(&cublasLtMatmulPreferenceCreate) preferenceCreate;
  decltype(&cublasLtMatmulPreferenceSetAttribute) preferenceSetAttribute;
  decltype(&cublasLtMatmulPreferenceDestroy) preferenceDestroy;
  decltype(&cublasLtMatmulAlgoGetHeuristic) algoGetHeuristic;
  decltype(&cublasLtMatmul) matmul;
  /// The file the library was loaded from.
  std::string path;
};

/// The environment variable that names the cuBLASLt to load.
inline constexpr const char kCublasLtLibraryVariable[] =
    "AMPRT_CUBLASLT_LIBRARY";

/// cuBLASLt, loaded on first call: the file $AMPRT_CUBLASLT_LIBRARY names,
/// else libcublasLt.so.13, then libcublasLt.so.12 from the library path.
/// Aborts with every name tried and why when none loads, or when the one
/// loaded lacks an entry point (the compiled step has no error path).
/// With $AMPRT_CUDA_VERBOSE set, prints the file and version loaded.
const CublasLtApi &cublasLt();

/// Aborts with `what` and cuBLASLt's message unless `status` is success.
void checkBlas(cublasStatus_t status, const char *what);

} // namespace amprt::cuda

#endif // AMPRT_CUDA_CUBLASLT_H
