// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-conv-buffer-layouts))" | FileCheck %s

// A weight gradient as a convolution comes out (I, O, KH, KW); the update
// reads it as (O, I, KH, KW). It is stored (O, I, KH, KW): the convolution
// and the fill get a transposed view with the old shape, the update reads
// it in order.
// CHECK-DAG: #[[SWAP:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK-LABEL: func.func @weight_gradient
// CHECK: %[[STORED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4x3x3xf32>
// CHECK: %[[VIEW:.*]] = memref.transpose %[[STORED]] (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xf32> to memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>
// CHECK: linalg.fill {{.*}} outs(%[[VIEW]] :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} outs(%[[VIEW]] :
// CHECK: linalg.generic {indexing_maps = [#[[SWAP]], {{.*}}]{{.*}} ins(%[[VIEW]], %arg2 :
func.func @weight_gradient(%acts: memref<4x2x5x5xf32>, %dy: memref<8x2x3x3xf32>,
                           %w: memref<8x4x3x3xf32>, %new: memref<8x4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %lr = arith.constant 0.1 : f32
  %grad = memref.alloc() {alignment = 64 : i64} : memref<4x8x3x3xf32>
  linalg.fill ins(%zero : f32) outs(%grad : memref<4x8x3x3xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%grad : memref<4x8x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%grad, %w : memref<4x8x3x3xf32>, memref<8x4x3x3xf32>) outs(%new : memref<8x4x3x3xf32>) {
  ^bb0(%g: f32, %p: f32, %out: f32):
    %step = arith.mulf %g, %lr : f32
    %next = arith.subf %p, %step : f32
    linalg.yield %next : f32
  }
  return
}

// -----

// Left alone: loop nests that disagree on the order, no convolution, a
// GEMM-shaped user (a library GEMM wants a unit stride), an order that is
// already the buffer's own, a view taken of the buffer.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref.transpose
// CHECK: return
func.func @kept(%acts: memref<4x2x5x5xf32>, %dy: memref<8x2x3x3xf32>,
                %a: memref<8x4x3x3xf32>, %b: memref<4x8x3x3xf32>, %m: memref<8x4xf32>, %n: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %disagree = memref.alloc() : memref<4x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%disagree : memref<4x8x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%disagree : memref<4x8x3x3xf32>) outs(%a : memref<8x4x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%disagree : memref<4x8x3x3xf32>) outs(%b : memref<4x8x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  %noconv = memref.alloc() : memref<4x8x3x3xf32>
  linalg.fill ins(%zero : f32) outs(%noconv : memref<4x8x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%noconv : memref<4x8x3x3xf32>) outs(%a : memref<8x4x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  %gemm = memref.alloc() : memref<4x8xf32>
  %conv2 = memref.alloc() : memref<4x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%conv2 : memref<4x8x3x3xf32>)
  %view = memref.subview %conv2[0, 0, 0, 0] [4, 8, 1, 1] [1, 1, 1, 1] : memref<4x8x3x3xf32> to memref<4x8xf32, strided<[72, 9]>>
  linalg.matmul ins(%view, %m : memref<4x8xf32, strided<[72, 9]>>, memref<8x4xf32>) outs(%n : memref<4x4xf32>)
  %own = memref.alloc() : memref<4x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%own : memref<4x8x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%own : memref<4x8x3x3xf32>) outs(%b : memref<4x8x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A data gradient's filter: the weights transposed and flipped into a
// buffer only a convolution reads. The copy's loops are interchanged to
// read the weights in order, and the buffer is stored in that order.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 2, -d3 + 2)>
// CHECK-DAG: #[[WRITE:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>
// CHECK-LABEL: func.func @flipped_filter
// CHECK: %[[STORED:.*]] = memref.alloc() : memref<8x4x3x3xf32>
// CHECK: %[[VIEW:.*]] = memref.transpose %[[STORED]] (d0, d1, d2, d3) -> (d1, d0, d2, d3)
// CHECK: linalg.generic {indexing_maps = [#[[READ]], #[[WRITE]]]
// CHECK-SAME: ins(%arg0 : memref<8x4x3x3xf32>) outs(%[[VIEW]] :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg1, %[[VIEW]] :
func.func @flipped_filter(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xf32>, %dx: memref<2x4x4x4xf32>) {
  %flipped = memref.alloc() : memref<4x8x3x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, 2 - d2, 2 - d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%flipped : memref<4x8x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %flipped : memref<2x8x6x6xf32>, memref<4x8x3x3xf32>) outs(%dx : memref<2x4x4x4xf32>)
  return
}
