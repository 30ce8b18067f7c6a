// RUN: amp-opt %s --split-input-file --amp-drop-markers --verify-diagnostics | FileCheck %s

// Every amp.* attribute goes: argument, result and function markers; other
// attributes stay.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%{{.*}}: tensor<4xf32>, %{{.*}}: tensor<4xf32> {llvm.noalias}, %{{.*}}: tensor<f32>)
// CHECK-SAME: -> (tensor<f32>, tensor<4xf32>)
// CHECK-SAME: attributes {keep = 1 : i64}
// CHECK-NOT: amp.
func.func @step(%x: tensor<4xf32>, %p: tensor<4xf32> {amp.param, llvm.noalias},
                %s: tensor<f32> {amp.scaler = "scale"})
    -> (tensor<f32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64})
    attributes {amp.initial_scale = 65536.0 : f32, keep = 1} {
  %c = arith.constant dense<1.0> : tensor<f32>
  return %c, %p : tensor<f32>, tensor<4xf32>
}

// -----

// An amp op still refers to the markers: lower it first.
func.func @unlowered(%p: tensor<4xf32> {amp.param}) -> (tensor<4xf32> {amp.update_of = 0 : i64}) {
  // expected-error @+1 {{amp-drop-markers: 'amp.grad' is still here; run amp-lower-ops first (it refers to the markers)}}
  %g = amp.grad %p {param = 0 : i64} : tensor<4xf32>
  return %g : tensor<4xf32>
}
