// tensor.pad is a clear op when its padding is a constant both half types
// hold exactly: a convolution's input is then cast before it is padded.
// RUN: amp-opt %s --split-input-file --amp-autocast="cast-dialect=arith" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-autocast="cast-dialect=arith precision=bf16" | FileCheck %s --check-prefix=BF16

// Zero padding in front of a convolution: one cast of the 4x4 input, the
// pad in f16 with an f16 zero, no cast of the padded 6x6 tensor.
// CHECK-LABEL: func.func @zero_padding_goes_low
// CHECK: %[[X:.*]] = arith.truncf %arg0 : tensor<1x2x4x4xf32> to tensor<1x2x4x4xf16>
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK:   %[[Z:.*]] = arith.truncf %{{.*}} : f32 to f16
// CHECK:   tensor.yield %[[Z]] : f16
// CHECK: } : tensor<1x2x4x4xf16> to tensor<1x2x6x6xf16>
// CHECK-NOT: arith.truncf %{{.*}} : tensor<1x2x6x6xf32>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<1x2x6x6xf16>, tensor<3x2x3x3xf16>) outs(%{{.*}} : tensor<1x3x4x4xf32>)
// BF16-LABEL: func.func @zero_padding_goes_low
// BF16: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// BF16: } : tensor<1x2x4x4xbf16> to tensor<1x2x6x6xbf16>
func.func @zero_padding_goes_low(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c : tensor<1x3x4x4xf32>
}

// -----

// Padding with 0.1, which neither half type holds: the pad stays f32 and
// the convolution casts the padded tensor.
// CHECK-LABEL: func.func @inexact_padding_stays_f32
// CHECK: %[[P:.*]] = tensor.pad %arg0
// CHECK: } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
// CHECK: %[[PH:.*]] = arith.truncf %[[P]] : tensor<1x2x6x6xf32> to tensor<1x2x6x6xf16>
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%[[PH]], %{{.*}} : tensor<1x2x6x6xf16>, tensor<3x2x3x3xf16>)
func.func @inexact_padding_stays_f32(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %tenth = arith.constant 0.1 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %tenth : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c : tensor<1x3x4x4xf32>
}

// -----

// A zero pad that a convolution reads low and the function returns in f32:
// running it low would round the f32 values returned, so it stays f32.
// CHECK-LABEL: func.func @pad_read_in_f32_stays_f32
// CHECK: %[[P:.*]] = tensor.pad %arg0
// CHECK: } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
// CHECK: arith.truncf %[[P]] : tensor<1x2x6x6xf32> to tensor<1x2x6x6xf16>
// CHECK: return %{{.*}}, %[[P]] : tensor<1x3x4x4xf32>, tensor<1x2x6x6xf32>
func.func @pad_read_in_f32_stays_f32(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x3x3xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x2x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x3x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%p, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %c, %p : tensor<1x3x4x4xf32>, tensor<1x2x6x6xf32>
}
