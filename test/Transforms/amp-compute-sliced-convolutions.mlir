// RUN: amp-opt %s --split-input-file --amp-compute-sliced-convolutions | FileCheck %s

// A stride-2 3x3 convolution's weight gradient as torch-mlir writes it: a
// 4x4 result sliced twice to 3x3. Only the 3x3 is computed, from the input
// rows it reads, into a 3x3 fill.
// CHECK-LABEL: func.func @weight_gradient_sliced
// CHECK-DAG: %[[IN:.*]] = tensor.extract_slice %arg0[0, 0, 0, 0] [8, 4, 3, 3] [1, 1, 1, 1] : tensor<8x4x4x4xf32> to tensor<8x4x3x3xf32>
// CHECK-DAG: %[[E:.*]] = tensor.empty() : tensor<8x16x3x3xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8x16x3x3xf32>)
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%[[IN]], %arg1 : tensor<8x4x3x3xf32>, tensor<16x4x1x1xf32>) outs(%[[F]] : tensor<8x16x3x3xf32>)
// CHECK-NOT: tensor.extract_slice
// CHECK: return %[[C]]
func.func @weight_gradient_sliced(%x: tensor<8x4x4x4xf32>, %dy: tensor<16x4x1x1xf32>) -> tensor<8x16x3x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16x4x4xf32>) -> tensor<8x16x4x4xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %dy : tensor<8x4x4x4xf32>, tensor<16x4x1x1xf32>) outs(%f : tensor<8x16x4x4xf32>) -> tensor<8x16x4x4xf32>
  %s1 = tensor.extract_slice %c[0, 0, 0, 0] [8, 16, 3, 4] [1, 1, 1, 1] : tensor<8x16x4x4xf32> to tensor<8x16x3x4xf32>
  %s2 = tensor.extract_slice %s1[0, 0, 0, 0] [8, 16, 3, 3] [1, 1, 1, 1] : tensor<8x16x3x4xf32> to tensor<8x16x3x3xf32>
  return %s2 : tensor<8x16x3x3xf32>
}

// -----

// A slice at an offset, strided 2 over the output: the windows of outputs
// 1, 3, 5 start at input rows 2, 6, 10 (stride 2 of the convolution).
// CHECK-LABEL: func.func @offset_slice_of_strided_convolution
// CHECK: %[[IN:.*]] = tensor.extract_slice %arg0[0, 0, 2, 0] [1, 2, 7, 13] [1, 1, 1, 1]
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%[[IN]], %arg1 : tensor<1x2x7x13xf32>, tensor<3x2x3x3xf32>) outs(%{{.*}} : tensor<1x3x3x6xf32>)
func.func @offset_slice_of_strided_convolution(%x: tensor<1x2x13x13xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x3x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x2x13x13xf32>, tensor<3x2x3x3xf32>) outs(%f : tensor<1x3x6x6xf32>) -> tensor<1x3x6x6xf32>
  %s = tensor.extract_slice %c[0, 0, 1, 0] [1, 3, 3, 6] [1, 1, 1, 1] : tensor<1x3x6x6xf32> to tensor<1x3x3x6xf32>
  return %s : tensor<1x3x3x6xf32>
}

// -----

// Left as they are: a result read whole elsewhere too, a strided slice and
// a rank-reducing one.
// CHECK-LABEL: func.func @not_rewritten
// CHECK: %[[A:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%arg2 : tensor<1x3x4x4xf32>)
// CHECK: tensor.extract_slice %[[A]][0, 0, 0, 0] [1, 3, 3, 3] [1, 1, 1, 1]
// CHECK: %[[B:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%arg2 : tensor<1x3x4x4xf32>)
// CHECK: tensor.extract_slice %[[B]][0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 2, 2]
// CHECK: %[[C:.*]] = linalg.conv_2d_nchw_fchw {{.*}} outs(%arg2 : tensor<1x3x4x4xf32>)
// CHECK: tensor.extract_slice %[[C]][0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 1, 1] : tensor<1x3x4x4xf32> to tensor<3x4x4xf32>
func.func @not_rewritten(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>, %init: tensor<1x3x4x4xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x3x3xf32>, tensor<1x3x2x2xf32>, tensor<3x4x4xf32>) {
  %a = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %sa = tensor.extract_slice %a[0, 0, 0, 0] [1, 3, 3, 3] [1, 1, 1, 1] : tensor<1x3x4x4xf32> to tensor<1x3x3x3xf32>
  %b = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %sb = tensor.extract_slice %b[0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 2, 2] : tensor<1x3x4x4xf32> to tensor<1x3x2x2xf32>
  %c = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%x, %w : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) outs(%init : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %sc = tensor.extract_slice %c[0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 1, 1] : tensor<1x3x4x4xf32> to tensor<3x4x4xf32>
  return %a, %sa, %sb, %sc : tensor<1x3x4x4xf32>, tensor<1x3x3x3xf32>, tensor<1x3x2x2xf32>, tensor<3x4x4xf32>
}
