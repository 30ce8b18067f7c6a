// RUN: amp-opt %s --split-input-file --amp-fuse-elementwise-ops | FileCheck %s

// The cast of A never enters the matmul (`out + ext(trunc(a)) * b` is no
// library's GEMM); the transpose between them fuses into the cast instead
// (one pass over A, no separate copy). The bias add and the ReLU after the
// matmul fuse with each other, not into it.
// CHECK-DAG: #[[T:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @linear
// CHECK: %[[CAST:.*]] = linalg.generic {indexing_maps = [#[[T]], {{.*}}]{{.*}} ins(%arg0 : tensor<8x4xf32>) outs(%{{.*}} : tensor<4x8xbf16>)
// CHECK: arith.truncf
// CHECK: %[[MM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%[[CAST]], %arg1 : tensor<4x8xbf16>, tensor<8x3xbf16>)
// CHECK-NOT: arith.truncf
// CHECK: arith.mulf
// CHECK-NEXT: arith.addf
// CHECK-NEXT: linalg.yield
// CHECK: linalg.generic {{.*}} ins(%[[MM]], %arg2 : tensor<4x3xf32>, tensor<4x3xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @linear(%a: tensor<8x4xf32>, %b: tensor<8x3xbf16>, %bias: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %e8x4 = tensor.empty() : tensor<8x4xbf16>
  %low = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x4xf32>) outs(%e8x4 : tensor<8x4xbf16>) {
  ^bb0(%x: f32, %o: bf16):
    %t = arith.truncf %x : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<8x4xbf16>
  %e4x8 = tensor.empty() : tensor<4x8xbf16>
  %at = linalg.transpose ins(%low : tensor<8x4xbf16>) outs(%e4x8 : tensor<4x8xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e4x3 = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e4x3 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm = linalg.matmul ins(%at, %b : tensor<4x8xbf16>, tensor<8x3xbf16>) outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<4x3xf32>, tensor<4x3xf32>) outs(%e4x3 : tensor<4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  %relu = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%sum : tensor<4x3xf32>) outs(%e4x3 : tensor<4x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %r = arith.maximumf %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x3xf32>
  return %relu : tensor<4x3xf32>
}

// -----

// A transpose that is the matmul's own input folds into its indexing maps:
// the GEMM reads the operand with swapped strides.
// CHECK-DAG: #[[AT:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-LABEL: func.func @transposed_input
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[AT]], {{.*}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<8x4xbf16>, tensor<8x3xbf16>)
func.func @transposed_input(%a: tensor<8x4xbf16>, %b: tensor<8x3xbf16>) -> tensor<4x3xf32> {
  %e4x8 = tensor.empty() : tensor<4x8xbf16>
  %at = linalg.transpose ins(%a : tensor<8x4xbf16>) outs(%e4x8 : tensor<4x8xbf16>) permutation = [1, 0]
  %zero = arith.constant 0.0 : f32
  %e4x3 = tensor.empty() : tensor<4x3xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e4x3 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %mm = linalg.matmul ins(%at, %b : tensor<4x8xbf16>, tensor<8x3xbf16>) outs(%acc : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %mm : tensor<4x3xf32>
}

// -----

// Convolutions and fills stay named (the runtime's convolution and the
// bufferized fill want them so).
// CHECK-LABEL: func.func @convolution
// CHECK: linalg.fill
// CHECK: linalg.conv_2d_nhwc_fhwc
func.func @convolution(%in: tensor<2x6x6x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %c = linalg.conv_2d_nhwc_fhwc ins(%in, %w : tensor<2x6x6x3xf32>, tensor<4x3x3x3xf32>) outs(%acc : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  return %c : tensor<2x4x4x4xf32>
}
