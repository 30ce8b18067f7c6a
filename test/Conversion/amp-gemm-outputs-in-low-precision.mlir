// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls=runtime=cuda --amp-gemm-outputs-in-low-precision | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls --amp-gemm-outputs-in-low-precision | FileCheck %s --check-prefix=CPU

// A projection whose f32 product is only cast to f16 (reshaped on the way):
// the GEMM writes the cast's buffer in f16, at the product's offsets and
// strides; the f32 buffer, the cast and the f32 GEMM's declaration go.
// CHECK-NOT: func.func private @amp_rt_cuda_matmul_overwrite_f16(
// CHECK-LABEL: func.func @projection
// CHECK-SAME: (%[[A:.*]]: memref<64x32xf16>, %[[B:.*]]: memref<32x96xf16>
// CHECK: %[[OUT:.*]] = memref.alloc(){{.*}}: memref<2x32x96xf16>
// CHECK: %[[VIEW:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [64, 96], strides: [96, 1] : memref<2x32x96xf16> to memref<64x96xf16, strided<[96, 1]>>
// CHECK: %[[C:.*]] = memref.cast %[[VIEW]] : memref<64x96xf16, strided<[96, 1]>> to memref<?x?xf16, strided<[?, ?], offset: ?>>
// CHECK: call @amp_rt_cuda_matmul_overwrite_f16_to_f16({{.*}}, {{.*}}, %[[C]])
// CHECK-NOT: linalg.generic
// CHECK-NOT: xf32>
// CHECK: return %[[OUT]]
// CPU-LABEL: func.func @projection
// CPU: call @amp_rt_matmul_overwrite_f16_to_f16(
// CPU-NOT: linalg.generic
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @projection(%a: memref<64x32xf16>, %b: memref<32x96xf16>) -> memref<2x32x96xf16> {
  %zero = arith.constant 0.0 : f32
  %product = memref.alloc() : memref<64x96xf32>
  linalg.fill ins(%zero : f32) outs(%product : memref<64x96xf32>)
  linalg.matmul ins(%a, %b : memref<64x32xf16>, memref<32x96xf16>) outs(%product : memref<64x96xf32>)
  %heads = memref.expand_shape %product [[0, 1], [2]] output_shape [2, 32, 96] : memref<64x96xf32> into memref<2x32x96xf32>
  %out = memref.alloc() : memref<2x32x96xf16>
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%heads : memref<2x32x96xf32>) outs(%out : memref<2x32x96xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return %out : memref<2x32x96xf16>
}

// -----

// Batched bf16 into the function's own buffer: the batched bf16 GEMM.
// CHECK-LABEL: func.func @attention
// CPU-LABEL: func.func @attention
// CHECK: call @amp_rt_cuda_batch_matmul_overwrite_bf16_to_bf16(
// CHECK-NOT: linalg.generic
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @attention(%q: memref<4x8x16xbf16>, %k: memref<4x16x8xbf16>, %out: memref<4x8x8xbf16>) {
  %zero = arith.constant 0.0 : f32
  %scores = memref.alloc() : memref<4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%scores : memref<4x8x8xf32>)
  linalg.batch_matmul ins(%q, %k : memref<4x8x16xbf16>, memref<4x16x8xbf16>) outs(%scores : memref<4x8x8xf32>)
  linalg.generic {indexing_maps = [#id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%scores : memref<4x8x8xf32>) outs(%out : memref<4x8x8xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  return
}

// -----

// The f32 product is read again (a bias gradient), so it must exist: the
// f32 GEMM and the cast stay.
// CHECK-LABEL: func.func @product_read_twice
// CHECK: call @amp_rt_cuda_matmul_overwrite_f16(
// CHECK: linalg.generic
// CHECK: arith.truncf
// CHECK: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @product_read_twice(%a: memref<8x4xf16>, %b: memref<4x6xf16>, %out: memref<8x6xf16>, %sum: memref<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %product = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%product : memref<8x6xf32>)
  linalg.matmul ins(%a, %b : memref<8x4xf16>, memref<4x6xf16>) outs(%product : memref<8x6xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%product : memref<8x6xf32>) outs(%out : memref<8x6xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["reduction", "parallel"]}
      ins(%product : memref<8x6xf32>) outs(%sum : memref<6xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// The cast's output is read between the GEMM and the cast: writing it
// earlier would change what that read sees.
// CHECK-LABEL: func.func @output_read_before_cast
// CHECK: call @amp_rt_cuda_matmul_overwrite_f16(
// CHECK: memref.copy
// CHECK: arith.truncf
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @output_read_before_cast(%a: memref<8x4xf16>, %b: memref<4x6xf16>, %out: memref<8x6xf16>, %saved: memref<8x6xf16>) {
  %zero = arith.constant 0.0 : f32
  %product = memref.alloc() : memref<8x6xf32>
  linalg.fill ins(%zero : f32) outs(%product : memref<8x6xf32>)
  linalg.matmul ins(%a, %b : memref<8x4xf16>, memref<4x6xf16>) outs(%product : memref<8x6xf32>)
  memref.copy %out, %saved : memref<8x6xf16> to memref<8x6xf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%product : memref<8x6xf32>) outs(%out : memref<8x6xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}

// -----

// Not a plain cast: a transposing one, one into another type than the
// inputs', one that scales, and a GEMM that accumulates (C is read).
// CHECK-LABEL: func.func @not_plain_casts
// CHECK-NOT: _to_
// CHECK-COUNT-4: arith.truncf
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
func.func @not_plain_casts(%a: memref<8x4xf16>, %b: memref<4x8xf16>, %t: memref<8x8xf16>,
                           %x: memref<8x4xbf16>, %y: memref<4x8xbf16>, %f: memref<8x8xf16>,
                           %s: memref<8x8xf16>, %acc: memref<8x8xf32>, %u: memref<8x8xf16>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %p1 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%p1 : memref<8x8xf32>)
  linalg.matmul ins(%a, %b : memref<8x4xf16>, memref<4x8xf16>) outs(%p1 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#tr, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p1 : memref<8x8xf32>) outs(%t : memref<8x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  }
  %p2 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%p2 : memref<8x8xf32>)
  linalg.matmul ins(%x, %y : memref<8x4xbf16>, memref<4x8xbf16>) outs(%p2 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p2 : memref<8x8xf32>) outs(%f : memref<8x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  }
  %p3 = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%p3 : memref<8x8xf32>)
  linalg.matmul ins(%a, %b : memref<8x4xf16>, memref<4x8xf16>) outs(%p3 : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%p3 : memref<8x8xf32>) outs(%s : memref<8x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %m = arith.mulf %in, %two : f32
    %v = arith.truncf %m : f32 to f16
    linalg.yield %v : f16
  }
  linalg.matmul ins(%a, %b : memref<8x4xf16>, memref<4x8xf16>) outs(%acc : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%acc : memref<8x8xf32>) outs(%u : memref<8x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %v = arith.truncf %in : f32 to f16
    linalg.yield %v : f16
  }
  return
}

// -----

// The cast writes over the GEMM's own operand: the GEMM cannot write it
// while reading it.
// CHECK-LABEL: func.func @output_is_an_operand
// CHECK: call @amp_rt_cuda_matmul_overwrite_f16(
// CHECK: arith.truncf
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @output_is_an_operand(%a: memref<8x8xf16>, %b: memref<8x8xf16>) {
  %zero = arith.constant 0.0 : f32
  %product = memref.alloc() : memref<8x8xf32>
  linalg.fill ins(%zero : f32) outs(%product : memref<8x8xf32>)
  linalg.matmul ins(%a, %b : memref<8x8xf16>, memref<8x8xf16>) outs(%product : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%product : memref<8x8xf32>) outs(%a : memref<8x8xf16>) {
  ^bb0(%in: f32, %o: f16):
    %t = arith.truncf %in : f32 to f16
    linalg.yield %t : f16
  }
  return
}
