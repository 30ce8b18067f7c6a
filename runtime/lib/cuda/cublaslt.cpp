//===- cublaslt.cpp - cuBLASLt, loaded where the runtime runs -------------===//

#include "cublaslt.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace amprt::cuda {
namespace {

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "amprt_cuda: %s\n", message.c_str());
  std::abort();
}

/// The first of `candidates` that dlopen loads; every failure is appended
/// to `tried`.
void *openFirst(std::initializer_list<const char *> candidates,
                std::string &tried) {
  for (const char *name : candidates) {
    if (void *handle = dlopen(name, RTLD_NOW | RTLD_LOCAL))
      return handle;
    const char *why = dlerror();
    tried += std::string("\n  ") + name + ": " + (why ? why : "not loaded");
  }
  return nullptr;
}

template <typename T>
void resolve(void *handle, const char *name, const std::string &path,
             T &slot) {
  slot = reinterpret_cast<T>(dlsym(handle, name));
  if (!slot)
    fail("cuBLASLt from " + path + " has no " + name +
         " (is it cuBLASLt 12 or 13?)");
}

CublasLtApi load() {
  std::string tried;
  void *handle;
  if (const char *path = std::getenv(kCublasLtLibraryVariable)) {
    handle = openFirst({path}, tried);
    if (!handle)
      fail(std::string("cannot load cuBLASLt from $") +
           kCublasLtLibraryVariable + ":" + tried);
  } else {
    handle = openFirst({"libcublasLt.so.13", "libcublasLt.so.12"}, tried);
    if (!handle)
      fail("cannot load cuBLASLt (the CUDA toolkit's or PyTorch's "
           "nvidia-cublas wheel; put its folder on LD_LIBRARY_PATH or name "
           "the file in $" +
           std::string(kCublasLtLibraryVariable) + "):" + tried);
  }
  CublasLtApi api;
  const link_map *map = nullptr;
  api.path = dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name
                 ? map->l_name
                 : "an unknown file";
  resolve(handle, "cublasLtCreate", api.path, api.create);
  resolve(handle, "cublasLtGetVersion", api.path, api.getVersion);
  resolve(handle, "cublasLtGetStatusString", api.path, api.statusString);
  resolve(handle, "cublasLtMatmulDescCreate", api.path, api.descCreate);
  resolve(handle, "cublasLtMatmulDescSetAttribute", api.path,
          api.descSetAttribute);
  resolve(handle, "cublasLtMatrixLayoutCreate", api.path, api.layoutCreate);
  resolve(handle, "cublasLtMatrixLayoutSetAttribute", api.path,
          api.layoutSetAttribute);
  resolve(handle, "cublasLtMatmulPreferenceCreate", api.path,
          api.preferenceCreate);
  resolve(handle, "cublasLtMatmulPreferenceSetAttribute", api.path,
          api.preferenceSetAttribute);
  resolve(handle, "cublasLtMatmulPreferenceDestroy", api.path,
          api.preferenceDestroy);
  resolve(handle, "cublasLtMatmulAlgoGetHeuristic", api.path,
          api.algoGetHeuristic);
  resolve(handle, "cublasLtMatmul", api.path, api.matmul);
  if (std::getenv("AMPRT_CUDA_VERBOSE"))
    std::fprintf(stderr, "amprt_cuda: cuBLASLt %zu from %s\n",
                 api.getVersion(), api.path.c_str());
  return api;
}

} // namespace

const CublasLtApi &cublasLt() {
  static CublasLtApi api;
  static std::once_flag loaded;
  std::call_once(loaded, [] { api = load(); });
  return api;
}

void checkBlas(cublasStatus_t status, const char *what) {
  if (status == CUBLAS_STATUS_SUCCESS)
    return;
  std::fprintf(stderr, "amprt_cuda: %s failed: %s\n", what,
               cublasLt().statusString(status));
  std::abort();
}

} // namespace amprt::cuda
