// The bytes a training step keeps from its forward pass for the backward
// pass: every value the loss is computed from that something after the
// forward reads, against the same step in f32 (a cast is its input there).
// RUN: amp-opt %s --amp-precision-report -o /dev/null 2>&1 | FileCheck %s

// Kept: the f16 copy of x (64 bytes; %x3 is a view of it, the transpose
// reads it; in f32 this is the argument, the caller's memory), the f16
// cast of the product (32; in f32 the product itself), the f32 product
// (64; in f32 the same value, counted once) and the loss (4). Not counted:
// the zero-point constant the backward matmul also reads, the weight's copy
// (the forward alone reads it).
// CHECK: amp precision report for @step
// CHECK: saved for backward: f32 68, mixed 164 (241.2%)
func.func @step(%x: tensor<4x8xf32>, %w: tensor<8x4xf32> {amp.param})
    -> (tensor<1x1xf32> {amp.loss}, tensor<8x4xf32> {amp.update_of = 1 : i64}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s_1x4x8 = tosa.const_shape {values = dense<[1, 4, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x8x4 = tosa.const_shape {values = dense<[1, 8, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_1x1 = tosa.const_shape {values = dense<[1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s_1x1x1 = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s_8x4 = tosa.const_shape {values = dense<[8, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  // Forward.
  %xl = tosa.cast %x : (tensor<4x8xf32>) -> tensor<4x8xf16>
  %x3 = tosa.reshape %xl, %s_1x4x8 : (tensor<4x8xf16>, !tosa.shape<3>) -> tensor<1x4x8xf16>
  %wl = tosa.cast %w : (tensor<8x4xf32>) -> tensor<8x4xf16>
  %w3 = tosa.reshape %wl, %s_1x8x4 : (tensor<8x4xf16>, !tosa.shape<3>) -> tensor<1x8x4xf16>
  %mm = tosa.matmul %x3, %w3, %zp, %zp : (tensor<1x4x8xf16>, tensor<1x8x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  %hl = tosa.cast %mm : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %a = tosa.clamp %hl {min_val = 0.0 : f16, max_val = 65504.0 : f16} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
  %af = tosa.cast %a : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
  %rows = tosa.reduce_sum %af {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x1xf32>
  %all = tosa.reduce_sum %rows {axis = 1 : i32} : (tensor<1x4x1xf32>) -> tensor<1x1x1xf32>
  %loss = tosa.reshape %all, %s_1x1 : (tensor<1x1x1xf32>, !tosa.shape<2>) -> tensor<1x1xf32>
  // Backward.
  %seed = amp.loss_grad %loss : tensor<1x1xf32>
  %seed3 = tosa.reshape %seed, %s_1x1x1 : (tensor<1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
  %seedl = tosa.cast %seed3 : (tensor<1x1x1xf32>) -> tensor<1x1x1xf16>
  %da = tosa.mul %hl, %seedl, %shift : (tensor<1x4x4xf16>, tensor<1x1x1xf16>, tensor<1xi8>) -> tensor<1x4x4xf16>
  %daf = tosa.cast %da : (tensor<1x4x4xf16>) -> tensor<1x4x4xf32>
  %dmm = tosa.add %daf, %mm : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %dml = tosa.cast %dmm : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %xt = tosa.transpose %x3 {perms = array<i32: 0, 2, 1>} : (tensor<1x4x8xf16>) -> tensor<1x8x4xf16>
  %dw3 = tosa.matmul %xt, %dml, %zp, %zp : (tensor<1x8x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x8x4xf32>
  %dw = tosa.reshape %dw3, %s_8x4 : (tensor<1x8x4xf32>, !tosa.shape<2>) -> tensor<8x4xf32>
  %g = amp.grad %dw {param = 1} : tensor<8x4xf32>
  %new = tosa.sub %w, %g : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x4xf32>
  return %loss, %new : tensor<1x1xf32>, tensor<8x4xf32>
}
