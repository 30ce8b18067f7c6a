// linalg named contractions, elementwise named ops and linalg.generic
// (classified by its payload).
// RUN: amp-opt %s --split-input-file --amp-autocast="cast-dialect=arith" | FileCheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

// Named matmuls: f16 inputs, f32 init and result (f32 accumulation); the
// body is rebuilt for the new operand types. The tanh generic between the
// matmuls runs low with an f32 payload (widen on entry, narrow on exit).
// CHECK-LABEL: func.func @named_and_generic
// CHECK: %[[A:.*]] = arith.truncf %arg0 : tensor<4x8xf32> to tensor<4x8xf16>
// CHECK: %[[B:.*]] = arith.truncf %arg1 : tensor<8x4xf32> to tensor<8x4xf16>
// CHECK: %[[M:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x8xf16>, tensor<8x4xf16>) outs(%{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK: %[[MH:.*]] = arith.truncf %[[M]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: %[[T:.*]] = linalg.generic {{.*}} ins(%[[MH]] : tensor<4x4xf16>) outs(%{{.*}} : tensor<4x4xf16>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %{{.*}}: f16):
// CHECK-NEXT:   %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:   %[[TANH:.*]] = math.tanh %[[W]] : f32
// CHECK-NEXT:   %[[N:.*]] = arith.truncf %[[TANH]] : f32 to f16
// CHECK-NEXT:   linalg.yield %[[N]] : f16
// CHECK: linalg.matmul ins(%[[T]], %[[T]] : tensor<4x4xf16>, tensor<4x4xf16>) outs(%{{.*}} : tensor<4x4xf32>) -> tensor<4x4xf32>
func.func @named_and_generic(%a: tensor<4x8xf32>, %b: tensor<8x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.tanh %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%t, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// -----

// A generic whose payload holds a deny op (exp) is deny: it stays f32
// between two matmuls, and its result is cast once for the second one.
// CHECK-LABEL: func.func @generic_with_deny_payload
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x4xf32>) outs(%{{.*}} : tensor<4x4xf32>)
// CHECK: math.exp %{{.*}} : f32
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x4xf16>, tensor<4x4xf16>)
func.func @generic_with_deny_payload(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %x = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = math.exp %in : f32
    linalg.yield %0 : f32
  } -> tensor<4x4xf32>
  %m2 = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}

// -----

// A sum written as a generic with a reduction iterator, forced low: its
// input goes low but the init and result stay f32, so it accumulates in f32.
// CHECK-LABEL: func.func @generic_sum_accumulates_f32
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<4x4xf16>) outs(%{{.*}} : tensor<4xf32>) attrs = {amp.force_low}
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f16, %[[ACC:.*]]: f32):
// CHECK-NEXT:   %[[W:.*]] = arith.extf %[[IN]] : f16 to f32
// CHECK-NEXT:   arith.addf %[[W]], %[[ACC]] : f32
// CHECK: -> tensor<4xf32>
func.func @generic_sum_accumulates_f32(%a: tensor<4x4xf32>) -> tensor<4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<4x4xf32>) outs(%f : tensor<4xf32>) attrs = {amp.force_low} {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Elementwise named ops and linalg.transpose between two contractions run
// low; the empty init tensors and the fill constant are recreated in f16.
// CHECK-LABEL: func.func @named_elementwise
// CHECK: %[[M:.*]] = linalg.batch_matmul ins({{.*}} : tensor<2x4x4xf16>, tensor<2x4x4xf16>) outs(%{{.*}} : tensor<2x4x4xf32>)
// CHECK: %[[MH:.*]] = arith.truncf %[[M]] : tensor<2x4x4xf32> to tensor<2x4x4xf16>
// CHECK: %[[ADD:.*]] = linalg.add ins(%[[MH]], %[[MH]] : tensor<2x4x4xf16>, tensor<2x4x4xf16>) outs(%{{.*}} : tensor<2x4x4xf16>) -> tensor<2x4x4xf16>
// CHECK: %[[TR:.*]] = linalg.transpose ins(%[[ADD]] : tensor<2x4x4xf16>) outs(%{{.*}} : tensor<2x4x4xf16>) permutation = [0, 2, 1]
// CHECK: linalg.batch_matmul ins(%[[TR]], %[[TR]] : tensor<2x4x4xf16>, tensor<2x4x4xf16>)
func.func @named_elementwise(%a: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %m = linalg.batch_matmul ins(%a, %a : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%f : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %s = linalg.add ins(%m, %m : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %t = linalg.transpose ins(%s : tensor<2x4x4xf32>) outs(%e : tensor<2x4x4xf32>) permutation = [0, 2, 1]
  %m2 = linalg.batch_matmul ins(%t, %t : tensor<2x4x4xf32>, tensor<2x4x4xf32>) outs(%f : tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  return %m2 : tensor<2x4x4xf32>
}

// -----

// arith and math on scalars and tensors.
// CHECK-LABEL: func.func @arith_math
// CHECK: %[[M:.*]] = linalg.matmul
// CHECK: %[[MH:.*]] = arith.truncf %[[M]] : tensor<4x4xf32> to tensor<4x4xf16>
// CHECK: %[[S:.*]] = arith.mulf %[[MH]], %[[MH]] : tensor<4x4xf16>
// CHECK: %[[SQ:.*]] = math.sqrt %[[S]] : tensor<4x4xf16>
// CHECK: linalg.matmul ins(%[[SQ]], %[[SQ]] : tensor<4x4xf16>, tensor<4x4xf16>)
func.func @arith_math(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %m = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = arith.mulf %m, %m : tensor<4x4xf32>
  %q = math.sqrt %s : tensor<4x4xf32>
  %m2 = linalg.matmul ins(%q, %q : tensor<4x4xf32>, tensor<4x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %m2 : tensor<4x4xf32>
}
