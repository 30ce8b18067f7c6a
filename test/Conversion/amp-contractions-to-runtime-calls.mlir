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

// Left alone: tensors (before bufferization), f16 accumulators, transposed
// maps.
// CHECK-LABEL: func.func @not_converted
// CHECK-NOT: call
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x8xf32>, tensor<8x3xf32>)
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : memref<4x8xf16>, memref<8x3xf16>) outs(%{{.*}} : memref<4x3xf16>)
// CHECK: linalg.matmul indexing_maps
func.func @not_converted(%x: tensor<4x8xf32>, %y: tensor<8x3xf32>, %z: tensor<4x3xf32>,
                         %h: memref<4x8xf16>, %k: memref<8x3xf16>, %o: memref<4x3xf16>,
                         %t: memref<8x4xf32>, %u: memref<8x3xf32>, %v: memref<4x3xf32>) -> tensor<4x3xf32> {
  %r = linalg.matmul ins(%x, %y : tensor<4x8xf32>, tensor<8x3xf32>) outs(%z : tensor<4x3xf32>) -> tensor<4x3xf32>
  linalg.matmul ins(%h, %k : memref<4x8xf16>, memref<8x3xf16>) outs(%o : memref<4x3xf16>)
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%t, %u : memref<8x4xf32>, memref<8x3xf32>) outs(%v : memref<4x3xf32>)
  return %r : tensor<4x3xf32>
}
