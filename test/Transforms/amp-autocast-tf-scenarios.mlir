// Scenarios of TF grappler's auto_mixed_precision_test, in our terms: TF's
// Relu/Identity clear ops are tosa.identity here, MatMul is tosa.matmul.
// One difference is deliberate: a TF MatMul outputs f16, ours outputs its
// f32 accumulation, so clear ops after the last contraction that lead only
// to f32 consumers stay f32 instead of making an f32 -> f16 -> f32 chain.
// RUN: amp-opt %s --split-input-file --amp-autocast | FileCheck %s

// TF "Simple": deny1 -> clr1 -> infer1 -> clr2 -> allow1 -> clr3 -> infer2
// -> clr4 -> deny2 -> clr5. Deny propagates through clr1 to infer1; clr2
// goes low because its only user reads it low; one cast in all.
// CHECK-LABEL: func.func @simple
// CHECK-NOT: tosa.cast
// CHECK: %[[DENY1:.*]] = tosa.exp %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[CLR1:.*]] = tosa.identity %[[DENY1]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[INFER1:.*]] = tosa.abs %[[CLR1]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[CAST:.*]] = tosa.cast %[[INFER1]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: %[[CLR2:.*]] = tosa.identity %[[CAST]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast
// CHECK: %[[ALLOW1:.*]] = tosa.matmul %[[CLR2]], %[[CLR2]], {{.*}} -> tensor<1x4x4xf32>
// CHECK: tosa.identity %[[ALLOW1]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.tanh %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.identity %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.reciprocal %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.identity %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK-NOT: tosa.cast
// CHECK: return
func.func @simple(%input: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %deny1 = tosa.exp %input : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %clr1 = tosa.identity %deny1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %infer1 = tosa.abs %clr1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %clr2 = tosa.identity %infer1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %allow1 = tosa.matmul %clr2, %clr2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %clr3 = tosa.identity %allow1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %infer2 = tosa.tanh %clr3 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %clr4 = tosa.identity %infer2 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %deny2 = tosa.reciprocal %clr4 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %clr5 = tosa.identity %deny2 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %clr5 : tensor<1x4x4xf32>
}

// -----

// TF "BidirectionalClearChain": low spreads up a clear chain into the
// matmul (the cast moves to the argument) and down a clear chain from a
// low value (the tanh between the matmuls), with one cast per value.
// CHECK-LABEL: func.func @bidirectional_clear_chain
// CHECK-SAME: (%[[IN:.*]]: tensor<1x4x4xf32>)
// CHECK: %[[IN16:.*]] = tosa.cast %[[IN]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: %[[UP1:.*]] = tosa.identity %[[IN16]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[UP2:.*]] = tosa.transpose %[[UP1]] {{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[MM:.*]] = tosa.matmul %[[UP2]], %[[UP2]], {{.*}} -> tensor<1x4x4xf32>
// CHECK: %[[MM16:.*]] = tosa.cast %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: %[[T:.*]] = tosa.tanh %[[MM16]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[DOWN1:.*]] = tosa.identity %[[T]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[DOWN2:.*]] = tosa.reverse %[[DOWN1]] {{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[OUT:.*]] = tosa.cast %[[DOWN2]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
// CHECK: tosa.matmul %[[DOWN2]], %[[T]], {{.*}} -> tensor<1x4x4xf32>
// CHECK: return %{{.*}}, %[[OUT]]
// CHECK-NOT: tosa.cast
func.func @bidirectional_clear_chain(%input: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %up1 = tosa.identity %input : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %up2 = tosa.transpose %up1 {perms = array<i32: 0, 2, 1>} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %mm = tosa.matmul %up2, %up2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %t = tosa.tanh %mm : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %down1 = tosa.identity %t : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %down2 = tosa.reverse %down1 {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %mm2 = tosa.matmul %down2, %t, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %mm2, %down2 : tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

// -----

// TF "InferBetweenAllow" (infer ops between two allow ops go low), with a
// clear op in between as well.
// CHECK-LABEL: func.func @infer_between_allow
// CHECK: %[[MM:.*]] = tosa.matmul {{.*}} -> tensor<1x4x4xf32>
// CHECK: %[[MM16:.*]] = tosa.cast %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: %[[S:.*]] = tosa.sigmoid %[[MM16]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[R:.*]] = tosa.identity %[[S]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[N:.*]] = tosa.maximum %[[R]], %[[S]] : (tensor<1x4x4xf16>, tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: tosa.matmul %[[N]], %[[N]]
func.func @infer_between_allow(%input: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %allow1 = tosa.matmul %input, %input, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %infer1 = tosa.sigmoid %allow1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %clr1 = tosa.identity %infer1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %infer2 = tosa.maximum %clr1, %infer1 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %allow2 = tosa.matmul %infer2, %infer2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %allow2 : tensor<1x4x4xf32>
}

// -----

// TF "ExistingCast": a bool -> f32 cast that only feeds a low matmul makes
// f16 directly; an f32 -> f16 cast the input already has is reused by the
// matmul that needs that value in f16. One new cast (the accumulator that
// the second matmul reads).
// CHECK-LABEL: func.func @existing_casts
// CHECK-SAME: (%[[B:.*]]: tensor<1x4x4xi1>, %[[A:.*]]: tensor<1x4x4xf32>)
// CHECK: %[[A16:.*]] = tosa.cast %[[A]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: %[[B16:.*]] = tosa.cast %[[B]] : (tensor<1x4x4xi1>) -> tensor<1x4x4xf16>
// CHECK: %[[MM:.*]] = tosa.matmul %[[B16]], %[[B16]], {{.*}} -> tensor<1x4x4xf32>
// CHECK: %[[MM16:.*]] = tosa.cast %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: tosa.matmul %[[MM16]], %[[A16]], {{.*}} -> tensor<1x4x4xf32>
// CHECK: tosa.abs %[[A16]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast
func.func @existing_casts(%b: tensor<1x4x4xi1>, %a: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.cast %b : (tensor<1x4x4xi1>) -> tensor<1x4x4xf32>
  %1 = tosa.matmul %0, %0, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.cast %a : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %3 = tosa.matmul %1, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %4 = tosa.abs %2 : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
  return %3, %4 : tensor<1x4x4xf32>, tensor<1x4x4xf16>
}

// -----

// A widening cast in the input is never narrowed again: the matmul reads
// the f16 source, and the now unused f16 -> f32 cast is removed.
// CHECK-LABEL: func.func @existing_widening
// CHECK-SAME: (%[[H:.*]]: tensor<1x4x4xf16>)
// CHECK-NOT: tosa.cast
// CHECK: tosa.matmul %[[H]], %[[H]]
func.func @existing_widening(%h: tensor<1x4x4xf16>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.cast %h : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
  %1 = tosa.matmul %0, %0, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %1 : tensor<1x4x4xf32>
}

// -----

// An f32 -> f16 cast in the input whose operand now runs low is folded away:
// the f16 op reads the low value directly, with no f16 -> f32 -> f16 chain.
// CHECK-LABEL: func.func @existing_cast_of_low_value
// CHECK: %[[L:.*]] = tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast %[[L]]
// CHECK: tosa.abs %[[L]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
func.func @existing_cast_of_low_value(%x: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf16>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %x, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %l = tosa.tanh %m : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %l, %l, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %c = tosa.cast %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %a = tosa.abs %c : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
  return %m2, %a : tensor<1x4x4xf32>, tensor<1x4x4xf16>
}

// -----

// TF "NoAllow" (nothing to do without an allow op): the graph is unchanged.
// CHECK-LABEL: func.func @no_allow
// CHECK-NOT: tosa.cast
// CHECK-NOT: f16
// CHECK: return
func.func @no_allow(%input: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %0 = tosa.identity %input : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.tanh %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.exp %1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.add %2, %1 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %3 : tensor<1x4x4xf32>
}
