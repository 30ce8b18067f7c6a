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

// expected-error@+1 {{'amp.update_of' of result 0 names argument 0, which is not a param, state, scaler or working copy}}
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

// -----

// expected-error@+1 {{'amp.scaler' of argument 0 must be "scale", "growth_tracker" or "hysteresis"}}
func.func @scaler_role(%s: tensor<f32> {amp.scaler = "speed"}) {
  return
}

// -----

// expected-error@+1 {{loss-scaler "scale" argument 0 must be a 'tensor<f32>', got 'tensor<1xf32>'}}
func.func @scaler_type(%s: tensor<1xf32> {amp.scaler = "scale"}) {
  return
}

// -----

// expected-error@+1 {{loss-scaler "growth_tracker" argument 0 must be a 'tensor<i32>', got 'tensor<f32>'}}
func.func @tracker_type(%s: tensor<f32> {amp.scaler = "growth_tracker"}) {
  return
}

// -----

// expected-error@+1 {{'amp.found_inf' result 0 must be a tensor<i1>, got 'tensor<i32>'}}
func.func @found_inf_type(%s: tensor<i32>) -> (tensor<i32> {amp.found_inf}) {
  return %s : tensor<i32>
}

// -----

// expected-error@+1 {{'amp.working_copy_of' of argument 1 names 0, which is not an 'amp.param' argument}}
func.func @copy_of_non_param(%w: tensor<4xf32>, %c: tensor<4xf16> {amp.working_copy_of = 0 : i64}) {
  return
}

// -----

// expected-error@+1 {{working copy argument 1 must have the shape of param 0 and a 16-bit float type, got 'tensor<8xf16>'}}
func.func @copy_shape(%w: tensor<4xf32> {amp.param}, %c: tensor<8xf16> {amp.working_copy_of = 0 : i64}) {
  return
}

// -----

// expected-error@+1 {{'amp.initial_scale' must be a positive f32}}
func.func @initial_scale(%w: tensor<4xf32>) attributes {amp.initial_scale = -1.0 : f32} {
  return
}

// -----

func.func @initial_scale_on_op(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'amp.initial_scale' is only valid on a function}}
  %0 = tosa.abs %w {amp.initial_scale = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @unscale_empty(%s: tensor<f32>) {
  // expected-error@+1 {{'amp.unscale' op needs at least one gradient}}
  %inf = "amp.unscale"(%s) : (tensor<f32>) -> tensor<i1>
  return
}

// -----

func.func @update_scale_backoff(%inf: tensor<i1>, %s: tensor<f32>, %t: tensor<i32>) {
  // expected-error@+1 {{'amp.update_scale' op backoff_factor must be in (0, 1), got 2.000000e+00}}
  %a, %b = amp.update_scale %inf, %s, %t {growth_factor = 2.0 : f32, backoff_factor = 2.0 : f32, growth_interval = 2000 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
  return
}

// -----

func.func @update_scale_growth(%inf: tensor<i1>, %s: tensor<f32>, %t: tensor<i32>) {
  // expected-error@+1 {{'amp.update_scale' op growth_factor must be greater than 1 and finite, got 5.000000e-01}}
  %a, %b = amp.update_scale %inf, %s, %t {growth_factor = 0.5 : f32, backoff_factor = 0.5 : f32, growth_interval = 2000 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
  return
}

// -----

func.func @update_scale_interval(%inf: tensor<i1>, %s: tensor<f32>, %t: tensor<i32>) {
  // expected-error@+1 {{'amp.update_scale' op growth_interval must be at least 1, got 0}}
  %a, %b = amp.update_scale %inf, %s, %t {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32, growth_interval = 0 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
  return
}

// -----

func.func @update_scale_bounds(%inf: tensor<i1>, %s: tensor<f32>, %t: tensor<i32>) {
  // expected-error@+1 {{'amp.update_scale' op needs 0 <= min_scale <= max_scale, got 8.000000e+00 and 4.000000e+00}}
  %a, %b = amp.update_scale %inf, %s, %t {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32, growth_interval = 2 : i64, min_scale = 8.0 : f32, max_scale = 4.0 : f32, hysteresis = 1 : i64}
  return
}

// -----

func.func @update_scale_missing_tracker(%inf: tensor<i1>, %s: tensor<f32>, %t: tensor<i32>) {
  // expected-error@+1 {{'amp.update_scale' op takes a hysteresis tracker exactly when hysteresis > 1 (hysteresis = 2)}}
  %a, %b = amp.update_scale %inf, %s, %t {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32, growth_interval = 2 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 2 : i64}
  return
}

// -----

func.func @skip_types(%inf: tensor<i1>, %a: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error@+1 {{'amp.skip_if_inf' op failed to verify that all of {old_value, new_value, result} have same type}}
  %r = "amp.skip_if_inf"(%inf, %a, %b) : (tensor<i1>, tensor<4xf32>, tensor<8xf32>) -> tensor<4xf32>
  return
}

// -----

// expected-error@+1 {{'amp.name' of argument 0 must be a string}}
func.func @name_not_string(%x: tensor<4xf32> {amp.name = 3 : i64}) {
  return
}

// -----

// expected-error@+1 {{'amp.name' of argument 1 is "two words"; a name is 1 to 255 characters of [A-Za-z0-9_.:/-]}}
func.func @name_with_space(%x: tensor<4xf32> {amp.name = "x"}, %y: tensor<4xf32> {amp.name = "two words"}) {
  return
}

// -----

// expected-error@+1 {{'amp.name' of argument 0 is ""; a name is 1 to 255 characters of [A-Za-z0-9_.:/-]}}
func.func @name_empty(%x: tensor<4xf32> {amp.name = ""}) {
  return
}

// -----

// expected-error@+1 {{arguments 0 and 2 are both named "images"}}
func.func @name_twice(%x: tensor<4xf32> {amp.name = "images"}, %w: tensor<4xf32> {amp.param, amp.name = "w"}, %y: tensor<4xf32> {amp.name = "images"}) {
  return
}

// -----

func.func @name_on_op(%w: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{'amp.name' is only valid on a function argument}}
  %0 = arith.addf %w, %w {amp.name = "sum"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @all_reduce_nothing() {
  // expected-error@+1 {{'amp.all_reduce' op needs at least one value to reduce}}
  "amp.all_reduce"() {reduction = 0 : i32} : () -> ()
  return
}

// -----

func.func @all_reduce_mixed(%a: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error@+1 {{'amp.all_reduce' op values of one bucket must share an element type, got 'f32' and 'f16'}}
  %r:2 = amp.all_reduce mean %a, %b : tensor<4xf32>, tensor<4xf16>
  return
}

// -----

func.func @all_reduce_mean_of_flags(%f: tensor<i1>) {
  // expected-error@+1 {{'amp.all_reduce' op i1 values can only be reduced with 'max', got 'mean'}}
  %r = amp.all_reduce mean %f : tensor<i1>
  return
}

// -----

func.func @all_reduce_f64(%a: tensor<4xf64>) {
  // expected-error@+1 {{'amp.all_reduce' op operand #0 must be variadic of statically shaped tensor of 32-bit float or 16-bit float or bfloat16 type or 1-bit signless integer values}}
  %r = amp.all_reduce sum %a : tensor<4xf64>
  return
}

// -----

func.func @all_reduce_unknown(%a: tensor<4xf32>) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'reduction' [sum, mean, max]}}
  %r = amp.all_reduce min %a : tensor<4xf32>
  return
}

// -----

// expected-error@+1 {{'amp.workspace_bytes' must be a positive integer on a function}}
func.func @workspace_not_positive(%ws: memref<8xi8>) attributes {amp.workspace_bytes = 0 : i64} {
  return
}

// -----

func.func @workspace_not_on_function() {
  // expected-error@+1 {{'amp.workspace_bytes' must be a positive integer on a function}}
  %c = arith.constant {amp.workspace_bytes = 8 : i64} 0 : index
  return
}

// -----

// expected-error@+1 {{'amp.workspace_init' must be a symbol reference on a function with 'amp.workspace_bytes'}}
func.func @workspace_init_without_workspace() attributes {amp.workspace_init = @init} {
  return
}

// -----

// expected-error@+1 {{'amp.workspace_init' must be a symbol reference on a function with 'amp.workspace_bytes'}}
func.func @workspace_init_not_a_symbol(%ws: memref<256xi8>) attributes {amp.workspace_bytes = 256 : i64, amp.workspace_init = "init"} {
  return
}
