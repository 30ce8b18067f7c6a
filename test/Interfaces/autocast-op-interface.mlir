// A dialect outside amp-mlir (test/lib/Dialect/TestAutocast) takes part in
// --amp-autocast through its AutocastOpInterface alone: its ops are in no
// policy list, yet fma_acc is allow with an f32 accumulator operand and
// result, scale is infer and retypes its f32 factor attribute when it runs
// low, sum can never run low, and tag is a boundary no policy can move.
// RUN: amp-opt %s --amp-autocast=explain --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-autocast="deny=test_autocast.scale" | FileCheck %s --check-prefix=DENY
// RUN: amp-opt %s --amp-autocast | grep -c tosa.cast | FileCheck %s --check-prefix=CASTS
// RUN: not amp-opt %s --amp-autocast="allow=test_autocast.tag" 2>&1 | FileCheck %s --check-prefix=TAG

// CHECK-LABEL: func.func @chain
// CHECK-SAME: (%[[A:.*]]: tensor<4xf32>, %[[B:.*]]: tensor<4xf32>, %[[ACC:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[A16:.*]] = tosa.cast %[[A]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-DAG: %[[B16:.*]] = tosa.cast %[[B]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: %[[P:.*]] = test_autocast.fma_acc %[[A16]], %[[B16]], %[[ACC]] : tensor<4xf16>, tensor<4xf16>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[P16:.*]] = tosa.cast %[[P]] : (tensor<4xf32>) -> tensor<4xf16>
// CHECK: %[[S:.*]] = test_autocast.scale %[[P16]] {factor = 5.000000e-01 : f16} : tensor<4xf16>
// CHECK: %[[Q:.*]] = test_autocast.fma_acc %[[S]], %[[B16]], %[[ACC]] : tensor<4xf16>, tensor<4xf16>, tensor<4xf32> -> tensor<4xf32>
// CHECK: %[[T:.*]] = test_autocast.tag %[[Q]] : tensor<4xf32>
// CHECK: test_autocast.sum %[[T]] : tensor<4xf32> -> f32
// CHECK: return %[[T]]

// Three casts: a, b (shared by both fma_acc) and the accumulation read by scale.
// CASTS: {{^}}3{{$}}

// DENY-LABEL: func.func @chain
// DENY: test_autocast.fma_acc {{.*}} -> tensor<4xf32>
// DENY: test_autocast.scale {{.*}} {factor = 5.000000e-01 : f32} : tensor<4xf32>
// DENY: test_autocast.fma_acc %{{.*}}, %{{.*}}, %{{.*}} : tensor<4xf16>, tensor<4xf16>, tensor<4xf32>

// TAG: error: amp-autocast: policy cannot move op 'test_autocast.tag': its precision follows from what it is

func.func @chain(%a: tensor<4xf32>, %b: tensor<4xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  // expected-remark@+1 {{amp-autocast: allow op runs low (category)}}
  %0 = test_autocast.fma_acc %a, %b, %acc : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  // expected-remark@+1 {{amp-autocast: infer op runs low (neighbours)}}
  %1 = test_autocast.scale %0 {factor = 0.5 : f32} : tensor<4xf32>
  // expected-remark@+1 {{amp-autocast: allow op runs low (category)}}
  %2 = test_autocast.fma_acc %1, %b, %acc : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  %3 = test_autocast.tag %2 : tensor<4xf32>
  // expected-remark@+1 {{amp-autocast: infer op runs f32 (no f32 accumulation in low precision)}}
  %4 = test_autocast.sum %3 : tensor<4xf32> -> f32
  return %3 : tensor<4xf32>
}
