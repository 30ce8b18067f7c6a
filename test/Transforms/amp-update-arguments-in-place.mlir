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

// -----

// An update computed with its unit dimension dropped (a 1x4 bias's momentum
// as a 4-vector, then expanded) is written into the collapse of its
// argument that it already reads, and materialized there: the loop then
// updates the argument in place instead of writing a fresh buffer that is
// copied in. The two reads of the old value through separate collapses
// become one.
// CHECK-LABEL: func.func @collapsed_update
// CHECK-SAME: %[[M:[^:]+]]: tensor<1x4xf32> {amp.state, bufferization.writable = true}
// CHECK: %[[VIEW:.+]] = tensor.collapse_shape %[[M]] {{\[}}[0, 1]]
// CHECK: %[[NEXT:.+]] = linalg.generic
// CHECK-SAME: ins(%[[VIEW]], %{{.+}}, %[[VIEW]] : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
// CHECK-SAME: outs(%[[VIEW]] : tensor<4xf32>)
// CHECK: %[[IN:.+]] = bufferization.materialize_in_destination %[[NEXT]] in %[[VIEW]]
// CHECK: %[[BACK:.+]] = tensor.expand_shape %[[IN]] {{\[}}[0, 1]] output_shape [1, 4]
// CHECK: return %{{.+}}, %[[BACK]]
#id = affine_map<(d0) -> (d0)>
func.func @collapsed_update(%m: tensor<1x4xf32> {amp.state}, %g: tensor<4xf32>)
    -> (tensor<f32> {amp.loss}, tensor<1x4xf32> {amp.update_of = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %a = tensor.collapse_shape %m [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %b = tensor.collapse_shape %m [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %empty = tensor.empty() : tensor<4xf32>
  %next = linalg.generic {indexing_maps = [#id, #id, #id, #id],
                          iterator_types = ["parallel"]}
      ins(%a, %g, %b : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>)
      outs(%empty : tensor<4xf32>) {
  ^bb0(%in: f32, %grad: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %grad : f32
    %t = arith.addf %s, %in2 : f32
    linalg.yield %t : f32
  } -> tensor<4xf32>
  %e = tensor.expand_shape %next [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  return %loss, %e : tensor<f32>, tensor<1x4xf32>
}

// -----

// Not where the old value is read after the update (here by a second loop
// nest): writing through the view could then force bufferization to copy
// the view, and the update would miss its argument. The expansion is
// materialized in the argument as any update.
// CHECK-LABEL: func.func @collapsed_update_read_after
// CHECK-SAME: %[[M:[^:]+]]: tensor<1x4xf32> {amp.state, bufferization.writable = true}
// CHECK: %[[EMPTY:.+]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[EMPTY]] : tensor<4xf32>)
// CHECK: %[[E:.+]] = tensor.expand_shape
// CHECK: %[[IN:.+]] = bufferization.materialize_in_destination %[[E]] in %[[M]]
// CHECK: return %{{.+}}, %[[IN]], %{{.+}}
#id = affine_map<(d0) -> (d0)>
func.func @collapsed_update_read_after(%m: tensor<1x4xf32> {amp.state}, %g: tensor<4xf32>)
    -> (tensor<f32> {amp.loss}, tensor<1x4xf32> {amp.update_of = 0 : i64}, tensor<1x4xf32>) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %a = tensor.collapse_shape %m [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %empty = tensor.empty() : tensor<4xf32>
  %next = linalg.generic {indexing_maps = [#id, #id, #id],
                          iterator_types = ["parallel"]}
      ins(%a, %g : tensor<4xf32>, tensor<4xf32>)
      outs(%empty : tensor<4xf32>) {
  ^bb0(%in: f32, %grad: f32, %out: f32):
    %s = arith.addf %in, %grad : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e = tensor.expand_shape %next [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  %empty2 = tensor.empty() : tensor<1x4xf32>
  %twice = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                           iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<1x4xf32>) outs(%empty2 : tensor<1x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.addf %in, %in : f32
    linalg.yield %d : f32
  } -> tensor<1x4xf32>
  return %loss, %e, %twice : tensor<f32>, tensor<1x4xf32>, tensor<1x4xf32>
}
