// RUN: amp-opt %s -split-input-file -verify-diagnostics

// expected-error@+1 {{'amp.param' argument 0 must be a float scalar or tensor, got 'tensor<4xi32>'}}
func.func @param_not_float(%w: tensor<4xi32> {amp.param}) {
  return
}

// -----

// expected-error@+1 {{argument 0 cannot be both 'amp.param' and 'amp.state'}}
func.func @param_and_state(%w: tensor<4xf32> {amp.param, amp.state}) {
  return
}

// -----

// expected-error@+1 {{'amp.loss' is not valid on an argument (argument 0)}}
func.func @loss_on_argument(%w: tensor<4xf32> {amp.loss}) {
  return
}

// -----

// expected-error@+1 {{'amp.param' is not valid on a result (result 0)}}
func.func @param_on_result(%w: tensor<4xf32>) -> (tensor<4xf32> {amp.param}) {
  return %w : tensor<4xf32>
}

// -----

// expected-error@+1 {{'amp.loss' result 0 must be a single-element float, got 'tensor<4xf32>'}}
func.func @loss_not_scalar(%w: tensor<4xf32>) -> (tensor<4xf32> {amp.loss}) {
  return %w : tensor<4xf32>
}

// -----

// expected-error@+1 {{'amp.update_of' of result 0 names argument 3, but the function has 1 arguments}}
func.func @update_out_of_range(%w: tensor<4xf32> {amp.param}) -> (tensor<4xf32> {amp.update_of = 3 : i64}) {
  return %w : tensor<4xf32>
}

// -----

// expected-error@+1 {{'amp.update_of' of result 0 names argument 0, which is neither 'amp.param' nor 'amp.state'}}
func.func @update_of_plain_argument(%w: tensor<4xf32>) -> (tensor<4xf32> {amp.update_of = 0 : i64}) {
  return %w : tensor<4xf32>
}

// -----

// expected-error@+1 {{'amp.update_of' result 0 has type 'tensor<8xf32>' but argument 0 has type 'tensor<4xf32>'}}
func.func @update_wrong_type(%w: tensor<4xf32> {amp.param}, %v: tensor<8xf32>) -> (tensor<8xf32> {amp.update_of = 0 : i64}) {
  return %v : tensor<8xf32>
}

// -----

// expected-error@+1 {{'amp.update_of' must be an integer argument index}}
func.func @update_not_integer(%w: tensor<4xf32> {amp.param}) -> (tensor<4xf32> {amp.update_of = "w"}) {
  return %w : tensor<4xf32>
}

// -----

// expected-error@+1 {{result 0 cannot be both the loss and an update}}
func.func @loss_and_update(%w: tensor<f32> {amp.param}) -> (tensor<f32> {amp.loss, amp.update_of = 0 : i64}) {
  return %w : tensor<f32>
}

// -----

func.func @param_on_op(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'amp.param' is only valid on a function argument}}
  %0 = tosa.abs %w {amp.param} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @loss_on_op(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'amp.loss' is only valid on a function result}}
  %0 = tosa.abs %w {amp.loss} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @keep_and_force(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'amp.keep_f32' and 'amp.force_low' cannot both be set}}
  %0 = tosa.abs %w {amp.keep_f32, amp.force_low} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @keep_not_unit(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'amp.keep_f32' must be a unit attribute}}
  %0 = tosa.abs %w {amp.keep_f32 = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unknown_attribute(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{unknown amp attribute 'amp.fast'}}
  %0 = tosa.abs %w {amp.fast} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @loss_grad_not_scalar(%l: tensor<4xf32>) {
  // expected-error@+1 {{'amp.loss_grad' op loss must hold exactly one element, got 'tensor<4xf32>'}}
  %s = amp.loss_grad %l : tensor<4xf32>
  return
}

// -----

func.func @grad_out_of_range(%w: tensor<4xf32> {amp.param}) {
  // expected-error@+1 {{'amp.grad' op param 2 is out of range: the function has 1 arguments}}
  %g = amp.grad %w {param = 2 : i64} : tensor<4xf32>
  return
}

// -----

func.func @grad_of_non_param(%w: tensor<4xf32> {amp.state}) {
  // expected-error@+1 {{'amp.grad' op param 0 names an argument that is not marked 'amp.param'}}
  %g = amp.grad %w {param = 0 : i64} : tensor<4xf32>
  return
}

// -----

func.func @grad_wrong_type(%w: tensor<4xf32> {amp.param}, %d: tensor<8xf32>) {
  // expected-error@+1 {{'amp.grad' op gradient type 'tensor<8xf32>' does not match param 0 of type 'tensor<4xf32>'}}
  %g = amp.grad %d {param = 0 : i64} : tensor<8xf32>
  return
}

// -----

func.func @grad_not_float(%w: tensor<4xf32> {amp.param}, %d: tensor<4xi32>) {
  // expected-error@+1 {{'amp.grad' op operand #0 must be float scalar or tensor of floats}}
  %g = amp.grad %d {param = 0 : i64} : tensor<4xi32>
  return
}
