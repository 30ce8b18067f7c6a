// RUN: amp-opt %s --split-input-file --amp-update-arguments-in-place | FileCheck %s

// Each update of a param or optimizer state is returned through a
// materialization into its argument, which becomes writable; the loss and
// the batch are left alone.
// CHECK-LABEL: func.func @sgd_momentum
// CHECK-SAME: %[[X:[^:]+]]: tensor<8x4xf32>,
// CHECK-SAME: %[[W:[^:]+]]: tensor<4xf32> {amp.param, bufferization.writable = true}
// CHECK-SAME: %[[M:[^:]+]]: tensor<4xf32> {amp.state, bufferization.writable = true}
// CHECK: %[[NEXT_M:.+]] = arith.addf
// CHECK: %[[NEXT_W:.+]] = arith.subf
// CHECK-DAG: %[[IN_W:.+]] = bufferization.materialize_in_destination %[[NEXT_W]] in %[[W]]
// CHECK-DAG: %[[IN_M:.+]] = bufferization.materialize_in_destination %[[NEXT_M]] in %[[M]]
// CHECK-NOT: materialize_in_destination
// CHECK: return %{{.+}}, %[[IN_W]], %[[IN_M]]
func.func @sgd_momentum(%x: tensor<8x4xf32>, %w: tensor<4xf32> {amp.param},
                        %m: tensor<4xf32> {amp.state}, %g: tensor<4xf32>)
    -> (tensor<f32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64},
        tensor<4xf32> {amp.update_of = 2 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %nm = arith.addf %m, %g : tensor<4xf32>
  %nw = arith.subf %w, %nm : tensor<4xf32>
  return %loss, %nw, %nm : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Left as results: a second update of the same state, a dynamically shaped
// one (no static buffer) and a scalar float (no buffer). (The verifier
// already refuses an update of the caller's data or of another type.)
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME: %[[S:[^:]+]]: tensor<4xf32> {amp.state, bufferization.writable = true}
// CHECK-SAME: %{{[^:]+}}: tensor<4xf32>,
// CHECK-SAME: %{{[^:]+}}: tensor<?xf32> {amp.state}
// CHECK-SAME: %{{[^:]+}}: f32 {amp.state}
// CHECK: %[[IN:.+]] = bufferization.materialize_in_destination %{{.+}} in %[[S]]
// CHECK-NOT: materialize_in_destination
// CHECK: return %{{.+}}, %[[IN]], %{{.+}}, %{{.+}}, %{{.+}} :
func.func @left_alone(%s: tensor<4xf32> {amp.state}, %data: tensor<4xf32>,
                      %t: tensor<?xf32> {amp.state}, %f: f32 {amp.state})
    -> (tensor<f32> {amp.loss}, tensor<4xf32> {amp.update_of = 0 : i64},
        tensor<4xf32> {amp.update_of = 0 : i64},
        tensor<?xf32> {amp.update_of = 2 : i64},
        f32 {amp.update_of = 3 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %a = arith.addf %s, %data : tensor<4xf32>
  %b = arith.mulf %s, %data : tensor<4xf32>
  %u = arith.addf %t, %t : tensor<?xf32>
  %g = arith.addf %f, %f : f32
  return %loss, %a, %b, %u, %g
      : tensor<f32>, tensor<4xf32>, tensor<4xf32>, tensor<?xf32>, f32
}
