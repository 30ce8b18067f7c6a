// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-conv-buffer-layouts))" | FileCheck %s

// A weight gradient as a convolution comes out (I, O, KH, KW); the update
// reads it as (O, I, KH, KW). It is stored (O, I, KH, KW): the convolution
// and the fill get a transposed view with the old shape, the update reads
// the stored buffer in order (identity maps only).
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @weight_gradient
// CHECK: %[[STORED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4x3x3xf32>
// CHECK: %[[VIEW:.*]] = memref.transpose %[[STORED]] (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xf32> to memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>
// CHECK: linalg.fill {{.*}} outs(%[[VIEW]] :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} outs(%[[VIEW]] :
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]]{{.*}} ins(%[[STORED]], %arg2 :
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
// CHECK-DAG: #[[WRITE:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @flipped_filter
// CHECK: %[[STORED:.*]] = memref.alloc() : memref<8x4x3x3xf32>
// CHECK: %[[VIEW:.*]] = memref.transpose %[[STORED]] (d0, d1, d2, d3) -> (d1, d0, d2, d3)
// CHECK: linalg.generic {indexing_maps = [#[[READ]], #[[WRITE]]]
// CHECK-SAME: ins(%arg0 : memref<8x4x3x3xf32>) outs(%[[STORED]] :
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

// -----

// The same filter as torch-mlir's steps compute it: no input, the weights
// loaded at affine functions of the loops, into a collapsed buffer with a
// unit dimension. The buffer is allocated collapsed, the loads become an
// input, and the copy and its buffer follow the weights' order.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 2, -d3 + 2)>
// CHECK-DAG: #[[WRITE:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @gathered_filter
// CHECK-NOT: memref.collapse_shape
// CHECK: %[[STORED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4x3x3xf32>
// CHECK: %[[VIEW:.*]] = memref.transpose %[[STORED]] (d0, d1, d2, d3) -> (d1, d0, d2, d3)
// CHECK: linalg.generic {indexing_maps = [#[[READ]], #[[WRITE]]]
// CHECK-SAME: ins(%arg0 : memref<8x4x3x3xf32>) outs(%[[STORED]] :
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} ins(%arg1, %[[VIEW]] :
func.func @gathered_filter(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xf32>, %dx: memref<2x4x4x4xf32>) {
  %c2 = arith.constant 2 : index
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<1x4x8x3x3xf32>
  %flipped = memref.collapse_shape %alloc [[0, 1], [2], [3], [4]] : memref<1x4x8x3x3xf32> into memref<4x8x3x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%flipped : memref<4x8x3x3xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %o = linalg.index 1 : index
    %kh = linalg.index 2 : index
    %kw = linalg.index 3 : index
    %rh = arith.subi %c2, %kh : index
    %rw = arith.subi %c2, %kw : index
    %x = memref.load %w[%o, %i, %rh, %rw] : memref<8x4x3x3xf32>
    linalg.yield %x : f32
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %flipped : memref<2x8x6x6xf32>, memref<4x8x3x3xf32>) outs(%dx : memref<2x4x4x4xf32>)
  return
}

// -----

// The filter of a mixed-precision step: the loaded weight converted, an
// elementwise function of the element. It becomes the input of a
// converting copy, which follows the weights' order.
// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 2, -d3 + 2)>
// CHECK-LABEL: func.func @gathered_converted_filter
// CHECK: %[[STORED:.*]] = memref.alloc() : memref<8x4x3x3xbf16>
// CHECK: linalg.generic {indexing_maps = [#[[READ]], #{{.*}}]
// CHECK-SAME: ins(%arg0 : memref<8x4x3x3xf32>) outs(%[[STORED]] :
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[LOW:.*]] = arith.truncf %[[IN]] : f32 to bf16
// CHECK-NEXT: linalg.yield %[[LOW]] : bf16
func.func @gathered_converted_filter(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xbf16>, %dx: memref<2x4x4x4xf32>) {
  %c2 = arith.constant 2 : index
  %flipped = memref.alloc() : memref<4x8x3x3xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%flipped : memref<4x8x3x3xbf16>) {
  ^bb0(%out: bf16):
    %i = linalg.index 0 : index
    %o = linalg.index 1 : index
    %kh = linalg.index 2 : index
    %kw = linalg.index 3 : index
    %rh = arith.subi %c2, %kh : index
    %rw = arith.subi %c2, %kw : index
    %x = memref.load %w[%o, %i, %rh, %rw] : memref<8x4x3x3xf32>
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %flipped : memref<2x8x6x6xbf16>, memref<4x8x3x3xbf16>) outs(%dx : memref<2x4x4x4xf32>)
  return
}

// A body that computes with more than the element (here a loop index) is
// left alone.
// CHECK-LABEL: func.func @gather_and_compute
// CHECK: linalg.generic {indexing_maps = [#{{.*}}], {{.*}} outs(
// CHECK: memref.load
func.func @gather_and_compute(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xf32>, %dx: memref<2x4x4x4xf32>) {
  %flipped = memref.alloc() : memref<4x8x3x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%flipped : memref<4x8x3x3xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %o = linalg.index 1 : index
    %kh = linalg.index 2 : index
    %kw = linalg.index 3 : index
    %x = memref.load %w[%o, %i, %kh, %kw] : memref<8x4x3x3xf32>
    %ki = arith.index_cast %kh : index to i32
    %kf = arith.sitofp %ki : i32 to f32
    %y = arith.mulf %x, %kf : f32
    linalg.yield %y : f32
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %flipped : memref<2x8x6x6xf32>, memref<4x8x3x3xf32>) outs(%dx : memref<2x4x4x4xf32>)
  return
}

// -----

// A weight gradient accumulated into an out-parameter just filled with
// zeros (bufferization reuses the buffer the new weights go to) gets a
// zero-filled buffer of its own, stored in the update's order; the update
// reads that, and then writes the out-parameter.
// CHECK-LABEL: func.func @gradient_in_out_param
// CHECK: linalg.fill {{.*}} outs(%arg3 :
// CHECK: memref.copy %arg3, %arg4
// CHECK: %[[STORED:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8x4x3x3xf32>
// CHECK: %[[VIEW:.*]] = memref.transpose %[[STORED]]
// CHECK: linalg.fill {{.*}} outs(%[[VIEW]] :
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} outs(%[[VIEW]] :
// CHECK: linalg.generic {{.*}} ins(%[[STORED]], %arg2 : {{.*}} outs(%arg5 :
// CHECK: linalg.generic {{.*}} ins(%arg2 : {{.*}} outs(%arg3 :
func.func @gradient_in_out_param(%acts: memref<4x2x5x5xf32>, %dy: memref<8x2x3x3xf32>, %w: memref<8x4x3x3xf32>,
                                 %out: memref<4x8x3x3xf32>, %zeros: memref<4x8x3x3xf32>, %new: memref<8x4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<4x8x3x3xf32>)
  memref.copy %out, %zeros : memref<4x8x3x3xf32> to memref<4x8x3x3xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%out : memref<4x8x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out, %w : memref<4x8x3x3xf32>, memref<8x4x3x3xf32>) outs(%new : memref<8x4x3x3xf32>) {
  ^bb0(%g: f32, %p: f32, %o: f32):
    %next = arith.subf %p, %g : f32
    linalg.yield %next : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%out : memref<4x8x3x3xf32>) {
  ^bb0(%p: f32, %o: f32):
    linalg.yield %p : f32
  }
  return
}

// Not where the argument is not all zeros at the convolution, or is read
// after it with nothing overwriting it (the gradient is the result).
// CHECK-LABEL: func.func @gradient_kept_in_argument
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @gradient_kept_in_argument(%acts: memref<4x2x5x5xf32>, %dy: memref<8x2x3x3xf32>, %w: memref<8x4x3x3xf32>,
                                     %out: memref<4x8x3x3xf32>, %new: memref<8x4x3x3xf32>, %out2: memref<4x8x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%out : memref<4x8x3x3xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%out : memref<4x8x3x3xf32>)
  linalg.fill ins(%zero : f32) outs(%out2 : memref<4x8x3x3xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%acts, %dy : memref<4x2x5x5xf32>, memref<8x2x3x3xf32>) outs(%out2 : memref<4x8x3x3xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%out2 : memref<4x8x3x3xf32>) outs(%new : memref<8x4x3x3xf32>) {
  ^bb0(%g: f32, %o: f32):
    linalg.yield %g : f32
  }
  return
}
