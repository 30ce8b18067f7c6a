// --amp-autocast=explain tells, for every op holding f32 values, its
// category, the precision it got and what decided it.
// RUN: amp-opt %s --split-input-file --amp-autocast=explain --verify-diagnostics -o /dev/null

// The forward values are also returned (as the backward would read them),
// so only the last two reductions compute the loss alone.
func.func @step(%x: tensor<1x4x4xf32>, %w: tensor<1x4x4xf32> {amp.param}) -> (tensor<1x1x1xf32> {amp.loss}, tensor<1x4x4xf32> {amp.update_of = 1 : i64}, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  // expected-remark@+1 {{amp-autocast: allow op runs low (category)}}
  %m = tosa.matmul %x, %w, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: infer op runs low (neighbours)}}
  %t = tosa.tanh %m : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: allow op runs low (category)}}
  %m2 = tosa.matmul %t, %w, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: deny op runs f32 (category)}}
  %e = tosa.exp %m2 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: infer op runs f32 (neighbours)}}
  %a = tosa.abs %e : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: allow op runs low (category)}}
  %m3 = tosa.matmul %a, %w, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: allow op runs f32 (amp attribute)}}
  %k = tosa.matmul %m3, %w, %zp, %zp {amp.keep_f32} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: deny op runs f32 (loss)}}
  %r = tosa.reduce_sum %k {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  // expected-remark@+1 {{amp-autocast: infer op runs f32 (loss)}}
  %loss = tosa.reduce_max %r {axis = 2 : i32} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %seed = amp.loss_grad %loss : tensor<1x1x1xf32>
  %g = amp.grad %m2 {param = 1 : i64} : tensor<1x4x4xf32>
  // expected-remark@+1 {{amp-autocast: infer op runs f32 (optimizer)}}
  %n = tosa.sub %w, %g : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %loss, %n, %k : tensor<1x1x1xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>
}

// -----

func.func @sum_forced_low(%a: tensor<1x4x4xf32>) -> tensor<1x1x4xf32> {
  // expected-warning@+2 {{'amp.force_low' ignored: this op cannot run in low precision with an f32 accumulator}}
  // expected-remark@+1 {{amp-autocast: deny op runs f32 (no f32 accumulation in low precision)}}
  %0 = tosa.reduce_sum %a {axis = 1 : i32, amp.force_low} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  return %0 : tensor<1x1x4xf32>
}
