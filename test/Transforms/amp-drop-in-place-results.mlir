// RUN: amp-opt %s --split-input-file --amp-update-arguments-in-place --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --amp-drop-in-place-results | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-update-arguments-in-place --eliminate-empty-tensors --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" --amp-drop-in-place-results --amp-drop-markers --buffer-results-to-out-params=modify-public-functions | FileCheck %s --check-prefix=OUT

#map = affine_map<(d0) -> (d0)>

// The optimizer's loop reads and writes the param and momentum buffers
// element by element; both updates stop being results and no copy is left
// (bufferization's copies of an argument onto itself are dropped). As
// out-params, only the loss is left.
// CHECK-LABEL: func.func @momentum_in_place
// CHECK-SAME: (%[[W:[^:]+]]: memref<16xf32> {amp.param}, %[[M:[^:]+]]: memref<16xf32> {amp.state}, %[[G:[^:]+]]: memref<16xf32>) -> (memref<f32> {amp.loss})
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[W]], %[[M]], %[[G]] : {{.*}}) outs(%[[W]], %[[M]] : {{.*}})
// CHECK-NOT: memref.copy
// CHECK: return %{{.+}} : memref<f32>
// OUT-LABEL: func.func @momentum_in_place
// OUT-SAME: (%{{[^:]+}}: memref<16xf32>, %{{[^:]+}}: memref<16xf32>, %{{[^:]+}}: memref<16xf32>, %{{[^:]+}}: memref<f32>) {
func.func @momentum_in_place(%w: tensor<16xf32> {amp.param}, %m: tensor<16xf32> {amp.state},
                             %g: tensor<16xf32>)
    -> (tensor<f32> {amp.loss}, tensor<16xf32> {amp.update_of = 0 : i64},
        tensor<16xf32> {amp.update_of = 1 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %e = tensor.empty() : tensor<16xf32>
  %next:2 = linalg.generic {indexing_maps = [#map, #map, #map, #map, #map],
                            iterator_types = ["parallel"]}
      ins(%w, %m, %g : tensor<16xf32>, tensor<16xf32>, tensor<16xf32>)
      outs(%e, %e : tensor<16xf32>, tensor<16xf32>) {
  ^bb0(%wi: f32, %mi: f32, %gi: f32, %o0: f32, %o1: f32):
    %nm = arith.addf %mi, %gi : f32
    %nw = arith.subf %wi, %nm : f32
    linalg.yield %nw, %nm : f32, f32
  } -> (tensor<16xf32>, tensor<16xf32>)
  return %loss, %next#0, %next#1 : tensor<f32>, tensor<16xf32>, tensor<16xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// The old param is still read after its update is computed: bufferization
// computes the update aside and copies it in after that read. The result
// goes all the same.
// CHECK-LABEL: func.func @read_after_update
// CHECK-SAME: (%[[W:[^:]+]]: memref<16xf32> {amp.param}) -> (f32 {amp.loss})
// CHECK: %[[NEXT:.+]] = memref.alloc
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[W]] : {{.*}}) outs(%[[NEXT]] : {{.*}})
// CHECK: %[[OLD:.+]] = memref.load %[[W]]
// CHECK: memref.copy %[[NEXT]], %[[W]]
// CHECK: return %[[OLD]] : f32
func.func @read_after_update(%w: tensor<16xf32> {amp.param})
    -> (f32 {amp.loss}, tensor<16xf32> {amp.update_of = 0 : i64}) {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<16xf32>
  %next = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]}
      ins(%w : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%wi: f32, %o: f32):
    %half = arith.mulf %wi, %wi : f32
    linalg.yield %half : f32
  } -> tensor<16xf32>
  %old = tensor.extract %w[%c0] : tensor<16xf32>
  return %old, %next : f32, tensor<16xf32>
}

// -----

#map = affine_map<(d0) -> (d0)>

// A 1x4 momentum updated as a 4-vector (unit dimension dropped) and
// expanded back: the loop writes a collapsed view of the argument, the
// returned expansion of that view is the argument again, and neither a
// result nor a copy is left.
// CHECK-LABEL: func.func @collapsed_in_place
// CHECK-SAME: (%[[M:[^:]+]]: memref<1x4xf32> {amp.state}, %{{[^:]+}}: memref<4xf32>) -> (memref<f32> {amp.loss})
// CHECK: %[[VIEW:.+]] = memref.collapse_shape %[[M]]
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[VIEW]] : memref<4xf32>)
// CHECK-NOT: memref.copy
// CHECK: return %{{.+}} : memref<f32>
func.func @collapsed_in_place(%m: tensor<1x4xf32> {amp.state}, %g: tensor<4xf32>)
    -> (tensor<f32> {amp.loss}, tensor<1x4xf32> {amp.update_of = 0 : i64}) {
  %loss = arith.constant dense<0.5> : tensor<f32>
  %a = tensor.collapse_shape %m [[0, 1]] : tensor<1x4xf32> into tensor<4xf32>
  %empty = tensor.empty() : tensor<4xf32>
  %next = linalg.generic {indexing_maps = [#map, #map, #map],
                          iterator_types = ["parallel"]}
      ins(%a, %g : tensor<4xf32>, tensor<4xf32>)
      outs(%empty : tensor<4xf32>) {
  ^bb0(%in: f32, %grad: f32, %out: f32):
    %s = arith.addf %in, %grad : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  %e = tensor.expand_shape %next [[0, 1]] output_shape [1, 4] : tensor<4xf32> into tensor<1x4xf32>
  return %loss, %e : tensor<f32>, tensor<1x4xf32>
}
