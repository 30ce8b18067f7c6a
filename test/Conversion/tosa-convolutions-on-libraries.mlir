// TOSA's convolutions reach libamprt through --amp-lower-to-cpu, each as
// one library call with its padding folded in: tosa.conv2d (NHWC, OHWI),
// tosa.depthwise_conv2d (a grouped call, with and without a channel
// multiplier), tosa.transpose_conv2d (decomposed upstream into a padded
// convolution; its 4-D tosa.pad once failed TOSA's level check) and a 4-D
// tosa.pad feeding a convolution. require-all fails on any left as loops.
// RUN: amp-opt %s --amp-lower-to-cpu --mlir-print-ir-before=amp-contractions-to-runtime-calls 2> %t.before.mlir > /dev/null
// RUN: amp-opt %t.before.mlir --amp-contractions-to-runtime-calls=require-all | FileCheck %s

// CHECK-LABEL: func.func @conv
// CHECK-COUNT-1: call @amp_rt_conv2d_nhwc_fhwc_f32(
// CHECK-NOT: call @amp_rt_conv2d
func.func @conv(%x: tensor<2x9x9x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x5x5x4xf32> {
  %b = "tosa.const"() {values = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<2x9x9x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x5x4xf32>
  return %y : tensor<2x5x5x4xf32>
}

// The multiplier's filters are a group's; the call reads NHWC as NGCHW.
// CHECK-LABEL: func.func @depthwise_multiplier
// CHECK: memref.reinterpret_cast {{.*}} sizes: [2, 3, 1, 8, 8]
// CHECK: memref.reinterpret_cast {{.*}} sizes: [3, 2, 1, 3, 3]
// CHECK: memref.reinterpret_cast {{.*}} sizes: [2, 3, 2, 8, 8]
// CHECK: call @amp_rt_conv2d_ngchw_gfchw_overwrite_f32({{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}}, %c1_i64{{.*}})
// CHECK-NOT: call @amp_rt_conv2d
func.func @depthwise_multiplier(%x: tensor<2x8x8x3xf32>, %w: tensor<3x3x3x2xf32>) -> tensor<2x8x8x6xf32> {
  %b = "tosa.const"() {values = dense<0.0> : tensor<6xf32>} : () -> tensor<6xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x8x8x3xf32>, tensor<3x3x3x2xf32>, tensor<6xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x8x8x6xf32>
  return %y : tensor<2x8x8x6xf32>
}

// bf16 operands, f32 accumulation; strided, padded only at the top left.
// CHECK-LABEL: func.func @depthwise_bf16
// CHECK-COUNT-1: call @amp_rt_conv2d_ngchw_gfchw_overwrite_bf16(
// CHECK-NOT: call @amp_rt_conv2d
func.func @depthwise_bf16(%x: tensor<2x8x8x3xbf16>, %w: tensor<3x3x3x1xbf16>) -> tensor<2x4x4x3xf32> {
  %b = "tosa.const"() {values = dense<0.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xbf16>} : () -> tensor<1xbf16>
  %y = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 1, 0, 1, 0>, stride = array<i64: 2, 2>, dilation = array<i64: 1, 1>} : (tensor<2x8x8x3xbf16>, tensor<3x3x3x1xbf16>, tensor<3xf32>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<2x4x4x3xf32>
  return %y : tensor<2x4x4x3xf32>
}

// CHECK-LABEL: func.func @transpose_conv
// CHECK-COUNT-1: call @amp_rt_conv2d_nhwc_fhwc
// CHECK-NOT: call @amp_rt_conv2d
func.func @transpose_conv(%x: tensor<2x4x4x3xf32>, %w: tensor<5x3x3x3xf32>) -> tensor<2x9x9x5xf32> {
  %b = "tosa.const"() {values = dense<0.0> : tensor<5xf32>} : () -> tensor<5xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.transpose_conv2d %x, %w, %b, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<2x4x4x3xf32>, tensor<5x3x3x3xf32>, tensor<5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x9x9x5xf32>
  return %y : tensor<2x9x9x5xf32>
}

// An explicit zero pad becomes the call's padding (top 1, left 2, bottom
// 0, right 1), not a padded copy.
// CHECK-LABEL: func.func @padded
// CHECK-NOT: memref.copy
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32({{.*}}, %c1_i64{{.*}}, %c2_i64{{.*}}, %c0_i64{{.*}}, %c1_i64{{.*}})
func.func @padded(%x: tensor<2x6x5x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x5x6x4xf32> {
  %pad = tosa.const_shape {values = dense<[0, 0, 1, 0, 2, 1, 0, 0]> : tensor<8xindex>} : () -> !tosa.shape<8>
  %pv = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %p = tosa.pad %x, %pad, %pv : (tensor<2x6x5x3xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<2x7x8x3xf32>
  %b = "tosa.const"() {values = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.conv2d %p, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x7x8x3xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x5x6x4xf32>
  return %y : tensor<2x5x6x4xf32>
}
