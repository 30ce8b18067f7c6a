// RUN: amp-opt %s | amp-opt | FileCheck %s
// RUN: amp-opt %s --mlir-print-op-generic | amp-opt | FileCheck %s

// CHECK-LABEL: func.func @markers
// CHECK-SAME: %{{.*}}: tensor<4xf32> {amp.param}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {amp.state}
// CHECK-SAME: -> (tensor<f32> {amp.loss}, tensor<4xf32> {amp.update_of = 0 : i64}, tensor<4xf32> {amp.update_of = 1 : i64})
func.func @markers(%w: tensor<4xf32> {amp.param}, %m: tensor<4xf32> {amp.state})
    -> (tensor<f32> {amp.loss}, tensor<4xf32> {amp.update_of = 0 : i64},
        tensor<4xf32> {amp.update_of = 1 : i64}) {
  %loss = "tosa.const"() <{values = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  // CHECK: amp.loss_grad %{{.*}} : tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  // CHECK: amp.grad %{{.*}} {param = 0 : i64} : tensor<4xf32>
  %g = amp.grad %w {param = 0 : i64} : tensor<4xf32>
  // CHECK: tosa.abs %{{.*}} {amp.keep_f32}
  %k = tosa.abs %g {amp.keep_f32} : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: tosa.abs %{{.*}} {amp.force_low}
  %f = tosa.abs %k {amp.force_low} : (tensor<4xf32>) -> tensor<4xf32>
  return %loss, %f, %m : tensor<f32>, tensor<4xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @scalar_loss
// CHECK: amp.loss_grad %{{.*}} : f32
func.func @scalar_loss(%l: f32) -> (f32 {amp.loss}) {
  %s = amp.loss_grad %l : f32
  return %s : f32
}

// The loss-scaling ops and state markers.
// CHECK-LABEL: func.func @scaling
// CHECK-SAME: {amp.scaler = "scale"}
// CHECK-SAME: {amp.scaler = "growth_tracker"}
// CHECK-SAME: {amp.scaler = "hysteresis"}
// CHECK-SAME: {amp.working_copy_of = 0 : i64}
// CHECK-SAME: tensor<i1> {amp.found_inf}
// CHECK-SAME: attributes {amp.initial_hysteresis = 2 : i64, amp.initial_scale = 6.553600e+04 : f32}
// CHECK: %[[U:.*]]:2, %[[INF:.*]] = amp.unscale %{{.*}}, %{{.*}} by %{{.*}} : tensor<4xf32>, tensor<2x2xf32>
// CHECK: amp.update_scale %[[INF]], %{{.*}}, %{{.*}} {backoff_factor = 5.000000e-01 : f32, growth_factor = 2.000000e+00 : f32, growth_interval = 2000 : i64, hysteresis = 1 : i64, max_scale = 0x7F800000 : f32, min_scale = 0.000000e+00 : f32}
// CHECK: amp.update_scale %[[INF]], %{{.*}}, %{{.*}}, %{{.*}} {{{.*}}hysteresis = 2 : i64
// CHECK: amp.skip_if_inf %[[INF]], %{{.*}}, %[[U]]#0 : tensor<4xf32>
func.func @scaling(%w: tensor<4xf32> {amp.param}, %g1: tensor<2x2xf32>,
                   %s: tensor<f32> {amp.scaler = "scale"},
                   %t: tensor<i32> {amp.scaler = "growth_tracker"},
                   %h: tensor<i32> {amp.scaler = "hysteresis"},
                   %c: tensor<4xf16> {amp.working_copy_of = 0 : i64})
    -> (tensor<4xf32> {amp.update_of = 0 : i64}, tensor<f32> {amp.update_of = 2 : i64},
        tensor<i32> {amp.update_of = 3 : i64}, tensor<i32> {amp.update_of = 4 : i64},
        tensor<i1> {amp.found_inf})
    attributes {amp.initial_scale = 65536.0 : f32, amp.initial_hysteresis = 2 : i64} {
  %u:2, %inf = amp.unscale %w, %g1 by %s : tensor<4xf32>, tensor<2x2xf32>
  %ns, %nt = amp.update_scale %inf, %s, %t {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32, growth_interval = 2000 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
  %ns2, %nt2, %nh = amp.update_scale %inf, %s, %t, %h {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32, growth_interval = 2000 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 2 : i64}
  %r = amp.skip_if_inf %inf, %w, %u#0 : tensor<4xf32>
  return %r, %ns, %nt, %nh, %inf : tensor<4xf32>, tensor<f32>, tensor<i32>, tensor<i32>, tensor<i1>
}

// Names on arguments, a data argument and a param.
// CHECK-LABEL: func.func @named
// CHECK-SAME: %{{.*}}: tensor<2x3xf32> {amp.name = "input_ids"}
// CHECK-SAME: %{{.*}}: tensor<4xf32> {amp.name = "layer1.0.conv:w/b-1", amp.param}
func.func @named(%x: tensor<2x3xf32> {amp.name = "input_ids"},
                 %w: tensor<4xf32> {amp.param, amp.name = "layer1.0.conv:w/b-1"}) {
  return
}

// One bucket of gradients and the overflow flag, across ranks.
// CHECK-LABEL: func.func @all_reduce
// CHECK: %{{.*}}:2 = amp.all_reduce mean %{{.*}}, %{{.*}} : tensor<4x4xf32>, tensor<4xf32>
// CHECK: %{{.*}} = amp.all_reduce max %{{.*}} : tensor<i1>
// CHECK: %{{.*}} = amp.all_reduce sum %{{.*}} : tensor<8xbf16>
func.func @all_reduce(%w: tensor<4x4xf32>, %b: tensor<4xf32>, %f: tensor<i1>,
                      %h: tensor<8xbf16>)
    -> (tensor<4x4xf32>, tensor<4xf32>, tensor<i1>, tensor<8xbf16>) {
  %g:2 = amp.all_reduce mean %w, %b : tensor<4x4xf32>, tensor<4xf32>
  %any = amp.all_reduce max %f : tensor<i1>
  %s = amp.all_reduce sum %h : tensor<8xbf16>
  return %g#0, %g#1, %any, %s : tensor<4x4xf32>, tensor<4xf32>, tensor<i1>, tensor<8xbf16>
}
