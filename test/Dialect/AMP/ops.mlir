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
