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
// expected-warning@+2 {{amp-loss-scaling: param 1 has no 'amp.grad'; it is treated as frozen (its update, if any, is not unscaled)}}
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
