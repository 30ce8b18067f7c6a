// The smallest training step: the artifact the checkpoint fuzzer loads
// checkpoints into (loss = sum(x * w), SGD on w).
func.func @train_step(%x: tensor<4xf32>, %w: tensor<4xf32> {amp.param})
    -> (tensor<f32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64}) {
  %p = arith.mulf %x, %w : tensor<4xf32>
  %zero = arith.constant dense<0.0> : tensor<f32>
  %loss = linalg.reduce ins(%p : tensor<4xf32>) outs(%zero : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %seed = amp.loss_grad %loss : tensor<f32>
  %g = amp.grad %x {param = 1 : i64} : tensor<4xf32>
  %lr = arith.constant dense<0.5> : tensor<4xf32>
  %step = arith.mulf %g, %lr : tensor<4xf32>
  %next = arith.subf %w, %step : tensor<4xf32>
  return %loss, %next : tensor<f32>, tensor<4xf32>
}
