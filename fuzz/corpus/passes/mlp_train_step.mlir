// One FP32 training step of a 784-256-10 MLP on a batch of 64 (Fashion-MNIST
// shaped): forward, softmax cross-entropy loss, full backward and an SGD
// update with learning rate 0.1, in TOSA, with the amp training-graph markers.
//
//   h1 = x W1 + b1;  a1 = relu(h1);  logits = a1 W2 + b2
//   loss = -mean_over_batch(sum(y * log_softmax(logits)))
//
// Arguments: x (64x784), y (one-hot labels, 64x10), then the parameters.
// Results: the loss and the updated parameters.
//
// Try: amp-opt --amp-autocast=precision=f16 --amp-precision-report train_step.mlir
func.func @train_step(
    %x: tensor<64x784xf32>, %y: tensor<64x10xf32>,
    %w1: tensor<784x256xf32> {amp.param}, %b1: tensor<1x256xf32> {amp.param},
    %w2: tensor<256x10xf32> {amp.param}, %b2: tensor<1x10xf32> {amp.param})
    -> (tensor<1x1xf32> {amp.loss},
        tensor<784x256xf32> {amp.update_of = 2 : i64},
        tensor<1x256xf32> {amp.update_of = 3 : i64},
        tensor<256x10xf32> {amp.update_of = 4 : i64},
        tensor<1x10xf32> {amp.update_of = 5 : i64}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %neg_inv_batch = "tosa.const"() <{values = dense<-0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %inv_batch = "tosa.const"() <{values = dense<0.015625> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %lr = "tosa.const"() <{values = dense<0.1> : tensor<1x1xf32>}> : () -> tensor<1x1xf32>
  %s_64x784 = tosa.const_shape {values = dense<[1, 64, 784]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_784x256 = tosa.const_shape {values = dense<[1, 784, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_64x256 = tosa.const_shape {values = dense<[64, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s_1x64x256 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_256x10 = tosa.const_shape {values = dense<[1, 256, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_64x10 = tosa.const_shape {values = dense<[64, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s_1x64x10 = tosa.const_shape {values = dense<[1, 64, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x256x64 = tosa.const_shape {values = dense<[1, 256, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_256x10_2d = tosa.const_shape {values = dense<[256, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s_1x10x256 = tosa.const_shape {values = dense<[1, 10, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x784x64 = tosa.const_shape {values = dense<[1, 784, 64]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_784x256_2d = tosa.const_shape {values = dense<[784, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>

  // Forward.
  %x3 = tosa.reshape %x, %s_64x784 : (tensor<64x784xf32>, !tosa.shape<3>) -> tensor<1x64x784xf32>
  %w1_3 = tosa.reshape %w1, %s_784x256 : (tensor<784x256xf32>, !tosa.shape<3>) -> tensor<1x784x256xf32>
  %mm1 = tosa.matmul %x3, %w1_3, %zp, %zp : (tensor<1x64x784xf32>, tensor<1x784x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x256xf32>
  %mm1_2 = tosa.reshape %mm1, %s_64x256 : (tensor<1x64x256xf32>, !tosa.shape<2>) -> tensor<64x256xf32>
  %h1 = tosa.add %mm1_2, %b1 : (tensor<64x256xf32>, tensor<1x256xf32>) -> tensor<64x256xf32>
  %a1 = tosa.clamp %h1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %a1_3 = tosa.reshape %a1, %s_1x64x256 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %w2_3 = tosa.reshape %w2, %s_256x10 : (tensor<256x10xf32>, !tosa.shape<3>) -> tensor<1x256x10xf32>
  %mm2 = tosa.matmul %a1_3, %w2_3, %zp, %zp : (tensor<1x64x256xf32>, tensor<1x256x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x10xf32>
  %mm2_2 = tosa.reshape %mm2, %s_64x10 : (tensor<1x64x10xf32>, !tosa.shape<2>) -> tensor<64x10xf32>
  %logits = tosa.add %mm2_2, %b2 : (tensor<64x10xf32>, tensor<1x10xf32>) -> tensor<64x10xf32>

  // Softmax cross-entropy, computed stably through log-sum-exp.
  %max = tosa.reduce_max %logits {axis = 1 : i32} : (tensor<64x10xf32>) -> tensor<64x1xf32>
  %z = tosa.sub %logits, %max : (tensor<64x10xf32>, tensor<64x1xf32>) -> tensor<64x10xf32>
  %e = tosa.exp %z : (tensor<64x10xf32>) -> tensor<64x10xf32>
  %sum = tosa.reduce_sum %e {axis = 1 : i32} : (tensor<64x10xf32>) -> tensor<64x1xf32>
  %lse = tosa.log %sum : (tensor<64x1xf32>) -> tensor<64x1xf32>
  %logp = tosa.sub %z, %lse : (tensor<64x10xf32>, tensor<64x1xf32>) -> tensor<64x10xf32>
  %ylogp = tosa.mul %y, %logp, %shift : (tensor<64x10xf32>, tensor<64x10xf32>, tensor<1xi8>) -> tensor<64x10xf32>
  %nll_rows = tosa.reduce_sum %ylogp {axis = 1 : i32} : (tensor<64x10xf32>) -> tensor<64x1xf32>
  %nll = tosa.reduce_sum %nll_rows {axis = 0 : i32} : (tensor<64x1xf32>) -> tensor<1x1xf32>
  %loss = tosa.mul %nll, %neg_inv_batch, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>

  // Backward: dlogits = (softmax - y) * dL / batch.
  %seed = amp.loss_grad %loss : tensor<1x1xf32>
  %inv_sum = tosa.reciprocal %sum : (tensor<64x1xf32>) -> tensor<64x1xf32>
  %p = tosa.mul %e, %inv_sum, %shift : (tensor<64x10xf32>, tensor<64x1xf32>, tensor<1xi8>) -> tensor<64x10xf32>
  %p_y = tosa.sub %p, %y : (tensor<64x10xf32>, tensor<64x10xf32>) -> tensor<64x10xf32>
  %dscale = tosa.mul %seed, %inv_batch, %shift : (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x1xf32>
  %dlogits = tosa.mul %p_y, %dscale, %shift : (tensor<64x10xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<64x10xf32>
  %dl3 = tosa.reshape %dlogits, %s_1x64x10 : (tensor<64x10xf32>, !tosa.shape<3>) -> tensor<1x64x10xf32>

  // dW2 = a1^T dlogits, db2 = sum over the batch of dlogits.
  %a1t = tosa.transpose %a1 {perms = array<i32: 1, 0>} : (tensor<64x256xf32>) -> tensor<256x64xf32>
  %a1t_3 = tosa.reshape %a1t, %s_1x256x64 : (tensor<256x64xf32>, !tosa.shape<3>) -> tensor<1x256x64xf32>
  %dw2_3 = tosa.matmul %a1t_3, %dl3, %zp, %zp : (tensor<1x256x64xf32>, tensor<1x64x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x256x10xf32>
  %dw2 = tosa.reshape %dw2_3, %s_256x10_2d : (tensor<1x256x10xf32>, !tosa.shape<2>) -> tensor<256x10xf32>
  %db2 = tosa.reduce_sum %dlogits {axis = 0 : i32} : (tensor<64x10xf32>) -> tensor<1x10xf32>

  // da1 = dlogits W2^T, then through the ReLU.
  %w2t = tosa.transpose %w2 {perms = array<i32: 1, 0>} : (tensor<256x10xf32>) -> tensor<10x256xf32>
  %w2t_3 = tosa.reshape %w2t, %s_1x10x256 : (tensor<10x256xf32>, !tosa.shape<3>) -> tensor<1x10x256xf32>
  %da1_3 = tosa.matmul %dl3, %w2t_3, %zp, %zp : (tensor<1x64x10xf32>, tensor<1x10x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x256xf32>
  %da1 = tosa.reshape %da1_3, %s_64x256 : (tensor<1x64x256xf32>, !tosa.shape<2>) -> tensor<64x256xf32>
  %active = tosa.greater %h1, %zero : (tensor<64x256xf32>, tensor<1x1xf32>) -> tensor<64x256xi1>
  %dh1 = tosa.select %active, %da1, %zero : (tensor<64x256xi1>, tensor<64x256xf32>, tensor<1x1xf32>) -> tensor<64x256xf32>

  // dW1 = x^T dh1, db1 = sum over the batch of dh1.
  %xt = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<64x784xf32>) -> tensor<784x64xf32>
  %xt_3 = tosa.reshape %xt, %s_1x784x64 : (tensor<784x64xf32>, !tosa.shape<3>) -> tensor<1x784x64xf32>
  %dh1_3 = tosa.reshape %dh1, %s_1x64x256 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %dw1_3 = tosa.matmul %xt_3, %dh1_3, %zp, %zp : (tensor<1x784x64xf32>, tensor<1x64x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x784x256xf32>
  %dw1 = tosa.reshape %dw1_3, %s_784x256_2d : (tensor<1x784x256xf32>, !tosa.shape<2>) -> tensor<784x256xf32>
  %db1 = tosa.reduce_sum %dh1 {axis = 0 : i32} : (tensor<64x256xf32>) -> tensor<1x256xf32>

  %gw1 = amp.grad %dw1 {param = 2 : i64} : tensor<784x256xf32>
  %gb1 = amp.grad %db1 {param = 3 : i64} : tensor<1x256xf32>
  %gw2 = amp.grad %dw2 {param = 4 : i64} : tensor<256x10xf32>
  %gb2 = amp.grad %db2 {param = 5 : i64} : tensor<1x10xf32>

  // SGD: p' = p - lr * g.
  %uw1 = tosa.mul %gw1, %lr, %shift : (tensor<784x256xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<784x256xf32>
  %nw1 = tosa.sub %w1, %uw1 : (tensor<784x256xf32>, tensor<784x256xf32>) -> tensor<784x256xf32>
  %ub1 = tosa.mul %gb1, %lr, %shift : (tensor<1x256xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x256xf32>
  %nb1 = tosa.sub %b1, %ub1 : (tensor<1x256xf32>, tensor<1x256xf32>) -> tensor<1x256xf32>
  %uw2 = tosa.mul %gw2, %lr, %shift : (tensor<256x10xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<256x10xf32>
  %nw2 = tosa.sub %w2, %uw2 : (tensor<256x10xf32>, tensor<256x10xf32>) -> tensor<256x10xf32>
  %ub2 = tosa.mul %gb2, %lr, %shift : (tensor<1x10xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x10xf32>
  %nb2 = tosa.sub %b2, %ub2 : (tensor<1x10xf32>, tensor<1x10xf32>) -> tensor<1x10xf32>

  return %loss, %nw1, %nb1, %nw2, %nb2 : tensor<1x1xf32>, tensor<784x256xf32>, tensor<1x256xf32>, tensor<256x10xf32>, tensor<1x10xf32>
}

// Inference on a batch: the logits of the same model, for evaluation. The
// parameters are the training step's, in the same order.
func.func @predict(%x: tensor<64x784xf32>,
    %w1: tensor<784x256xf32> {amp.param}, %b1: tensor<1x256xf32> {amp.param},
    %w2: tensor<256x10xf32> {amp.param}, %b2: tensor<1x10xf32> {amp.param})
    -> tensor<64x10xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s_64x784 = tosa.const_shape {values = dense<[1, 64, 784]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_784x256 = tosa.const_shape {values = dense<[1, 784, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_64x256 = tosa.const_shape {values = dense<[64, 256]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s_1x64x256 = tosa.const_shape {values = dense<[1, 64, 256]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_256x10 = tosa.const_shape {values = dense<[1, 256, 10]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_64x10 = tosa.const_shape {values = dense<[64, 10]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %x3 = tosa.reshape %x, %s_64x784 : (tensor<64x784xf32>, !tosa.shape<3>) -> tensor<1x64x784xf32>
  %w1_3 = tosa.reshape %w1, %s_784x256 : (tensor<784x256xf32>, !tosa.shape<3>) -> tensor<1x784x256xf32>
  %mm1 = tosa.matmul %x3, %w1_3, %zp, %zp : (tensor<1x64x784xf32>, tensor<1x784x256xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x256xf32>
  %mm1_2 = tosa.reshape %mm1, %s_64x256 : (tensor<1x64x256xf32>, !tosa.shape<2>) -> tensor<64x256xf32>
  %h1 = tosa.add %mm1_2, %b1 : (tensor<64x256xf32>, tensor<1x256xf32>) -> tensor<64x256xf32>
  %a1 = tosa.clamp %h1 {min_val = 0.0 : f32, max_val = 3.40282347E+38 : f32} : (tensor<64x256xf32>) -> tensor<64x256xf32>
  %a1_3 = tosa.reshape %a1, %s_1x64x256 : (tensor<64x256xf32>, !tosa.shape<3>) -> tensor<1x64x256xf32>
  %w2_3 = tosa.reshape %w2, %s_256x10 : (tensor<256x10xf32>, !tosa.shape<3>) -> tensor<1x256x10xf32>
  %mm2 = tosa.matmul %a1_3, %w2_3, %zp, %zp : (tensor<1x64x256xf32>, tensor<1x256x10xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x64x10xf32>
  %mm2_2 = tosa.reshape %mm2, %s_64x10 : (tensor<1x64x10xf32>, !tosa.shape<2>) -> tensor<64x10xf32>
  %logits = tosa.add %mm2_2, %b2 : (tensor<64x10xf32>, tensor<1x10xf32>) -> tensor<64x10xf32>
  return %logits : tensor<64x10xf32>
}
