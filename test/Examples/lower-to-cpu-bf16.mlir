// bf16 on the CPU path. Without `native-bf16` (a CPU without AVX512-BF16)
// bf16 arithmetic runs in f32 and every rounding to bf16 is integer
// arithmetic (round to nearest even, NaN to 0x7FC0), so that LLVM emits no
// call of compiler-rt's __truncsfbf2 (GCC 12's libgcc has none, and a call
// per element would not vectorize). With it, LLVM's own bf16 ops remain.
// RUN: amp-opt %s --amp-lower-to-cpu | FileCheck %s
// RUN: amp-opt %s --amp-lower-to-cpu=native-bf16=true | FileCheck %s --check-prefix=NATIVE

// CHECK-LABEL: llvm.func @round_add
// CHECK-NOT: llvm.fptrunc
// CHECK: llvm.mlir.constant(32704 : i16)
// CHECK: llvm.select
// CHECK-NOT: llvm.fptrunc
// CHECK: llvm.fadd {{.*}} : f32
// CHECK-NOT: llvm.fptrunc
// CHECK: llvm.select
// CHECK-NOT: llvm.fptrunc
// CHECK-NOT: llvm.f{{[a-z]+}} {{.*}} bf16
// CHECK: llvm.return

// NATIVE-LABEL: llvm.func @round_add
// NATIVE: llvm.fptrunc {{.*}} : f32 to bf16
// NATIVE: llvm.fadd {{.*}} : bf16
#map = affine_map<(d0) -> (d0)>
func.func @round_add(%a: tensor<8xf32>, %b: tensor<8xbf16>) -> tensor<8xbf16> {
  %init = tensor.empty() : tensor<8xbf16>
  %r = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xf32>, tensor<8xbf16>) outs(%init : tensor<8xbf16>) {
  ^bb0(%x: f32, %y: bf16, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    %s = arith.addf %t, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<8xbf16>
  return %r : tensor<8xbf16>
}
