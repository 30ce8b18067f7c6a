// RUN: amp-opt %s --split-input-file --amp-loss-scaling | FileCheck %s --check-prefix=DYN
// RUN: amp-opt %s --split-input-file --amp-loss-scaling="mode=static scale=128" | FileCheck %s --check-prefix=STATIC
// RUN: amp-opt %s --split-input-file --amp-loss-scaling="mode=none" | FileCheck %s --check-prefix=NONE
// RUN: amp-opt %s --split-input-file --amp-loss-scaling="scale=1024 growth-factor=4 backoff-factor=0.25 growth-interval=10 min-scale=1 max-scale=1048576 hysteresis=3" | FileCheck %s --check-prefix=OPTS

// A step with SGD and momentum (param %w, state %m) and a loss read by
// both the seed and the result.
// DYN-LABEL: func.func @sgd_momentum
// The scale state is appended to the signature, with its updates and the
// found_inf flag; the function records the initial scale.
// DYN-SAME: (%[[X:[^:]*]]: tensor<4xf32>, %[[W:[^:]*]]: tensor<4xf32> {amp.param}, %[[M:[^:]*]]: tensor<4xf32> {amp.state}, %[[S:[^:]*]]: tensor<f32> {amp.scaler = "scale"}, %[[T:[^:]*]]: tensor<i32> {amp.scaler = "growth_tracker"})
// DYN-SAME: -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64}, tensor<4xf32> {amp.update_of = 2 : i64}, tensor<f32> {amp.update_of = 3 : i64}, tensor<i32> {amp.update_of = 4 : i64}, tensor<i1> {amp.found_inf})
// DYN-SAME: attributes {amp.initial_scale = 6.553600e+04 : f32}
// The seed is the scale, in the loss's type; no amp.loss_grad is left.
// DYN-NOT: amp.loss_grad
// DYN: %[[SV:.*]] = tensor.extract %[[S]][] : tensor<f32>
// DYN: %[[SEED:.*]] = tensor.from_elements %[[SV]] : tensor<1xf32>
// DYN: %[[D:.*]] = tosa.mul %[[X]], %[[SEED]]
// DYN: %[[G:.*]] = amp.grad %[[D]] {param = 1 : i64}
// One unscale, right after the last gradient, read by the optimizer.
// DYN-NEXT: %[[U:.*]], %[[INF:.*]] = amp.unscale %[[G]] by %[[S]] : tensor<4xf32>
// DYN-NEXT: %[[MOM:.*]] = tosa.add %[[M]], %[[U]]
// DYN-NEXT: %[[NW:.*]] = tosa.sub %[[W]], %[[MOM]]
// Every update skips on overflow, params and state alike.
// DYN-NEXT: %[[SW:.*]] = amp.skip_if_inf %[[INF]], %[[W]], %[[NW]] : tensor<4xf32>
// DYN-NEXT: %[[SM:.*]] = amp.skip_if_inf %[[INF]], %[[M]], %[[MOM]] : tensor<4xf32>
// DYN-NEXT: %[[NS:.*]], %[[NT:.*]] = amp.update_scale %[[INF]], %[[S]], %[[T]] {backoff_factor = 5.000000e-01 : f32, growth_factor = 2.000000e+00 : f32, growth_interval = 2000 : i64, hysteresis = 1 : i64, max_scale = 0x7F800000 : f32, min_scale = 0.000000e+00 : f32}
// DYN-NEXT: return %{{.*}}, %[[SW]], %[[SM]], %[[NS]], %[[NT]], %[[INF]]

// STATIC-LABEL: func.func @sgd_momentum
// STATIC-SAME: (%{{[^:]*}}: tensor<4xf32>, %{{[^:]*}}: tensor<4xf32> {amp.param}, %{{[^:]*}}: tensor<4xf32> {amp.state})
// STATIC-SAME: -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64}, tensor<4xf32> {amp.update_of = 2 : i64}, tensor<i1> {amp.found_inf})
// STATIC: %[[S:.*]] = arith.constant dense<1.280000e+02> : tensor<f32>
// STATIC: amp.unscale %{{.*}} by %[[S]]
// STATIC-COUNT-2: amp.skip_if_inf
// STATIC-NOT: amp.update_scale

// NONE-LABEL: func.func @sgd_momentum
// NONE-SAME: -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64}, tensor<4xf32> {amp.update_of = 2 : i64}) {
// NONE: amp.loss_grad
// NONE-NOT: amp.unscale
// NONE-NOT: amp.skip_if_inf

// OPTS-LABEL: func.func @sgd_momentum
// OPTS-SAME: %{{[^:]*}}: tensor<f32> {amp.scaler = "scale"}, %{{[^:]*}}: tensor<i32> {amp.scaler = "growth_tracker"}, %[[H:[^:]*]]: tensor<i32> {amp.scaler = "hysteresis"})
// OPTS-SAME: tensor<f32> {amp.update_of = 3 : i64}, tensor<i32> {amp.update_of = 4 : i64}, tensor<i32> {amp.update_of = 5 : i64}, tensor<i1> {amp.found_inf})
// OPTS-SAME: attributes {amp.initial_hysteresis = 3 : i64, amp.initial_scale = 1.024000e+03 : f32}
// (max_scale 2^20 prints as its bits, 0x49800000.)
// OPTS: amp.update_scale %{{.*}}, %{{.*}}, %{{.*}}, %[[H]] {backoff_factor = 2.500000e-01 : f32, growth_factor = 4.000000e+00 : f32, growth_interval = 10 : i64, hysteresis = 3 : i64, max_scale = 0x49800000 : f32, min_scale = 1.000000e+00 : f32}
func.func @sgd_momentum(%x: tensor<4xf32>, %w: tensor<4xf32> {amp.param}, %m: tensor<4xf32> {amp.state})
    -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64}, tensor<4xf32> {amp.update_of = 2 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %p = tosa.mul %x, %w, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %l = tosa.reduce_sum %p {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %seed = amp.loss_grad %l : tensor<1xf32>
  %d = tosa.mul %x, %seed, %shift : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
  %g = amp.grad %d {param = 1 : i64} : tensor<4xf32>
  %mom = tosa.add %m, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %nw = tosa.sub %w, %mom : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %l, %nw, %mom : tensor<1xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// Optimizer ops written between two gradients move after the unscale, in
// their order, so that every update reads unscaled gradients; a scalar
// f32 loss gets the scale as a scalar.
// DYN-LABEL: func.func @interleaved
// DYN: %[[SV:.*]] = tensor.extract %{{.*}}[] : tensor<f32>
// DYN: %[[GA:.*]] = amp.grad %{{.*}} {param = 0 : i64}
// DYN-NEXT: arith.mulf
// DYN-NEXT: %[[GB:.*]] = amp.grad %{{.*}} {param = 1 : i64}
// DYN-NEXT: %[[U:.*]]:2, %[[INF:.*]] = amp.unscale %[[GA]], %[[GB]] by
// DYN-NEXT: %[[NA:.*]] = arith.subf %{{.*}}, %[[U]]#0 : tensor<2xf32>
// DYN-NEXT: %[[NB:.*]] = arith.subf %{{.*}}, %[[U]]#1 : tensor<2xf32>
// DYN-NEXT: amp.skip_if_inf %[[INF]], %{{.*}}, %[[NA]]
// DYN-NEXT: amp.skip_if_inf %[[INF]], %{{.*}}, %[[NB]]
func.func @interleaved(%a: tensor<2xf32> {amp.param}, %b: tensor<2xf32> {amp.param}, %l: f32)
    -> (f32 {amp.loss}, tensor<2xf32> {amp.update_of = 0 : i64}, tensor<2xf32> {amp.update_of = 1 : i64}) {
  %seed = amp.loss_grad %l : f32
  %s = tensor.from_elements %seed, %seed : tensor<2xf32>
  %da = arith.mulf %a, %s : tensor<2xf32>
  %ga = amp.grad %da {param = 0 : i64} : tensor<2xf32>
  %na = arith.subf %a, %ga : tensor<2xf32>
  %db = arith.mulf %b, %s : tensor<2xf32>
  %gb = amp.grad %db {param = 1 : i64} : tensor<2xf32>
  %nb = arith.subf %b, %gb : tensor<2xf32>
  return %l, %na, %nb : f32, tensor<2xf32>, tensor<2xf32>
}
