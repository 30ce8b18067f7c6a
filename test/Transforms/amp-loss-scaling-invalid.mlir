// Misuse of the training-graph contract is a located error (a param
// without a gradient is a warning: frozen params are legitimate). The same
// checks (lib/Analysis/TrainingGraph.cpp) guard --amp-master-weights.
// RUN: amp-opt %s --split-input-file --amp-loss-scaling --verify-diagnostics

// A module without markers is not a training step.
// expected-error@+1 {{amp-loss-scaling: no training step in the module (no function has an 'amp.loss' result, 'amp.loss_grad' or 'amp.grad')}}
module {
  func.func @inference(%x: tensor<4xf32>) -> tensor<4xf32> {
    return %x : tensor<4xf32>
  }
}

// -----

// expected-error@+1 {{amp-loss-scaling: two results are marked 'amp.loss' (0 and 1); a training step has one loss}}
func.func @two_losses(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}, tensor<1xf32> {amp.loss}) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  return %l, %l : tensor<1xf32>, tensor<1xf32>
}

// -----

func.func @two_seeds(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  // expected-note@+1 {{the first one}}
  %s0 = amp.loss_grad %l : tensor<1xf32>
  // expected-error@+1 {{amp-loss-scaling: a second 'amp.loss_grad'; a training step has one backward seed}}
  %s1 = amp.loss_grad %l : tensor<1xf32>
  return %l : tensor<1xf32>
}

// -----

// expected-error@+1 {{amp-loss-scaling: no 'amp.loss_grad' seeds the backward pass}}
func.func @no_seed(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  %g = amp.grad %w {param = 1 : i64} : tensor<4xf32>
  return %l : tensor<1xf32>
}

// -----

func.func @seed_of_other_value(%l: tensor<1xf32>, %k: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  // expected-error@+1 {{amp-loss-scaling: 'amp.loss_grad' must take the value returned as the loss (result 0)}}
  %seed = amp.loss_grad %k : tensor<1xf32>
  return %l : tensor<1xf32>
}

// -----

func.func @two_grads(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  // expected-note@+1 {{the first one}}
  %g0 = amp.grad %w {param = 1 : i64} : tensor<4xf32>
  // expected-error@+1 {{amp-loss-scaling: a second 'amp.grad' for param 1; each param has one full gradient}}
  %g1 = amp.grad %w {param = 1 : i64} : tensor<4xf32>
  return %l : tensor<1xf32>
}

// -----

func.func @nested_grad(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}, %p: i1) -> (tensor<1xf32> {amp.loss}) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  scf.if %p {
    // expected-error@+1 {{amp-loss-scaling: 'amp.grad' must be at the top level of the training step}}
    %g = amp.grad %w {param = 1 : i64} : tensor<4xf32>
  }
  return %l : tensor<1xf32>
}

// -----

// expected-error@+1 {{amp-loss-scaling: a training step must be a single-block function}}
func.func @two_blocks(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  cf.br ^bb1
^bb1:
  return %l : tensor<1xf32>
}

// -----

// A param without a gradient is frozen: a warning, and loss scaling still
// needs at least one gradient to unscale.
// expected-warning@+2 {{amp-loss-scaling: param 1 has no 'amp.grad' and its update does not use the backward pass; it is treated as frozen}}
// expected-error@+1 {{amp-loss-scaling: no 'amp.grad' in the training step: there is nothing to unscale}}
func.func @no_grads(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  return %l : tensor<1xf32>
}

// -----

// expected-warning@+1 {{amp-loss-scaling: param 2 has no 'amp.grad'}}
func.func @frozen_param(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}, %frozen: tensor<4xf32> {amp.param}) -> (tensor<1xf32> {amp.loss}) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  %g = amp.grad %w {param = 1 : i64} : tensor<4xf32>
  return %l : tensor<1xf32>
}

// -----

// A param whose update uses the backward pass without an 'amp.grad' would
// be updated with a gradient still multiplied by the loss scale: refused.
func.func @unmarked_gradient(%x: tensor<1xf32>, %w: tensor<1xf32> {amp.param})
    -> (tensor<1xf32> {amp.loss}, tensor<1xf32> {amp.update_of = 1 : i64}) {
  %loss = arith.mulf %x, %w : tensor<1xf32>
  // expected-note@+1 {{the backward pass starts here}}
  %seed = amp.loss_grad %loss : tensor<1xf32>
  %g = arith.mulf %seed, %x : tensor<1xf32>
  %w_next = arith.subf %w, %g : tensor<1xf32>
  // expected-error@+1 {{amp-loss-scaling: the update of param 1 (result 1) uses the backward pass but no 'amp.grad' marks the param's gradient: it would be updated with a gradient still multiplied by the loss scale; mark the full gradient with 'amp.grad' {param = 1}}}
  return %loss, %w_next : tensor<1xf32>, tensor<1xf32>
}

// -----

// A frozen param may still be updated by something other than the
// backward pass (here weight decay alone): a warning, not an error.
// expected-warning@+1 {{amp-loss-scaling: param 2 has no 'amp.grad' and its update does not use the backward pass; it is treated as frozen}}
func.func @decayed_frozen(%l: tensor<1xf32>, %w: tensor<4xf32> {amp.param}, %frozen: tensor<4xf32> {amp.param})
    -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 2 : i64}) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  %g = amp.grad %w {param = 1 : i64} : tensor<4xf32>
  %decay = arith.constant dense<0.5> : tensor<4xf32>
  %next = arith.mulf %frozen, %decay : tensor<4xf32>
  return %l, %next : tensor<1xf32>, tensor<4xf32>
}
