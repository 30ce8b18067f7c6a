// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-autocast --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --split-input-file --allow-unregistered-dialect --amp-autocast=precision=bf16 --verify-diagnostics | FileCheck %s --check-prefix=BF16

// Allow: operands low (zero points recreated as low constants), the result
// is the f32 accumulation and is not cast back.
// CHECK-LABEL: func.func @allow_matmul
// CHECK-SAME: (%[[A:.*]]: tensor<1x4x8xf32>, %[[B:.*]]: tensor<1x8x4xf32>) -> tensor<1x4x4xf32>
// CHECK-DAG: %[[A16:.*]] = tosa.cast %[[A]] : (tensor<1x4x8xf32>) -> tensor<1x4x8xf16>
// CHECK-DAG: %[[B16:.*]] = tosa.cast %[[B]] : (tensor<1x8x4xf32>) -> tensor<1x8x4xf16>
// CHECK-DAG: %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf16>}>
// CHECK: %[[MM:.*]] = tosa.matmul %[[A16]], %[[B16]], %[[ZP]], %[[ZP]] : {{.*}} -> tensor<1x4x4xf32>
// CHECK-NEXT: return %[[MM]]
// BF16-LABEL: func.func @allow_matmul
// BF16-COUNT-2: tosa.cast {{.*}} -> tensor<{{.*}}xbf16>
// BF16: tosa.matmul {{.*}} : (tensor<1x4x8xbf16>, tensor<1x8x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x4x4xf32>
func.func @allow_matmul(%a: tensor<1x4x8xf32>, %b: tensor<1x8x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x8xf32>, tensor<1x8x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// -----

// Convolutions: input and weights low, bias added to the f32 accumulator.
// CHECK-LABEL: func.func @allow_conv2d
// CHECK-SAME: %[[X:[^:]*]]: tensor<1x8x8x4xf32>, %[[W:[^:]*]]: tensor<8x3x3x4xf32>, %[[BIAS:[^:]*]]: tensor<8xf32>
// CHECK-DAG: %[[X16:.*]] = tosa.cast %[[X]]
// CHECK-DAG: %[[W16:.*]] = tosa.cast %[[W]]
// CHECK: tosa.conv2d %[[X16]], %[[W16]], %[[BIAS]], {{.*}} {acc_type = f32, {{.*}}} : (tensor<1x8x8x4xf16>, tensor<8x3x3x4xf16>, tensor<8xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x6x6x8xf32>
func.func @allow_conv2d(%x: tensor<1x8x8x4xf32>, %w: tensor<8x3x3x4xf32>, %b: tensor<8xf32>) -> tensor<1x6x6x8xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x4xf32>, tensor<8x3x3x4xf32>, tensor<8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x6x6x8xf32>
  return %0 : tensor<1x6x6x8xf32>
}

// -----

// Deny ops alone: nothing changes.
// CHECK-LABEL: func.func @deny_only
// CHECK-NOT: tosa.cast
// CHECK: tosa.exp %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: tosa.log %{{.*}} : (tensor<4xf32>) -> tensor<4xf32>
func.func @deny_only(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tosa.exp %a : (tensor<4xf32>) -> tensor<4xf32>
  %1 = tosa.log %0 : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Infer between two low ops goes low; %b and %c are cast once each although
// %b is read twice; the matmul result is cast once, for the add.
// CHECK-LABEL: func.func @infer_between_allow
// CHECK-COUNT-4: tosa.cast
// CHECK-NOT: tosa.cast
// CHECK: tosa.add {{.*}} : (tensor<1x4x4xf16>, tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
func.func @infer_between_allow(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>, %c: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.add %0, %c : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.matmul %1, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %2 : tensor<1x4x4xf32>
}

// -----

// Infer and clear ops after the last low op that lead only to f32 stay f32:
// the f32 accumulation flows on, no f32 -> f16 -> f32 chain.
// CHECK-LABEL: func.func @infer_after_allow
// CHECK-COUNT-2: tosa.cast
// CHECK-NOT: tosa.cast
// CHECK: tosa.tanh %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.transpose %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
func.func @infer_after_allow(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.tanh %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.transpose %1 {perms = array<i32: 0, 2, 1>} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %2 : tensor<1x4x4xf32>
}

// -----

// Infer ops whose float inputs are all low run low (tanh and abs here); the
// input's own f16 -> f32 cast is folded away: abs reads the f16 value.
// CHECK-LABEL: func.func @infer_follows_low
// CHECK-SAME: (%[[A:.*]]: tensor<4xf16>
// CHECK: %[[T:.*]] = tosa.tanh %[[A]] : (tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT: %[[ABS:.*]] = tosa.abs %[[T]] : (tensor<4xf16>) -> tensor<4xf16>
// CHECK-NEXT: %[[R:.*]] = tosa.cast %[[ABS]] : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: return %[[R]]
func.func @infer_follows_low(%a: tensor<4xf16>) -> tensor<4xf32> {
  %0 = tosa.tanh %a : (tensor<4xf16>) -> tensor<4xf16>
  %1 = tosa.cast %0 : (tensor<4xf16>) -> tensor<4xf32>
  %2 = tosa.abs %1 : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}

// -----

// Deny propagates forward through infer ops (TF's rule): the add after exp
// stays f32 although a low matmul reads it, and is cast once there.
// CHECK-LABEL: func.func @deny_propagates
// CHECK: %[[MM:.*]] = tosa.matmul {{.*}} -> tensor<1x4x4xf32>
// CHECK: %[[E:.*]] = tosa.exp %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[ADD:.*]] = tosa.add %[[E]], %[[MM]] : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[ADD16:.*]] = tosa.cast %[[ADD]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: tosa.matmul %[[ADD16]]
func.func @deny_propagates(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.exp %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.add %1, %0 : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.matmul %2, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %3 : tensor<1x4x4xf32>
}

// -----

// f64 and integer values are never touched, and an f32 op with no low
// neighbour stays f32. The signature is unchanged.
// CHECK-LABEL: func.func @f64_and_int
// CHECK-SAME: (%{{.*}}: tensor<1x4x4xf64>, %{{.*}}: tensor<1x4x4xi32>, %{{.*}}: tensor<1x4x4xf32>) -> (tensor<1x4x4xf64>, tensor<1x4x4xi32>, tensor<1x4x4xf32>)
// CHECK-NOT: tosa.cast
// CHECK: tosa.matmul {{.*}} -> tensor<1x4x4xf64>
// CHECK: tosa.add {{.*}} -> tensor<1x4x4xi32>
// CHECK: tosa.abs {{.*}} -> tensor<1x4x4xf32>
// CHECK-NOT: tosa.cast
func.func @f64_and_int(%a: tensor<1x4x4xf64>, %i: tensor<1x4x4xi32>, %f: tensor<1x4x4xf32>) -> (tensor<1x4x4xf64>, tensor<1x4x4xi32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf64>}> : () -> tensor<1xf64>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf64>, tensor<1x4x4xf64>, tensor<1xf64>, tensor<1xf64>) -> tensor<1x4x4xf64>
  %1 = tosa.add %i, %i : (tensor<1x4x4xi32>, tensor<1x4x4xi32>) -> tensor<1x4x4xi32>
  %2 = tosa.abs %f : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %0, %1, %2 : tensor<1x4x4xf64>, tensor<1x4x4xi32>, tensor<1x4x4xf32>
}

// -----

// amp.keep_f32 keeps an allow op in f32; amp.force_low runs a deny op low.
// CHECK-LABEL: func.func @attributes
// CHECK-SAME: (%[[A:.*]]: tensor<1x4x4xf32>, %[[B:.*]]: tensor<1x4x4xf32>)
// CHECK: tosa.matmul %[[A]], %[[B]], {{.*}} {amp.keep_f32} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[E:.*]] = tosa.exp %{{.*}} {amp.force_low} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: tosa.cast %[[E]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
func.func @attributes(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp {amp.keep_f32} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.exp %a {amp.force_low} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %0, %1 : tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

// -----

// An op the policy does not know stays f32, with a remark; its low
// neighbours cast at the boundary.
// CHECK-LABEL: func.func @unknown_op
// CHECK: %[[MM:.*]] = tosa.matmul {{.*}} -> tensor<1x4x4xf32>
// CHECK: "test.unknown"(%[[MM]]) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
func.func @unknown_op(%a: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{op 'test.unknown' is not in the precision policy; kept in f32}}
  %1 = "test.unknown"(%0) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %1 : tensor<1x4x4xf32>
}

// -----

// Regions: ops inside scf.if are painted too; the if and its yields are
// f32 boundaries, so the result verifies.
// CHECK-LABEL: func.func @scf_if
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (tensor<1x4x4xf32>) {
// CHECK:   %[[IN:.*]] = tosa.matmul {{.*}} : (tensor<1x4x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
// CHECK:   scf.yield %[[IN]] : tensor<1x4x4xf32>
// CHECK: } else {
// CHECK:   scf.yield %{{.*}} : tensor<1x4x4xf32>
// CHECK: }
// CHECK: %[[IF16:.*]] = tosa.cast %[[IF]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: tosa.matmul %[[IF16]]
func.func @scf_if(%p: i1, %a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = scf.if %p -> tensor<1x4x4xf32> {
    %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    scf.yield %0 : tensor<1x4x4xf32>
  } else {
    scf.yield %a : tensor<1x4x4xf32>
  }
  %1 = tosa.matmul %r, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %1 : tensor<1x4x4xf32>
}

// -----

// scf.for: the loop-carried value stays f32; the body casts it for the
// matmul and the tanh after the matmul stays f32 (it feeds the yield).
// CHECK-LABEL: func.func @scf_for
// CHECK: scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x4x4xf32>) {
// CHECK:   %[[ACC16:.*]] = tosa.cast %[[ACC]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK:   %[[MM:.*]] = tosa.matmul %[[ACC16]], {{.*}} -> tensor<1x4x4xf32>
// CHECK:   %[[T:.*]] = tosa.tanh %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK:   scf.yield %[[T]] : tensor<1x4x4xf32>
func.func @scf_for(%a: tensor<1x4x4xf32>, %n: index) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %a) -> tensor<1x4x4xf32> {
    %m = tosa.matmul %acc, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
    %t = tosa.tanh %m : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
    scf.yield %t : tensor<1x4x4xf32>
  }
  return %r : tensor<1x4x4xf32>
}

// -----

// Calls are f32 boundaries: the argument is cast up, the result cast down
// for the low matmul that reads it.
// CHECK-LABEL: func.func @call
// CHECK: %[[T:.*]] = tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[T32:.*]] = tosa.cast %[[T]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
// CHECK: %[[C:.*]] = call @callee(%[[T32]]) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[C16:.*]] = tosa.cast %[[C]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK: tosa.matmul %[[T]], %[[C16]]
func.func private @callee(tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
func.func @call(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.tanh %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = func.call @callee(%1) : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.matmul %1, %2, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %3 : tensor<1x4x4xf32>
}

// -----

// Typed attributes follow the element type: clamp bounds become f16 (the
// f32 maximum rounds to +inf, which clamps nothing, as before).
// CHECK-LABEL: func.func @clamp_bounds
// CHECK: tosa.clamp %{{.*}} {max_val = 0x7C00 : f16, min_val = 0.000000e+00 : f16} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
func.func @clamp_bounds(%a: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.clamp %0 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.matmul %1, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %2 : tensor<1x4x4xf32>
}

// -----

// TOSA sums cannot accumulate f16 inputs in f32, so a reduce_sum moved to
// infer still runs f32 (every sum accumulates in f32).
// CHECK-LABEL: func.func @reduce_sum_stays_f32
// CHECK: tosa.reduce_sum %{{.*}} {amp.force_low, axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
func.func @reduce_sum_stays_f32(%a: tensor<1x4x4xf16>) -> tensor<1x1x4xf32> {
  %0 = tosa.cast %a : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
  // expected-warning@+1 {{'amp.force_low' ignored: this op cannot run in low precision with an f32 accumulator}}
  %1 = tosa.reduce_sum %0 {axis = 1 : i32, amp.force_low} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  return %1 : tensor<1x1x4xf32>
}

// -----

// tosa.scatter between two low values runs low on its values and updates;
// its i32 indices are untouched.
// CHECK-LABEL: func.func @scatter
// CHECK: tosa.scatter %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x4x4xf16>, tensor<1x2xi32>, tensor<1x2x4xf16>) -> tensor<1x4x4xf16>
func.func @scatter(%a: tensor<1x4x4xf32>, %idx: tensor<1x2xi32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %1 = tosa.gather %0, %idx : (tensor<1x4x4xf32>, tensor<1x2xi32>) -> tensor<1x2x4xf32>
  %2 = tosa.scatter %0, %idx, %1 : (tensor<1x4x4xf32>, tensor<1x2xi32>, tensor<1x2x4xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.matmul %2, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %3 : tensor<1x4x4xf32>
}

// -----

// Everything downstream of amp.grad is the optimizer and stays f32, even a
// matmul in it (a Shampoo- or K-FAC-like preconditioner).
// CHECK-LABEL: func.func @optimizer_stays_f32
// CHECK: %[[D:.*]] = tosa.matmul {{.*}} : (tensor<1x4x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
// CHECK: %[[G:.*]] = amp.grad %[[D]] {param = 1 : i64} : tensor<1x4x4xf32>
// CHECK: %[[P:.*]] = tosa.matmul %[[G]], %[[G]], {{.*}} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
// CHECK: tosa.sub %{{.*}}, %[[P]] : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
func.func @optimizer_stays_f32(%x: tensor<1x4x4xf32>, %w: tensor<1x4x4xf32> {amp.param})
    -> (tensor<1x4x4xf32> {amp.update_of = 1 : i64}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %d = tosa.matmul %x, %x, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %g = amp.grad %d {param = 1 : i64} : tensor<1x4x4xf32>
  %p = tosa.matmul %g, %g, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %n = tosa.sub %w, %p : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %n : tensor<1x4x4xf32>
}

// -----

// The ops that compute only the amp.loss result stay f32 although their
// inputs are low; without the marker they would run low.
// CHECK-LABEL: func.func @loss_tail_stays_f32
// CHECK: %[[L:.*]] = tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[L32:.*]] = tosa.cast %[[L]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
// CHECK: %[[ABS:.*]] = tosa.abs %[[L32]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// CHECK: %[[R:.*]] = tosa.reduce_max %[[ABS]] {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
// CHECK: tosa.reduce_max %[[R]] {axis = 2 : i32} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
// CHECK-LABEL: func.func @no_loss_marker
// CHECK: %[[L:.*]] = tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[ABS:.*]] = tosa.abs %[[L]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: %[[R:.*]] = tosa.reduce_max %[[ABS]] {axis = 1 : i32} : (tensor<1x4x4xf16>) -> tensor<1x1x4xf16>
// CHECK: tosa.reduce_max %[[R]] {axis = 2 : i32} : (tensor<1x1x4xf16>) -> tensor<1x1x1xf16>
func.func @loss_tail_stays_f32(%x: tensor<1x4x4xf32>) -> (tensor<1x1x1xf32> {amp.loss}, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %x, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %l = tosa.tanh %m : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %l, %l, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %a = tosa.abs %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tosa.reduce_max %a {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %loss = tosa.reduce_max %r {axis = 2 : i32} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  return %loss, %m2 : tensor<1x1x1xf32>, tensor<1x4x4xf32>
}
func.func @no_loss_marker(%x: tensor<1x4x4xf32>) -> (tensor<1x1x1xf32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %x, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %l = tosa.tanh %m : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %l, %l, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %a = tosa.abs %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tosa.reduce_max %a {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %loss = tosa.reduce_max %r {axis = 2 : i32} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  return %loss, %m2 : tensor<1x1x1xf32>, tensor<1x4x4xf32>
}

// -----

// No cast chain: a graph where values cross precisions more than once (a
// low value read by f32 ops, f32 values read by low ops, clear ops between)
// never gets a cast of a cast, and each value is cast at most once per
// type. The transpose of the matmul's f32 accumulation is also returned, so
// it stays f32 (rounding it to move it would make f32 -> f16 -> f32) and
// the sigmoid casts after it.
// CHECK-LABEL: func.func @no_cast_chain
// CHECK: %[[C1:.*]] = tosa.cast %[[V1:.*]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast %[[C1]]
// CHECK-NOT: tosa.cast %[[V1]]
// CHECK: %[[C2:.*]] = tosa.cast %[[V2:.*]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast %[[C1]]
// CHECK-NOT: tosa.cast %[[C2]]
// CHECK-NOT: tosa.cast %[[V2]]
// CHECK: %[[C3:.*]] = tosa.cast %[[V3:.*]] : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
// CHECK-NOT: tosa.cast %[[C1]]
// CHECK-NOT: tosa.cast %[[C2]]
// CHECK-NOT: tosa.cast %[[C3]]
// CHECK-NOT: tosa.cast %[[V3]]
// CHECK: %[[C4:.*]] = tosa.cast %[[V4:.*]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast
// CHECK: return %{{.*}}, %{{.*}}, %[[V2]] :
func.func @no_cast_chain(%x: tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.matmul %x, %x, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %t = tosa.transpose %m {perms = array<i32: 0, 2, 1>} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %s = tosa.sigmoid %t : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %s, %s, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %e = tosa.exp %s : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %r = tosa.reverse %e {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m3 = tosa.matmul %r, %s, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %m2, %m3, %t : tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

// -----

// Buffers are never retyped: ops on memrefs are left as they are.
// CHECK-LABEL: func.func @memrefs_untouched
// CHECK-NOT: tosa.cast
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x4xf32>, memref<4x4xf32>) outs(%{{.*}} : memref<4x4xf32>)
func.func @memrefs_untouched(%a: memref<4x4xf32>, %c: memref<4x4xf32>) {
  linalg.matmul ins(%a, %a : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return
}
