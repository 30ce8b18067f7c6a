// The step of bench/cuda_step's epilogue benchmark: its forward and backward
// touch one of its N = 2^24 parameters (loss = w[0] * x), so the step's work
// is what a real step does after its backward, over every parameter: the
// gradient written (the backward's zero padding), the overflow check of
// loss scaling, and SGD with momentum 0.9 (lr 0.05) on the f32 masters,
// skipped on overflow. run.py divides the bytes this must move by the
// step's time and compares it with the GPU's copy bandwidth.
func.func @train_step(
    %x: tensor<1x1xf32>,
    %w: tensor<1x16777216xf32> {amp.param},
    %v: tensor<1x16777216xf32> {amp.state})
    -> (tensor<1x1xf32> {amp.loss},
        tensor<1x16777216xf32> {amp.update_of = 1 : i64},
        tensor<1x16777216xf32> {amp.update_of = 2 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %start = tosa.const_shape {values = dense<[0, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %padding = tosa.const_shape {values = dense<[0, 0, 0, 16777215]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %w0 = tosa.slice %w, %start, %size : (tensor<1x16777216xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x1xf32>
  %loss = tosa.mul %w0, %x, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>

  // Backward: dloss/dw is x at w[0], zero elsewhere.
  %seed = amp.loss_grad %loss : tensor<1x1xf32>
  %dw0 = tosa.mul %seed, %x, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>
  %dw = tosa.pad %dw0, %padding, %zp : (tensor<1x1xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<1x16777216xf32>
  %gw = amp.grad %dw {param = 1 : i64} : tensor<1x16777216xf32>

  // SGD with momentum (PyTorch): v' = 0.9 v + g; w' = w - 0.05 v'.
  %mu = "tosa.const"() <{values = dense<0.9> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %lr = "tosa.const"() <{values = dense<0.05> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %mv = tosa.mul %v, %mu, %shift : (tensor<1x16777216xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x16777216xf32>
  %nv = tosa.add %mv, %gw : (tensor<1x16777216xf32>, tensor<1x16777216xf32>) -> tensor<1x16777216xf32>
  %u = tosa.mul %nv, %lr, %shift : (tensor<1x16777216xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x16777216xf32>
  %nw = tosa.sub %w, %u : (tensor<1x16777216xf32>, tensor<1x16777216xf32>) -> tensor<1x16777216xf32>
  return %loss, %nw, %nv : tensor<1x1xf32>, tensor<1x16777216xf32>, tensor<1x16777216xf32>
}
