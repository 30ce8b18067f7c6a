// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-widen-in-consumers))" | FileCheck %s

// A bf16 gradient widened for a bias-gradient reduction and an elementwise
// reader: both read the bf16 tensor and widen in their bodies; the f32 copy
// and its empty tensor are gone.
// CHECK-LABEL: func.func @readers_widen
// CHECK-SAME: (%[[G:.*]]: tensor<64x256xbf16>
// CHECK-NOT: arith.extf
// CHECK: linalg.reduce ins(%[[G]] : tensor<64x256xbf16>)
// CHECK-NEXT: (%[[IN:.*]]: bf16, %[[ACC:.*]]: f32) {
// CHECK-NEXT: %[[W:.*]] = arith.extf %[[IN]] : bf16 to f32
// CHECK-NEXT: arith.addf %[[W]], %[[ACC]]
// CHECK: linalg.generic {{.*}} ins(%[[G]] : tensor<64x256xbf16>)
// CHECK-NEXT: ^bb0(%[[IN2:.*]]: bf16, %{{.*}}: f32):
// CHECK-NEXT: %[[W2:.*]] = arith.extf %[[IN2]] : bf16 to f32
// CHECK-NEXT: arith.mulf %[[W2]], %[[W2]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @readers_widen(%g: tensor<64x256xbf16>, %acc: tensor<256xf32>) -> (tensor<256xf32>, tensor<64x256xf32>) {
  %e = tensor.empty() : tensor<64x256xf32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%g : tensor<64x256xbf16>) outs(%e : tensor<64x256xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %w = arith.extf %in : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<64x256xf32>
  %sum = linalg.reduce ins(%wide : tensor<64x256xf32>) outs(%acc : tensor<256xf32>) dimensions = [0]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<64x256xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%wide : tensor<64x256xf32>) outs(%e2 : tensor<64x256xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.mulf %in, %in : f32
    linalg.yield %m : f32
  } -> tensor<64x256xf32>
  return %sum, %sq : tensor<256xf32>, tensor<64x256xf32>
}

// -----

// A contraction keeps its f32 operand (its operand types choose the GEMM),
// and so does a return: the widening stays for them, while the reduction
// widens the f16 tensor itself.
// CHECK-LABEL: func.func @widening_kept
// CHECK: %[[WIDE:.*]] = linalg.generic {{.*}} ins(%arg0 : tensor<8x8xf16>)
// CHECK: linalg.reduce ins(%arg0 : tensor<8x8xf16>)
// CHECK: linalg.matmul ins(%[[WIDE]], %arg1 : tensor<8x8xf32>, tensor<8x8xf32>)
// CHECK: return {{.*}}, %[[WIDE]]
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @widening_kept(%x: tensor<8x8xf16>, %y: tensor<8x8xf32>, %acc: tensor<8xf32>, %c: tensor<8x8xf32>)
    -> (tensor<8xf32>, tensor<8x8xf32>, tensor<8x8xf32>) {
  %e = tensor.empty() : tensor<8x8xf32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf16>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: f16, %out: f32):
    %w = arith.extf %in : f16 to f32
    linalg.yield %w : f32
  } -> tensor<8x8xf32>
  %sum = linalg.reduce ins(%wide : tensor<8x8xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  %p = linalg.matmul ins(%wide, %y : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %sum, %p, %wide : tensor<8xf32>, tensor<8x8xf32>, tensor<8x8xf32>
}

// -----

// Not a plain widening (it scales), or read as an init: unchanged.
// CHECK-LABEL: func.func @not_plain
// CHECK: arith.extf
// CHECK: arith.mulf
// CHECK: linalg.reduce ins(%{{.*}} : tensor<8x8xf32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<8x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @not_plain(%x: tensor<8x8xbf16>, %acc: tensor<8xf32>, %z: tensor<8x8xf32>) -> (tensor<8xf32>, tensor<8x8xf32>) {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xbf16>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %w = arith.extf %in : bf16 to f32
    %m = arith.mulf %w, %two : f32
    linalg.yield %m : f32
  } -> tensor<8x8xf32>
  %sum = linalg.reduce ins(%scaled : tensor<8x8xf32>) outs(%acc : tensor<8xf32>) dimensions = [1]
    (%in: f32, %a: f32) {
      %s = arith.addf %in, %a : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<8x8xf32>
  %wide = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xbf16>) outs(%e2 : tensor<8x8xf32>) {
  ^bb0(%in: bf16, %out: f32):
    %w = arith.extf %in : bf16 to f32
    linalg.yield %w : f32
  } -> tensor<8x8xf32>
  %acc2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<8x8xf32>) outs(%wide : tensor<8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %sum, %acc2 : tensor<8xf32>, tensor<8x8xf32>
}
