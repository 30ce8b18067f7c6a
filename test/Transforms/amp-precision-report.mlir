// The report counts ops per category and precision, casts, and activation
// bytes at their current types against the same graph in f32.
// RUN: amp-opt %s --amp-precision-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=F32
// RUN: amp-opt %s --amp-autocast --amp-precision-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: amp-opt %s --amp-autocast --amp-precision-report="output=%t.txt" -o /dev/null && FileCheck %s --check-prefix=MIXED < %t.txt
// RUN: amp-opt %s --amp-precision-report | FileCheck %s --check-prefix=UNCHANGED

// Before the rewrite everything is f32. Activations: 5 tensors of 1x4x4 f32
// (64 bytes each) = 320 bytes.
// F32: amp precision report for @mlp_block
// F32-NEXT: category low f32
// F32-NEXT: allow 0 2
// F32-NEXT: deny 0 1
// F32-NEXT: infer 0 2
// F32-NEXT: clear 0 0
// F32-NEXT: unknown - 0
// F32-NEXT: casts: 0 (0 bytes written)
// F32-NEXT: activation bytes: f32 320, mixed 320 (100.0%)

// After: both matmuls low (f32 results), add and clamp low (32 bytes each),
// exp f32. Casts: %a, %b, %c and the first matmul's result (4 x 32 bytes).
// MIXED: amp precision report for @mlp_block
// MIXED-NEXT: category low f32
// MIXED-NEXT: allow 2 0
// MIXED-NEXT: deny 0 1
// MIXED-NEXT: infer 2 0
// MIXED-NEXT: clear 0 0
// MIXED-NEXT: unknown - 0
// MIXED-NEXT: casts: 4 (128 bytes written)
// MIXED-NEXT: activation bytes: f32 320, mixed 256 (80.0%)

// The analysis changes nothing.
// UNCHANGED: tosa.matmul {{.*}} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
func.func @mlp_block(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>, %c: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.add %0, %c : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.clamp %1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.matmul %2, %c, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %4 = tosa.exp %3 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %4 : tensor<1x4x4xf32>
}
