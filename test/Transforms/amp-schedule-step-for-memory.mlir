// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-schedule-step-for-memory))" | FileCheck %s

// Traced order: the weight's working copy first, the gradient early, the
// update last. The copy moves down to its user; the update moves up to
// just after its gradient and the last read of the weight (the data
// gradient), before the rest of the backward pass (@layer0). The bias's
// update is computed collapsed: its reshapes and empty tensor come along.
// CHECK-LABEL: func.func @sgd
// CHECK: %[[X:.+]] = call @forward0
// CHECK-NEXT: %[[LOW:.+]] = arith.truncf %arg1
// CHECK-NEXT: %[[Y:.+]] = call @matmul(%[[X]], %[[LOW]])
// CHECK: %[[GW:.+]] = call @weight_grad
// CHECK-NEXT: %[[GX:.+]] = call @data_grad(%{{.+}}, %arg1)
// CHECK-NEXT: %[[NW:.+]] = arith.subf %arg1, %[[GW]]
// CHECK-NEXT: %[[GB:.+]] = call @bias_grad
// CHECK-NEXT: %[[FLAT_B:.+]] = tensor.collapse_shape %arg2
// CHECK-NEXT: %[[FLAT_G:.+]] = tensor.collapse_shape %[[GB]]
// CHECK-NEXT: %[[E:.+]] = tensor.empty
// CHECK-NEXT: %[[NB:.+]] = linalg.generic {{.*}} ins(%[[FLAT_B]], %[[FLAT_G]] : {{.*}}) outs(%[[E]] :
// CHECK: %[[NB2:.+]] = tensor.expand_shape %[[NB]]
// CHECK-NEXT: call @layer0(%[[GX]])
// CHECK-NEXT: return %{{.+}}, %[[NW]], %[[NB2]]
func.func private @forward0(tensor<4x8xf32>) -> tensor<4x8xf32>
func.func private @matmul(tensor<4x8xf32>, tensor<8x8xbf16>) -> tensor<4x8xf32>
func.func private @weight_grad(tensor<4x8xf32>) -> tensor<8x8xf32>
func.func private @data_grad(tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
func.func private @bias_grad(tensor<4x8xf32>) -> tensor<1x8xf32>
func.func private @layer0(tensor<4x8xf32>) -> ()
func.func @sgd(%x: tensor<4x8xf32>, %w: tensor<8x8xf32> {amp.param},
               %b: tensor<1x8xf32> {amp.param})
    -> (tensor<4x8xf32>, tensor<8x8xf32> {amp.update_of = 1 : i64},
        tensor<1x8xf32> {amp.update_of = 2 : i64}) {
  %low = arith.truncf %w : tensor<8x8xf32> to tensor<8x8xbf16>
  %h = call @forward0(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = call @matmul(%h, %low) : (tensor<4x8xf32>, tensor<8x8xbf16>) -> tensor<4x8xf32>
  %gw = call @weight_grad(%y) : (tensor<4x8xf32>) -> tensor<8x8xf32>
  %gx = call @data_grad(%y, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %gb = call @bias_grad(%y) : (tensor<4x8xf32>) -> tensor<1x8xf32>
  call @layer0(%gx) : (tensor<4x8xf32>) -> ()
  %nw = arith.subf %w, %gw : tensor<8x8xf32>
  %flat_b = tensor.collapse_shape %b [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
  %flat_g = tensor.collapse_shape %gb [[0, 1]] : tensor<1x8xf32> into tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %nb = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%flat_b, %flat_g : tensor<8xf32>, tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %g: f32, %out: f32):
    %d = arith.subf %in, %g : f32
    linalg.yield %d : f32
  } -> tensor<8xf32>
  %nb2 = tensor.expand_shape %nb [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
  return %y, %nw, %nb2 : tensor<4x8xf32>, tensor<8x8xf32>, tensor<1x8xf32>
}

// -----

// An update that waits for the overflow flag stays after it; so does one
// whose weight is read again later.
// CHECK-LABEL: func.func @waits
// CHECK: %[[G:.+]] = call @grad
// CHECK-NEXT: %[[INF:.+]] = call @found_inf(%[[G]])
// CHECK-NEXT: %[[NW:.+]] = arith.subf %arg0, %[[G]]
// CHECK-NEXT: %[[SKIP:.+]] = arith.select %[[INF]], %arg0, %[[NW]]
// CHECK: call @reads(%arg1)
// CHECK-NEXT: %[[NV:.+]] = arith.subf %arg1, %[[G]]
// CHECK-NEXT: return
func.func private @grad() -> tensor<4xf32>
func.func private @found_inf(tensor<4xf32>) -> i1
func.func private @reads(tensor<4xf32>) -> ()
func.func @waits(%w: tensor<4xf32> {amp.param}, %v: tensor<4xf32> {amp.param})
    -> (tensor<4xf32> {amp.update_of = 0 : i64}, tensor<4xf32> {amp.update_of = 1 : i64}) {
  %g = call @grad() : () -> tensor<4xf32>
  %inf = call @found_inf(%g) : (tensor<4xf32>) -> i1
  %nw = arith.subf %w, %g : tensor<4xf32>
  %skip = arith.select %inf, %w, %nw : tensor<4xf32>
  call @reads(%v) : (tensor<4xf32>) -> ()
  %nv = arith.subf %v, %g : tensor<4xf32>
  return %skip, %nv : tensor<4xf32>, tensor<4xf32>
}

// -----

// Two flips of two weights shared one empty tensor: each gets its own,
// next to it, and each flip moves down to its user.
// CHECK-LABEL: func.func @shared_empty
// CHECK: call @first_use
// CHECK-NEXT: %[[E1:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[F1:.+]] = linalg.generic {{.*}} ins(%arg0 : tensor<4xf32>) outs(%[[E1]] : tensor<4xf32>)
// CHECK: call @conv(%[[F1]])
// CHECK-NEXT: %[[E2:.+]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: %[[F2:.+]] = linalg.generic {{.*}} ins(%arg1 : tensor<4xf32>) outs(%[[E2]] : tensor<4xf32>)
// CHECK: call @conv(%[[F2]])
func.func private @first_use() -> ()
func.func private @conv(tensor<4xf32>) -> ()
func.func @shared_empty(%w0: tensor<4xf32> {amp.param}, %w1: tensor<4xf32> {amp.param}) {
  %e = tensor.empty() : tensor<4xf32>
  %f0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (3 - d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%w0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  %f1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (3 - d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%w1 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<4xf32>
  call @first_use() : () -> ()
  call @conv(%f0) : (tensor<4xf32>) -> ()
  call @conv(%f1) : (tensor<4xf32>) -> ()
  return
}

// -----

// An empty tensor nothing uses (left by an earlier rewrite) is left alone,
// not split or moved.
// CHECK-LABEL: func.func @unused_empty
// CHECK: tensor.empty() : tensor<8xf32>
// CHECK: return %arg0
func.func @unused_empty(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %unused = tensor.empty() : tensor<8xf32>
  return %arg0 : tensor<4xf32>
}
