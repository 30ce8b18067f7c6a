// Loss scaling applied to a step that is already loss scaled is refused:
// a second scale would multiply the seed again and unscale once.
// RUN: amp-opt %s --amp-loss-scaling --amp-loss-scaling --verify-diagnostics

// expected-error@+1 {{amp-loss-scaling: the step is already loss scaled (it has an 'amp.unscale' and no 'amp.loss_grad' seed)}}
func.func @sgd(%x: tensor<4xf32>, %w: tensor<4xf32> {amp.param})
    -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %p = tosa.mul %x, %w, %shift : (tensor<4xf32>, tensor<4xf32>, tensor<1xi8>) -> tensor<4xf32>
  %l = tosa.reduce_sum %p {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %seed = amp.loss_grad %l : tensor<1xf32>
  %d = tosa.mul %x, %seed, %shift : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
  %g = amp.grad %d {param = 1 : i64} : tensor<4xf32>
  %nw = tosa.sub %w, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %l, %nw : tensor<1xf32>, tensor<4xf32>
}
