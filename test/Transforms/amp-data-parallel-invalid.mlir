// Bad --amp-data-parallel options and steps whose gradients cannot be
// averaged are located errors.
// RUN: split-file %s %t
// RUN: amp-opt %t/bucket.mlir --amp-data-parallel="bucket-mb=0" --verify-diagnostics
// RUN: not amp-opt %t/bucket.mlir --amp-data-parallel="reduce-type=f8" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: not amp-opt %t/bucket.mlir --amp-pipeline="data-parallel=true reduce-type=f8" 2>&1 | FileCheck %s --check-prefix=TYPE
// RUN: amp-opt %t/steps.mlir --split-input-file --amp-data-parallel --verify-diagnostics

// TYPE: reduce-type
// TYPE-SAME: f8
// TYPE: f32
// TYPE-SAME: f16
// TYPE-SAME: bf16

//--- bucket.mlir
// expected-error@+1 {{amp-data-parallel: bucket-mb must be a positive number of MiB, got 0}}
module {
  func.func @step(%x: tensor<1xf32>, %w: tensor<1xf32> {amp.param})
      -> (tensor<1xf32> {amp.loss}) {
    %seed = amp.loss_grad %x : tensor<1xf32>
    %g = amp.grad %seed {param = 1 : i64} : tensor<1xf32>
    return %x : tensor<1xf32>
  }
}

//--- steps.mlir
// A step without gradients has nothing to average.
// expected-warning@+2 {{param 1 has no 'amp.grad'}}
// expected-error@+1 {{amp-data-parallel: no 'amp.grad' in the training step: there is no gradient to average across ranks}}
func.func @no_grad(%x: tensor<1xf32>, %w: tensor<4xf32> {amp.param})
    -> (tensor<1xf32> {amp.loss}) {
  %seed = amp.loss_grad %x : tensor<1xf32>
  return %x : tensor<1xf32>
}

// -----

// The gradient of %w is computed from the (rank-local) gradient of %v:
// averaging %v's gradient first would change %w's.
func.func @grad_of_grad(%x: tensor<4xf32>, %w: tensor<4xf32> {amp.param},
                        %v: tensor<4xf32> {amp.param})
    -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64},
        tensor<4xf32> {amp.update_of = 2 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %l = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %seed = amp.loss_grad %l : tensor<1xf32>
  %dv = tosa.mul %x, %seed, %shift : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
  %gv = amp.grad %dv {param = 2 : i64} : tensor<4xf32>
  // expected-error@+1 {{amp-data-parallel: a gradient is computed from the gradient of another param; gradients must only depend on the forward and backward passes}}
  %dw = tosa.add %gv, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %gw = amp.grad %dw {param = 1 : i64} : tensor<4xf32>
  %nw = tosa.sub %w, %gw : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %nv = tosa.sub %v, %gv : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %l, %nw, %nv : tensor<1xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

// A scalar gradient has no buffer to reduce.
func.func @scalar_grad(%x: f32, %w: f32 {amp.param})
    -> (f32 {amp.loss}, f32 {amp.update_of = 1 : i64}) {
  %seed = amp.loss_grad %x : f32
  %d = arith.mulf %seed, %x : f32
  // expected-error@+1 {{amp-data-parallel: the gradient of param 1 is a scalar; only tensor gradients can be reduced across ranks}}
  %g = amp.grad %d {param = 1 : i64} : f32
  %nw = arith.subf %w, %g : f32
  return %x, %nw : f32, f32
}

// -----

// A rank-local f64 statistic: the runtime reduces f32, f16 and bf16 only.
func.func @local_f64(%x: tensor<4xf32>, %w: tensor<4xf32> {amp.param},
                     %n: tensor<4xf64> {amp.state})
    -> (tensor<1xf32> {amp.loss}, tensor<4xf32> {amp.update_of = 1 : i64},
        tensor<4xf64> {amp.update_of = 2 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %l = tosa.reduce_sum %x {axis = 0 : i32} : (tensor<4xf32>) -> tensor<1xf32>
  %seed = amp.loss_grad %l : tensor<1xf32>
  %d = tosa.mul %x, %seed, %shift : (tensor<4xf32>, tensor<1xf32>, tensor<1xi8>) -> tensor<4xf32>
  %g = amp.grad %d {param = 1 : i64} : tensor<4xf32>
  %nw = tosa.sub %w, %g : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %wide = arith.extf %x : tensor<4xf32> to tensor<4xf64>
  %nn = arith.addf %n, %wide : tensor<4xf64>
  // expected-error@+1 {{amp-data-parallel: result 2 depends on the rank's shard of the batch and must be averaged across ranks, but its type 'tensor<4xf64>' is not f32, f16 or bf16 (what the runtime reduces)}}
  return %l, %nw, %nn : tensor<1xf32>, tensor<4xf32>, tensor<4xf64>
}
