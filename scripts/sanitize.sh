#!/usr/bin/env bash
# Builds amp-mlir with AddressSanitizer + UndefinedBehaviorSanitizer (and the
# libFuzzer targets) into build-asan/, then runs the lit suite against it.
# Any report fails the run. Tests that load our instrumented libraries into
# an uninstrumented host (Python's ctypes, mlir-opt-22's plugin loader,
# mlir-runner, the installed CMake package) are left to the normal build.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-asan"
flags="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=all -fno-omit-frame-pointer -g -O1"
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  cmake -G Ninja -S "$root" -B "$build" \
    -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
    -DLLVM_USE_LINKER=lld -DAMP_ENABLE_FUZZERS=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    "${launcher[@]}" >/dev/null
fi
ninja -C "$build" "$@"
# Leaks in the compiler tools are MLIR's global registries at exit, not
# ours; containers cross into the uninstrumented MLIR/LLVM libraries.
export ASAN_OPTIONS=detect_leaks=0:detect_container_overflow=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
/usr/lib/llvm-22/bin/lit -sv \
  --filter-out 'Python/|Plugin/|Embedding/|Integration/CPU/.*\.mlir' \
  "$build/test"
