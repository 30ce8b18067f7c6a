// Scenarios of TVM's ToMixedPrecision tests (tests/python/relay/
// test_to_mixed_precision.py), in our terms. Casts are counted.
// RUN: amp-opt %s --split-input-file --amp-autocast | FileCheck %s

// "do not convert softmax": softmax alone is unchanged.
// CHECK-LABEL: func.func @softmax_alone
// CHECK-NOT: tosa.cast
// CHECK: linalg.softmax dimension(1) ins(%{{.*}} : tensor<4x8xf32>) outs(%{{.*}} : tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NOT: tosa.cast
func.func @softmax_alone(%a: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %0 = linalg.softmax dimension(1) ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// "green then red": a matmul then softmax has one precision boundary, the
// matmul itself: its f32 accumulation feeds the softmax directly. The only
// casts are the two matmul inputs.
// CHECK-LABEL: func.func @matmul_then_softmax
// CHECK-COUNT-2: tosa.cast {{.*}} -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast
// CHECK: %[[MM:.*]] = tosa.matmul {{.*}} -> tensor<1x4x4xf32>
// CHECK-NEXT: linalg.softmax dimension(2) ins(%[[MM]] : tensor<1x4x4xf32>)
// CHECK-NOT: tosa.cast
func.func @matmul_then_softmax(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %e = tensor.empty() : tensor<1x4x4xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = linalg.softmax dimension(2) ins(%0 : tensor<1x4x4xf32>) outs(%e : tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %1 : tensor<1x4x4xf32>
}

// -----

// "where" between two low matmuls runs low; its i1 condition is untouched.
// Casts: %a and %b once each (read by both matmuls), each matmul result
// once for the select: 4.
// CHECK-LABEL: func.func @select_between_matmuls
// CHECK-SAME: (%[[P:.*]]: tensor<1x4x4xi1>
// CHECK-COUNT-2: tosa.cast %arg{{[12]}}
// CHECK: %[[M1:.*]] = tosa.matmul
// CHECK-NEXT: %[[M1H:.*]] = tosa.cast %[[M1]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NEXT: %[[M2:.*]] = tosa.matmul
// CHECK-NEXT: %[[M2H:.*]] = tosa.cast %[[M2]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NEXT: %[[SEL:.*]] = tosa.select %[[P]], %[[M1H]], %[[M2H]] : (tensor<1x4x4xi1>, tensor<1x4x4xf16>, tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK-NEXT: tosa.matmul %[[SEL]]
// CHECK-NOT: tosa.cast
func.func @select_between_matmuls(%p: tensor<1x4x4xi1>, %a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.matmul %b, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.select %p, %0, %1 : (tensor<1x4x4xi1>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.matmul %2, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %3 : tensor<1x4x4xf32>
}

// -----

// "take with integer indices": a gather between two matmuls runs low on its
// values; its i32 indices are untouched.
// CHECK-LABEL: func.func @gather_int_indices
// CHECK-SAME: %[[IDX:[^:]*]]: tensor<1x3xi32>
// CHECK: %[[M1:.*]] = tosa.matmul
// CHECK-NEXT: %[[M1H:.*]] = tosa.cast %[[M1]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NEXT: %[[G:.*]] = tosa.gather %[[M1H]], %[[IDX]] : (tensor<1x4x4xf16>, tensor<1x3xi32>) -> tensor<1x3x4xf16>
// CHECK-NEXT: tosa.matmul %[[G]]
// CHECK-NOT: tosa.cast
func.func @gather_int_indices(%a: tensor<1x4x4xf32>, %idx: tensor<1x3xi32>) -> tensor<1x3x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.gather %0, %idx : (tensor<1x4x4xf32>, tensor<1x3xi32>) -> tensor<1x3x4xf32>
  %2 = tosa.matmul %1, %a, %zp, %zp : (tensor<1x3x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x4xf32>
  return %2 : tensor<1x3x4xf32>
}
