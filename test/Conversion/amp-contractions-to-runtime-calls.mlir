// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls=runtime=cuda | FileCheck %s --check-prefix=CUDA

// One declaration per (type, batched), called with fully dynamic strided
// casts of the operands; the linalg op is gone.
// CHECK-DAG: func.func private @amp_rt_batch_matmul_f16(memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>, memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @amp_rt_matmul_f32(
// CHECK-LABEL: func.func @contractions
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<2x4x8xf16> to memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[B:.*]] = memref.cast %arg1 : memref<2x8x3xf16> to memref<?x?x?xf16, strided<[?, ?, ?], offset: ?>>
// CHECK: %[[C:.*]] = memref.cast %arg2 : memref<2x4x3xf32> to memref<?x?x?xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: call @amp_rt_batch_matmul_f16(%[[A]], %[[B]], %[[C]])
// CHECK: call @amp_rt_batch_matmul_f16(
// CHECK: call @amp_rt_matmul_f32(
// CHECK-NOT: linalg.batch_matmul
// CHECK-NOT: linalg.matmul
// The CUDA runtime's GEMMs (cuBLASLt) have their own names.
// CUDA-DAG: func.func private @amp_rt_cuda_batch_matmul_f16(
// CUDA-DAG: func.func private @amp_rt_cuda_matmul_f32(
// CUDA-LABEL: func.func @contractions
// CUDA-COUNT-2: call @amp_rt_cuda_batch_matmul_f16(
// CUDA: call @amp_rt_cuda_matmul_f32(
func.func @contractions(%a: memref<2x4x8xf16>, %b: memref<2x8x3xf16>, %c: memref<2x4x3xf32>,
                        %x: memref<4x8xf32>, %y: memref<8x3xf32>, %z: memref<4x3xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf16>, memref<2x8x3xf16>) outs(%c : memref<2x4x3xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf16>, memref<2x8x3xf16>) outs(%c : memref<2x4x3xf32>)
  linalg.matmul ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%z : memref<4x3xf32>)
  return
}

// -----

// Left alone: tensors (before bufferization), f16 accumulators.
// CHECK-LABEL: func.func @not_converted
// CHECK-NOT: call
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x3xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf16>, memref<8x3xf16>) outs(%{{.*}} : memref<4x3xf16>)
func.func @not_converted(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>, %z: tensor<4x3xf32>,
                         %h: memref<4x8xf16>, %k: memref<8x3xf16>, %o: memref<4x3xf16>) -> tensor<4x3xf32> {
  %r = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  linalg.matmul ins(%h, %k : memref<4x8xf16>, memref<8x3xf16>) outs(%o : memref<4x3xf16>)
  return %r : tensor<4x3xf32>
}

// -----

// A transposed operand is a view with swapped strides: no copy.
// CHECK-LABEL: func.func @transposed_named
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0 : memref<8x4xf32>
// CHECK: %[[AT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [4, 8], strides: [%[[STR]]#1, %[[STR]]#0]
// CHECK: %[[B:.*]] = memref.cast %arg1
// CHECK: %[[C:.*]] = memref.cast %arg2
// CHECK: call @amp_rt_matmul_f32(%[[AT]], %[[B]], %[[C]])
// CHECK-NOT: linalg.matmul
func.func @transposed_named(%t: memref<8x4xf32>, %u: memref<8x3xf32>, %v: memref<4x3xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%t, %u : memref<8x4xf32>, memref<8x3xf32>) outs(%v : memref<4x3xf32>)
  return
}

// -----

// What elementwise fusion makes of a weight gradient (a transpose and unit
// dimensions folded into the maps, the inputs widened in the body) is a
// GEMM: the extent-1 loops d0 and d3 have no role, d4 is k, B is the first
// input here (it holds n), A the second.
// CHECK-LABEL: func.func @fused_weight_gradient
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2048, 256], strides: [%{{.*}}, %{{.*}}]
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [256, 784], strides: [%{{.*}}, %{{.*}}]
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [2048, 784], strides: [%{{.*}}, %{{.*}}]
// CHECK: call @amp_rt_matmul_bf16(
// CHECK-NOT: linalg.generic
func.func @fused_weight_gradient(%a: memref<1x2048x1x256xbf16>, %b: memref<1x1x256x784xbf16>, %c: memref<1x2048x784xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d3, d4)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d3, d4, d2)>,
                                   affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<1x2048x1x256xbf16>, memref<1x1x256x784xbf16>) outs(%c : memref<1x2048x784xf32>) {
  ^bb0(%x: bf16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : bf16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %1, %0 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// A linear layer on [batch, tokens, features]: the batch and token loops
// are one m dimension of 64 * 28 rows, as both A and C lay them out.
// CHECK-LABEL: func.func @merged_rows
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [1792, 32]
// CHECK: memref.cast %arg1 : memref<32x64xf16>
// CHECK: memref.reinterpret_cast %{{.*}} sizes: [1792, 64]
// CHECK: call @amp_rt_matmul_f16(
func.func @merged_rows(%a: memref<64x28x32xf16>, %b: memref<32x64xf16>, %c: memref<64x28x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x28x32xf16>, memref<32x64xf16>) outs(%c : memref<64x28x64xf32>) {
  ^bb0(%x: f16, %y: f16, %acc: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : f16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

// Rows that are two loops A lays out apart (A is [tokens, batch,
// features]) cannot be one dimension: the batch loop becomes the GEMM's
// batch (A's outer dimension, so A is passed as it is) and B, which does
// not use it, is read with a batch stride of 0.
// CHECK-LABEL: func.func @shared_operand
// CHECK: %[[A:.*]] = memref.cast %arg0 : memref<5x4x6xf32>
// CHECK: %[[B:.*]] = memref.reinterpret_cast %{{.*}} sizes: [5, 6, 7], strides: [0, %{{.*}}#0, %{{.*}}#1]
// CHECK: %[[C:.*]] = memref.reinterpret_cast %{{.*}} sizes: [5, 4, 7], strides: [%{{.*}}#1, %{{.*}}#0, %{{.*}}#2]
// CHECK: call @amp_rt_batch_matmul_f32(%[[A]], %[[B]], %[[C]])
func.func @shared_operand(%a: memref<5x4x6xf32>, %b: memref<6x7xf32>, %c: memref<4x5x7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<5x4x6xf32>, memref<6x7xf32>) outs(%c : memref<4x5x7xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

// Not matrix products, so never GEMMs and no error even with require-all:
// a batched dot product (m and n of extent 1), and a body that is not
// out + a * b (an exp on the way).
// CHECK-LABEL: func.func @reductions
// CHECK-NOT: call
// CHECK-COUNT-2: linalg.generic
func.func @reductions(%a: memref<64x28x32xf32>, %b: memref<64x28x32xf32>, %c: memref<64x28xf32>,
                      %x: memref<4x8xf32>, %y: memref<8x3xf32>, %z: memref<4x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<64x28x32xf32>, memref<64x28x32xf32>) outs(%c : memref<64x28xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = arith.mulf %p, %q : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%z : memref<4x3xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %0 = math.exp %p : f32
    %1 = arith.mulf %0, %q : f32
    %2 = arith.addf %acc, %1 : f32
    linalg.yield %2 : f32
  }
  return
}

// -----

// A convolution (forward or either backward form) is a call of libamprt's
// oneDNN convolution with its strides and dilations; the CUDA runtime has
// none, so there it stays a loop nest.
// CHECK-LABEL: func.func @convolution
// CHECK-DAG: %[[IN:.*]] = memref.cast %arg0 : memref<2x9x11x3xbf16> to memref<?x?x?x?xbf16, strided<[?, ?, ?, ?], offset: ?>>
// CHECK-DAG: %[[W:.*]] = memref.cast %arg1 : memref<4x3x3x3xbf16> to memref<?x?x?x?xbf16, strided<[?, ?, ?, ?], offset: ?>>
// CHECK-DAG: %[[OUT:.*]] = memref.cast %arg2 : memref<2x3x4x4xf32> to memref<?x?x?x?xf32, strided<[?, ?, ?, ?], offset: ?>>
// CHECK: %[[SH:.*]] = arith.constant 2 : i64
// CHECK: %[[SW:.*]] = arith.constant 2 : i64
// CHECK: %[[DH:.*]] = arith.constant 1 : i64
// CHECK: %[[DW:.*]] = arith.constant 2 : i64
// CHECK-COUNT-4: arith.constant 0 : i64
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_bf16(%[[IN]], %[[W]], %[[OUT]], %[[SH]], %[[SW]], %[[DH]], %[[DW]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
// CHECK-NOT: linalg.conv_2d_nhwc_fhwc
// CUDA-LABEL: func.func @convolution
// CUDA: linalg.conv_2d_nhwc_fhwc
func.func @convolution(%in: memref<2x9x11x3xbf16>, %w: memref<4x3x3x3xbf16>, %out: memref<2x3x4x4xf32>) {
  linalg.conv_2d_nhwc_fhwc {strides = dense<2> : tensor<2xi64>, dilations = dense<[1, 2]> : tensor<2xi64>}
      ins(%in, %w : memref<2x9x11x3xbf16>, memref<4x3x3x3xbf16>) outs(%out : memref<2x3x4x4xf32>)
  return
}

// -----

// An NCHW convolution (what torch-mlir emits) is the same call on views
// that put the channels last: only strides change, nothing is copied.
// CHECK-LABEL: func.func @convolution_nchw
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %[[SIZES:.*]]:4, %[[STRIDES:.*]]:4 = memref.extract_strided_metadata %arg0
// CHECK: %[[IN:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [2, 9, 11, 3], strides: [%[[STRIDES]]#0, %[[STRIDES]]#2, %[[STRIDES]]#3, %[[STRIDES]]#1]
// CHECK-COUNT-2: memref.reinterpret_cast {{.*}} sizes: [{{.*}}], strides: [%{{.*}}#0, %{{.*}}#2, %{{.*}}#3, %{{.*}}#1]
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(%[[IN]],
// CHECK-NOT: linalg.conv_2d_nchw_fchw
func.func @convolution_nchw(%in: memref<2x3x9x11xf32>, %w: memref<4x3x3x3xf32>, %out: memref<2x4x4x5xf32>) {
  linalg.conv_2d_nchw_fchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<2x3x9x11xf32>, memref<4x3x3x3xf32>) outs(%out : memref<2x4x4x5xf32>)
  return
}

// -----

// A zero-padded input (tensor.pad bufferized: a buffer of zeros, the
// values copied into its interior) is read unpadded, the call pads it
// (top, left, bottom, right), and the padded copy is gone.
// CHECK-LABEL: func.func @padded_input
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}:4, %{{.*}}:4 = memref.extract_strided_metadata %arg0
// CHECK: %[[IN:.*]] = memref.reinterpret_cast %[[BASE]] {{.*}} sizes: [2, 6, 7, 3]
// CHECK-COUNT-4: arith.constant 1 : i64
// CHECK: %[[TOP:.*]] = arith.constant 1 : i64
// CHECK: %[[LEFT:.*]] = arith.constant 2 : i64
// CHECK: %[[BOTTOM:.*]] = arith.constant 3 : i64
// CHECK: %[[RIGHT:.*]] = arith.constant 0 : i64
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(%[[IN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[TOP]], %[[LEFT]], %[[BOTTOM]], %[[RIGHT]])
// CHECK-NOT: memref.copy
// CHECK: return
func.func @padded_input(%x: memref<2x3x6x7xf32>, %w: memref<4x3x3x3xf32>, %out: memref<2x4x8x7xf32>) {
  %zero = arith.constant 0.0 : f32
  %padded = memref.alloc() : memref<2x3x10x9xf32>
  linalg.map outs(%padded : memref<2x3x10x9xf32>) (%init: f32) {
    linalg.yield %zero : f32
  }
  %interior = memref.subview %padded[0, 0, 1, 2] [2, 3, 6, 7] [1, 1, 1, 1] : memref<2x3x10x9xf32> to memref<2x3x6x7xf32, strided<[270, 90, 9, 1], offset: 11>>
  memref.copy %x, %interior : memref<2x3x6x7xf32> to memref<2x3x6x7xf32, strided<[270, 90, 9, 1], offset: 11>>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%padded, %w : memref<2x3x10x9xf32>, memref<4x3x3x3xf32>) outs(%out : memref<2x4x8x7xf32>)
  return
}

// Where the copied buffer is written between the copy and the
// convolution, the call reads the padded buffer's interior, and the copy
// stays (the fill, whose zeros no one reads, goes).
// CHECK-LABEL: func.func @padded_source_overwritten
// CHECK: %[[PADDED:.*]] = memref.alloc() : memref<1x2x6x6xf32>
// CHECK-NOT: linalg.fill
// CHECK: %[[INTERIOR:.*]] = memref.subview %[[PADDED]][0, 0, 1, 1] [1, 2, 4, 4]
// CHECK: memref.copy %arg0, %[[INTERIOR]]
// CHECK: linalg.fill {{.*}} outs(%arg0
// CHECK: memref.extract_strided_metadata %[[INTERIOR]]
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(
func.func @padded_source_overwritten(%x: memref<1x2x4x4xf32>, %w: memref<2x2x3x3xf32>, %out: memref<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %padded = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%padded : memref<1x2x6x6xf32>)
  %interior = memref.subview %padded[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %x, %interior : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  linalg.fill ins(%one : f32) outs(%x : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%padded, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out : memref<1x2x4x4xf32>)
  return
}

// Padding the call cannot take stays a copy: padded channels, a border of
// ones, a padded buffer another op reads as well.
// CHECK-LABEL: func.func @padding_kept
// CHECK: linalg.fill
// CHECK: memref.copy %arg0
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32({{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}})
// CHECK: linalg.fill
// CHECK: memref.copy %arg0
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32({{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}})
// CHECK: linalg.fill
// CHECK: memref.copy %arg0
// CHECK: memref.copy %{{.*}}, %arg5
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32({{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}}, %c0_i64{{.*}})
func.func @padding_kept(%x: memref<1x2x4x4xf32>, %w: memref<2x4x3x3xf32>, %w2: memref<2x2x3x3xf32>,
                        %out: memref<1x2x2x2xf32>, %out2: memref<1x2x4x4xf32>, %sum: memref<1x2x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %channels = memref.alloc() : memref<1x4x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%channels : memref<1x4x4x4xf32>)
  %c = memref.subview %channels[0, 1, 0, 0] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x4x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: 16>>
  memref.copy %x, %c : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[64, 16, 4, 1], offset: 16>>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%channels, %w : memref<1x4x4x4xf32>, memref<2x4x3x3xf32>) outs(%out : memref<1x2x2x2xf32>)
  %ones = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%ones : memref<1x2x6x6xf32>)
  %o = memref.subview %ones[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %x, %o : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%ones, %w2 : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out2 : memref<1x2x4x4xf32>)
  %shared = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%zero : f32) outs(%shared : memref<1x2x6x6xf32>)
  %s = memref.subview %shared[0, 0, 1, 1] [1, 2, 4, 4] [1, 1, 1, 1] : memref<1x2x6x6xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %x, %s : memref<1x2x4x4xf32> to memref<1x2x4x4xf32, strided<[72, 36, 6, 1], offset: 7>>
  memref.copy %shared, %sum : memref<1x2x6x6xf32> to memref<1x2x6x6xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%shared, %w2 : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out2 : memref<1x2x4x4xf32>)
  return
}

// -----

// A grouped convolution is one call of the grouped convolution (G plain
// ones in the runtime); a depthwise one is grouped with one channel and one
// filter per group, its operands given unit dimensions by views.
// CHECK-LABEL: func.func @grouped
// CHECK: %[[IN:.*]] = memref.cast %arg0 : memref<2x4x3x9x9xbf16> to memref<?x?x?x?x?xbf16, strided<[?, ?, ?, ?, ?], offset: ?>>
// CHECK: call @amp_rt_conv2d_ngchw_gfchw_bf16(%[[IN]],
// CHECK-NOT: linalg.conv_2d_ngchw_gfchw
func.func @grouped(%in: memref<2x4x3x9x9xbf16>, %w: memref<4x5x3x3x3xbf16>, %out: memref<2x4x5x7x7xf32>) {
  linalg.conv_2d_ngchw_gfchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<2x4x3x9x9xbf16>, memref<4x5x3x3x3xbf16>) outs(%out : memref<2x4x5x7x7xf32>)
  return
}
// CHECK-LABEL: func.func @depthwise
// CHECK: memref.reinterpret_cast {{.*}} sizes: [2, 6, 1, 9, 9], strides: [%{{.*}}#0, %{{.*}}#1, 1, %{{.*}}#2, %{{.*}}#3]
// CHECK: memref.reinterpret_cast {{.*}} sizes: [6, 1, 1, 3, 3], strides: [%{{.*}}#0, 1, 1, %{{.*}}#1, %{{.*}}#2]
// CHECK: memref.reinterpret_cast {{.*}} sizes: [2, 6, 1, 4, 4], strides: [%{{.*}}#0, %{{.*}}#1, 1, %{{.*}}#2, %{{.*}}#3]
// CHECK: call @amp_rt_conv2d_ngchw_gfchw_f32(
// CHECK-NOT: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise(%in: memref<2x6x9x9xf32>, %w: memref<6x3x3xf32>, %out: memref<2x6x4x4xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%in, %w : memref<2x6x9x9xf32>, memref<6x3x3xf32>) outs(%out : memref<2x6x4x4xf32>)
  return
}

// -----

// A GEMM into a buffer just filled with zeros overwrites it instead
// (beta 0 on cuBLASLt, no sum post-op on oneDNN): the fill is gone. Ops in
// between that do not touch the buffer do not matter.
// CHECK-LABEL: func.func @zero_fill_then_gemm
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%alloc
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg4 : memref<4xf32>)
// CHECK-NOT: linalg.fill
// CHECK: call @amp_rt_matmul_overwrite_f32(
// CHECK-NOT: linalg.fill
// CHECK: call @amp_rt_batch_matmul_overwrite_f16(
// CHECK-NOT: linalg.fill
// CHECK: call @amp_rt_matmul_overwrite_f32(
// CHECK-NOT: linalg.fill
// CHECK: return
// CUDA-LABEL: func.func @zero_fill_then_gemm
// CUDA: call @amp_rt_cuda_matmul_overwrite_f32(
// CUDA: call @amp_rt_cuda_batch_matmul_overwrite_f16(
// CUDA: call @amp_rt_cuda_matmul_overwrite_f32(
func.func @zero_fill_then_gemm(%x: memref<4x8xf32>, %y: memref<8x3xf32>, %a: memref<2x4x8xf16>, %b: memref<2x8x3xf16>, %other: memref<4xf32>, %flat: memref<12xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %z = memref.alloc() : memref<4x3xf32>
  linalg.fill ins(%zero : f32) outs(%z : memref<4x3xf32>)
  linalg.fill ins(%one : f32) outs(%other : memref<4xf32>)
  linalg.matmul ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%z : memref<4x3xf32>)
  %c = memref.alloc() : memref<2x4x3xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x4x3xf32>)
  linalg.batch_matmul ins(%a, %b : memref<2x4x8xf16>, memref<2x8x3xf16>) outs(%c : memref<2x4x3xf32>)
  // The fill and the GEMM see the same whole buffer through a reshape.
  linalg.fill ins(%zero : f32) outs(%flat : memref<12xf32>)
  %view = memref.expand_shape %flat [[0, 1]] output_shape [4, 3] : memref<12xf32> into memref<4x3xf32>
  linalg.matmul ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%view : memref<4x3xf32>)
  return
}

// -----

// The fill stays, and the GEMM accumulates, when the fill is not zero,
// when something reads the buffer in between, or when the GEMM writes only
// part of the buffer the fill zeroes (the rest must stay zero).
// CHECK-LABEL: func.func @fills_that_stay
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[Z1:.*]] :
// CHECK: call @amp_rt_matmul_f32(
// CHECK: linalg.fill
// CHECK: memref.load
// CHECK: call @amp_rt_matmul_f32(
// CHECK: linalg.fill
// CHECK: call @amp_rt_matmul_f32(
// CHECK-NOT: matmul_overwrite
func.func @fills_that_stay(%x: memref<4x8xf32>, %y: memref<8x3xf32>, %z1: memref<4x3xf32>, %z2: memref<4x3xf32>, %z3: memref<24xf32>, %s: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : index
  linalg.fill ins(%half : f32) outs(%z1 : memref<4x3xf32>)
  linalg.matmul ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%z1 : memref<4x3xf32>)
  linalg.fill ins(%zero : f32) outs(%z2 : memref<4x3xf32>)
  %v = memref.load %z2[%c0, %c0] : memref<4x3xf32>
  memref.store %v, %s[] : memref<f32>
  linalg.matmul ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%z2 : memref<4x3xf32>)
  linalg.fill ins(%zero : f32) outs(%z3 : memref<24xf32>)
  %half_of_z3 = memref.subview %z3[0] [12] [1] : memref<24xf32> to memref<12xf32, strided<[1]>>
  %view = memref.expand_shape %half_of_z3 [[0, 1]] output_shape [4, 3] : memref<12xf32, strided<[1]>> into memref<4x3xf32>
  linalg.matmul ins(%x, %y : memref<4x8xf32>, memref<8x3xf32>) outs(%view : memref<4x3xf32>)
  return
}

// -----

// A convolution into zeros overwrites its output (the `_overwrite_` call): zeros
// filled into the output itself, or copied from a buffer of zeros that
// several convolutions share (one zero tensor, bufferized). The fill goes,
// each copy goes, and the shared zeros go with the last copy. Zeros an
// input reads, and ones, stay.
// CHECK-LABEL: func.func @convolution_into_zeros
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%arg5
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(
// CUDA-LABEL: func.func @convolution_into_zeros
// CUDA-COUNT-4: linalg.conv_2d_nchw_fchw
func.func @convolution_into_zeros(%x: memref<1x2x6x6xf32>, %w: memref<2x2x3x3xf32>,
                                  %out: memref<1x2x4x4xf32>, %out2: memref<1x2x4x4xf32>,
                                  %out3: memref<1x2x4x4xf32>, %out4: memref<1x2x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%zero : f32) outs(%out : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out : memref<1x2x4x4xf32>)
  %zeros = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%zeros : memref<1x2x4x4xf32>)
  memref.copy %zeros, %out2 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out2 : memref<1x2x4x4xf32>)
  memref.copy %zeros, %out3 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out3 : memref<1x2x4x4xf32>)
  linalg.fill ins(%one : f32) outs(%out4 : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out4 : memref<1x2x4x4xf32>)
  return
}

// -----

// A data gradient's filter: the weights flipped in H and W into a buffer
// that convolutions read through a transposed view. The convolution reads
// its taps in reverse order (the `_reversed_` call), so the copy is made in
// order, and, as it copies the weights whole and nothing writes them
// before the convolution, the call reads the weights themselves.
// CHECK-LABEL: func.func @reversed_filter_copy
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.generic
// CHECK: %[[VIEW:.*]] = memref.transpose %arg0 (d0, d1, d2, d3) -> (d1, d0, d2, d3)
// CHECK: %[[FILTER:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%{{.*}}], sizes: [4, 3, 3, 8]
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_reversed_f32(%{{.*}}, %[[FILTER]],
// CHECK-NOT: linalg.generic
// CUDA-LABEL: func.func @reversed_filter_copy
// CUDA: linalg.generic
// CUDA: linalg.conv_2d_nchw_fchw
func.func @reversed_filter_copy(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xf32>, %dx: memref<2x4x4x4xf32>) {
  %flipped = memref.alloc() : memref<8x4x3x3xf32>
  %view = memref.transpose %flipped (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xf32> to memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 2 - d2, 2 - d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%flipped : memref<8x4x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %view : memref<2x8x6x6xf32>, memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>) outs(%dx : memref<2x4x4x4xf32>)
  return
}

// -----

// In a mixed-precision step the flipped copy converts too: it stays, in
// order (a contiguous loop), and both convolutions reading it reverse
// their taps; the zero-filled output is overwritten.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @reversed_converting_copy
// CHECK: %[[LOW:.*]] = memref.alloc() : memref<8x4x3x3xbf16>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]]
// CHECK-SAME: ins(%arg0 : memref<8x4x3x3xf32>) outs(%[[LOW]] :
// CHECK: arith.truncf
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_reversed_overwrite_bf16(
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_reversed_bf16(
func.func @reversed_converting_copy(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xbf16>,
                                    %dx: memref<2x4x4x4xf32>, %dx2: memref<2x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %flipped = memref.alloc() : memref<8x4x3x3xbf16>
  %view = memref.transpose %flipped (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xbf16> to memref<4x8x3x3xbf16, strided<[9, 36, 3, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 2 - d2, 2 - d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%flipped : memref<8x4x3x3xbf16>) {
  ^bb0(%x: f32, %out: bf16):
    %y = arith.truncf %x : f32 to bf16
    linalg.yield %y : bf16
  }
  linalg.fill ins(%zero : f32) outs(%dx : memref<2x4x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %view : memref<2x8x6x6xbf16>, memref<4x8x3x3xbf16, strided<[9, 36, 3, 1]>>) outs(%dx : memref<2x4x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %view : memref<2x8x6x6xbf16>, memref<4x8x3x3xbf16, strided<[9, 36, 3, 1]>>) outs(%dx2 : memref<2x4x4x4xf32>)
  return
}

// -----

// The weights written between the copy and the convolution: the copy
// stays (in order), and the call reads it.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @reversed_copy_of_written_weights
// CHECK: %[[COPY:.*]] = memref.alloc() : memref<8x4x3x3xf32>
// CHECK: memref.transpose %[[COPY]]
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]]]
// CHECK: linalg.fill {{.*}} outs(%arg0 :
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_reversed_f32(
func.func @reversed_copy_of_written_weights(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xf32>, %dx: memref<2x4x4x4xf32>) {
  %one = arith.constant 1.0 : f32
  %flipped = memref.alloc() : memref<8x4x3x3xf32>
  %view = memref.transpose %flipped (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xf32> to memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 2 - d2, 2 - d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%flipped : memref<8x4x3x3xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  }
  linalg.fill ins(%one : f32) outs(%w : memref<8x4x3x3xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %view : memref<2x8x6x6xf32>, memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>) outs(%dx : memref<2x4x4x4xf32>)
  return
}

// -----

// Copies left as they are, read by calls that do not reverse: one also
// read by a loop nest, one that reverses a channel dimension instead of a
// tap, and one read as a convolution's input.
// CHECK-DAG: #[[FLIP:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, -d2 + 2, -d3 + 2)>
// CHECK-DAG: #[[FLIPC:.*]] = affine_map<(d0, d1, d2, d3) -> (-d0 + 7, d1, d2, d3)>
// CHECK-LABEL: func.func @reversed_copies_left_alone
// CHECK: linalg.generic {indexing_maps = [#[[FLIP]],
// CHECK: linalg.generic {indexing_maps = [#[[FLIPC]],
// CHECK: linalg.generic {indexing_maps = [#[[FLIP]],
// CHECK-NOT: _reversed
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_f32(
// CHECK-NOT: _reversed
func.func @reversed_copies_left_alone(%w: memref<8x4x3x3xf32>, %dy: memref<2x8x6x6xf32>, %dx: memref<2x4x4x4xf32>,
                                      %sum: memref<8x4x3x3xf32>, %y: memref<8x8x1x1xf32>) {
  %a = memref.alloc() : memref<8x4x3x3xf32>
  %b = memref.alloc() : memref<8x4x3x3xf32>
  %c = memref.alloc() : memref<8x4x3x3xf32>
  %va = memref.transpose %a (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xf32> to memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>
  %vb = memref.transpose %b (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<8x4x3x3xf32> to memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 2 - d2, 2 - d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%a : memref<8x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (7 - d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%b : memref<8x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 2 - d2, 2 - d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%w : memref<8x4x3x3xf32>) outs(%c : memref<8x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %va : memref<2x8x6x6xf32>, memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>) outs(%dx : memref<2x4x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : memref<8x4x3x3xf32>) outs(%sum : memref<8x4x3x3xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%dy, %vb : memref<2x8x6x6xf32>, memref<4x8x3x3xf32, strided<[9, 36, 3, 1]>>) outs(%dx : memref<2x4x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%c, %w : memref<8x4x3x3xf32>, memref<8x4x3x3xf32>) outs(%y : memref<8x8x1x1xf32>)
  return
}

// -----

// Zeros an out-parameter holds (bufferization reuses it for the zero
// tensor of two weight gradients), copied into a transposed view of each
// gradient's buffer: where the zeros come from is decided before any call
// is made (a call may touch an argument), and past the other copies of
// the same zeros. Both convolutions overwrite; the copies go, the fill of
// the out-parameter stays.
// CHECK-LABEL: func.func @zeros_in_an_argument
// CHECK: linalg.fill {{.*}} outs(%arg2 :
// CHECK-NOT: memref.copy
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK-NOT: memref.copy
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK-NEXT: memref.copy %{{.*}}, %arg3
// CHECK-NEXT: memref.copy %{{.*}}, %arg4
func.func @zeros_in_an_argument(%x: memref<4x2x6x6xf32>, %dy: memref<8x2x4x4xf32>, %zeros: memref<8x4x3x3xf32>,
                                %g1: memref<8x4x3x3xf32>, %g2: memref<8x4x3x3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%zeros : memref<8x4x3x3xf32>)
  %a = memref.alloc() : memref<4x8x3x3xf32>
  %va = memref.transpose %a (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<4x8x3x3xf32> to memref<8x4x3x3xf32, strided<[9, 72, 3, 1]>>
  memref.copy %zeros, %va : memref<8x4x3x3xf32> to memref<8x4x3x3xf32, strided<[9, 72, 3, 1]>>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %dy : memref<4x2x6x6xf32>, memref<8x2x4x4xf32>) outs(%a : memref<4x8x3x3xf32>)
  %b = memref.alloc() : memref<4x8x3x3xf32>
  %vb = memref.transpose %b (d0, d1, d2, d3) -> (d1, d0, d2, d3) : memref<4x8x3x3xf32> to memref<8x4x3x3xf32, strided<[9, 72, 3, 1]>>
  memref.copy %zeros, %vb : memref<8x4x3x3xf32> to memref<8x4x3x3xf32, strided<[9, 72, 3, 1]>>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %dy : memref<4x2x6x6xf32>, memref<8x2x4x4xf32>) outs(%b : memref<4x8x3x3xf32>)
  memref.copy %va, %g1 : memref<8x4x3x3xf32, strided<[9, 72, 3, 1]>> to memref<8x4x3x3xf32>
  memref.copy %vb, %g2 : memref<8x4x3x3xf32, strided<[9, 72, 3, 1]>> to memref<8x4x3x3xf32>
  return
}

// -----

// One zero tensor for three convolutions, bufferized: copied into the
// first two outputs, then accumulated into in place by the third. All
// three overwrite; the fill goes once no copy reads it. Below, a copy
// whose target a loop nest reads stays, and so does the fill it copies.
// CHECK-LABEL: func.func @shared_zeros_accumulated_in_place
// CHECK-NOT: linalg.fill
// CHECK-NOT: memref.copy
// CHECK-COUNT-3: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK-NOT: linalg.fill
// CHECK-LABEL: func.func @shared_zeros_still_read
// CHECK: linalg.fill
// CHECK: memref.copy %[[ZEROS:.*]], %[[KEPT:.*]] :
// CHECK: call @amp_rt_conv2d_nhwc_fhwc_overwrite_f32(
// CHECK: linalg.generic {{.*}} ins(%[[KEPT]] :
func.func @shared_zeros_accumulated_in_place(%x: memref<1x2x6x6xf32>, %w: memref<2x2x3x3xf32>,
                                             %out1: memref<1x2x4x4xf32>, %out2: memref<1x2x4x4xf32>)
    -> memref<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %zeros = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%zeros : memref<1x2x4x4xf32>)
  memref.copy %zeros, %out1 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out1 : memref<1x2x4x4xf32>)
  memref.copy %zeros, %out2 : memref<1x2x4x4xf32> to memref<1x2x4x4xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%out2 : memref<1x2x4x4xf32>)
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%zeros : memref<1x2x4x4xf32>)
  return %zeros : memref<1x2x4x4xf32>
}
func.func @shared_zeros_still_read(%x: memref<1x2x6x6xf32>, %w: memref<2x2x3x3xf32>,
                                   %sum: memref<1x2x4x4xf32>) -> memref<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %zeros = memref.alloc() : memref<1x2x4x4xf32>
  %kept = memref.alloc() : memref<1x2x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%zeros : memref<1x2x4x4xf32>)
  memref.copy %zeros, %kept : memref<1x2x4x4xf32> to memref<1x2x4x4xf32>
  linalg.conv_2d_nchw_fchw {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%x, %w : memref<1x2x6x6xf32>, memref<2x2x3x3xf32>) outs(%zeros : memref<1x2x4x4xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%kept : memref<1x2x4x4xf32>) outs(%sum : memref<1x2x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  }
  return %zeros : memref<1x2x4x4xf32>
}

// -----

// cuBLASLt reads a matrix whose rows or columns are contiguous, plainly or
// transposed (%a_t: columns contiguous, read as is); the CUDA path copies
// one that has neither (%a: every other column of every other row) into a
// dense buffer on the device first, and computes a C that has neither in a
// dense buffer that it copies back (in first, since the GEMM accumulates),
// so the runtime never gathers through the host. The CPU's GEMMs take any
// strides.
// CHECK-LABEL: func.func @unreadable_layouts
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: return
// CUDA-LABEL: func.func @unreadable_layouts
// CUDA-SAME: (%[[A:.*]]: memref<8x16xf32, strided<[64, 2]>>, %[[AT:.*]]: memref<8x16xf32, strided<[1, 8]>>, %[[B:.*]]: memref<16x4xf32>, %[[C:.*]]: memref<8x4xf32>, %[[CS:.*]]: memref<8x4xf32, strided<[16, 4]>>)
// CUDA: %[[DA:.*]] = memref.alloc() : memref<8x16xf32>
// CUDA: memref.copy %[[A]], %[[DA]]
// CUDA: %[[VA:.*]] = memref.cast %[[DA]]
// CUDA: call @amp_rt_cuda_matmul_f32(%[[VA]],
// CUDA-NOT: memref.alloc
// CUDA: %[[VAT:.*]] = memref.cast %[[AT]]
// CUDA: call @amp_rt_cuda_matmul_f32(%[[VAT]],
// CUDA: %[[DC:.*]] = memref.alloc() : memref<8x4xf32>
// CUDA: memref.copy %[[CS]], %[[DC]]
// CUDA: call @amp_rt_cuda_matmul_f32(
// CUDA-NEXT: memref.copy %[[DC]], %[[CS]]
// CUDA-NOT: memref.copy
// CUDA: return
func.func @unreadable_layouts(%a: memref<8x16xf32, strided<[64, 2]>>,
                              %a_t: memref<8x16xf32, strided<[1, 8]>>,
                              %b: memref<16x4xf32>, %c: memref<8x4xf32>,
                              %c_s: memref<8x4xf32, strided<[16, 4]>>) {
  linalg.matmul ins(%a, %b : memref<8x16xf32, strided<[64, 2]>>, memref<16x4xf32>)
                outs(%c : memref<8x4xf32>)
  linalg.matmul ins(%a_t, %b : memref<8x16xf32, strided<[1, 8]>>, memref<16x4xf32>)
                outs(%c : memref<8x4xf32>)
  linalg.matmul ins(%a_t, %b : memref<8x16xf32, strided<[1, 8]>>, memref<16x4xf32>)
                outs(%c_s : memref<8x4xf32, strided<[16, 4]>>)
  return
}
