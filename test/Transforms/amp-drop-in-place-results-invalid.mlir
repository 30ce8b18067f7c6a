// RUN: amp-opt %s --split-input-file --amp-drop-in-place-results --verify-diagnostics

// An update the artifact's tables call in place must be its argument's
// buffer once bufferized; here bufferization never saw the tie.
// expected-error @+1 {{amp-drop-in-place-results: result 1 of @untied updates argument 0 in place but is not that argument's buffer; run amp-update-arguments-in-place before one-shot-bufferize}}
func.func @untied(%w: memref<4xf32> {amp.param})
    -> (memref<f32> {amp.loss}, memref<4xf32> {amp.update_of = 0 : i64}) {
  %loss = memref.alloc() : memref<f32>
  %next = memref.alloc() : memref<4xf32>
  return %loss, %next : memref<f32>, memref<4xf32>
}

// -----

// On tensors, before bufferization: the same.
// expected-error @+1 {{amp-drop-in-place-results: result 0 of @on_tensors updates argument 0 in place but is not that argument's buffer}}
func.func @on_tensors(%s: tensor<4xf32> {amp.state})
    -> (tensor<4xf32> {amp.update_of = 0 : i64}) {
  %next = arith.addf %s, %s : tensor<4xf32>
  return %next : tensor<4xf32>
}
