// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls=round-operands=false | FileCheck %s --check-prefix=KEPT
// RUN: amp-opt %s --split-input-file --amp-contractions-to-runtime-calls=runtime=cuda | FileCheck %s --check-prefix=KEPT

// A bf16 (or f16) copy of an f32 buffer that only 2-D GEMMs read, as
// their A, is not made: the GEMMs read the f32 buffer and round it
// themselves, a block of rows of A at a time, in a scratch buffer of the
// step: 64 rows (all of A where it has fewer) and, in bf16, at least a
// quarter of A. Here the copy of a step's input batch read by the forward
// GEMM (32 rows of K = 100) and, transposed, by the weight gradient's (64
// of its 100 rows, K = 32).

// CHECK-LABEL: func.func @input_batch
// CHECK-NOT: arith.truncf
// CHECK-NOT: memref<32x100xbf16>
// CHECK: %[[X:.*]] = memref.cast %arg0 : memref<32x100xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK: %[[S1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3200xbf16>
// CHECK: %[[V1:.*]] = memref.cast %[[S1]] : memref<3200xbf16> to memref<?xbf16, strided<[?], offset: ?>>
// CHECK: call @amp_rt_rounding_matmul_overwrite_bf16(%[[X]], %{{.*}}, %{{.*}}, %[[V1]])
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[STR:.*]]:2 = memref.extract_strided_metadata %arg0 : memref<32x100xf32>
// CHECK: %[[XT:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[OFF]]], sizes: [100, 32], strides: [%[[STR]]#1, %[[STR]]#0]
// CHECK: %[[S2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2048xbf16>
// CHECK: %[[V2:.*]] = memref.cast %[[S2]]
// CHECK: call @amp_rt_rounding_matmul_bf16(%[[XT]], %{{.*}}, %{{.*}}, %[[V2]])
// CHECK-NOT: call @amp_rt_matmul
// KEPT-LABEL: func.func @input_batch
// KEPT: arith.truncf
// KEPT-NOT: rounding_matmul
func.func @input_batch(%x: memref<32x100xf32>, %w: memref<100x16xbf16>, %h: memref<32x16xf32>,
                       %dh: memref<32x16xbf16>, %dw: memref<100x16xf32>) {
  %copy = memref.alloc() {alignment = 64 : i64} : memref<32x100xbf16>
  %in = memref.collapse_shape %x [[0, 1]] : memref<32x100xf32> into memref<3200xf32>
  %out = memref.collapse_shape %copy [[0, 1]] : memref<32x100xbf16> into memref<3200xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%in : memref<3200xf32>) outs(%out : memref<3200xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%h : memref<32x16xf32>)
  linalg.matmul ins(%copy, %w : memref<32x100xbf16>, memref<100x16xbf16>) outs(%h : memref<32x16xf32>)
  // Accumulating into what %dw holds: the non-overwriting call.
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%copy, %dh : memref<32x100xbf16>, memref<32x16xbf16>) outs(%dw : memref<100x16xf32>)
  return
}

// -----

// A bf16 A of 300 rows: blocks of a quarter of it, 75 rows of K = 8.
// CHECK-LABEL: func.func @tall_a
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<600xbf16>
// CHECK: call @amp_rt_rounding_matmul_bf16(
func.func @tall_a(%x: memref<300x8xf32>, %w: memref<8x5xbf16>, %h: memref<300x5xf32>) {
  %copy = memref.alloc() : memref<300x8xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<300x8xf32>) outs(%copy : memref<300x8xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul ins(%copy, %w : memref<300x8xbf16>, memref<8x5xbf16>) outs(%h : memref<300x5xf32>)
  return
}

// -----

// An f16 copy likewise: the f16 GEMM runs on f32 here, so its scratch
// holds the rounded rows widened back to f32 (all 16 rows of K = 20).
// CHECK-LABEL: func.func @half_batch
// CHECK-NOT: arith.truncf
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<320xf32>
// CHECK: call @amp_rt_rounding_matmul_overwrite_f16({{.*}}) : (memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf16, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?xf32, strided<[?], offset: ?>>) -> ()
// KEPT-LABEL: func.func @half_batch
// KEPT: arith.truncf
func.func @half_batch(%x: memref<16x20xf32>, %w: memref<20x6xf16>, %h: memref<16x6xf32>) {
  %copy = memref.alloc() : memref<16x20xf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<16x20xf32>) outs(%copy : memref<16x20xf16>) {
  ^bb0(%a: f32, %b: f16):
    %t = arith.truncf %a : f32 to f16
    linalg.yield %t : f16
  }
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%h : memref<16x6xf32>)
  linalg.matmul ins(%copy, %w : memref<16x20xf16>, memref<20x6xf16>) outs(%h : memref<16x6xf32>)
  return
}

// -----

// Both operands rounded copies (a first layer's input and weight): A is
// rounded by the GEMM (a block holds its 8 rows), the copy of B is made
// (blocks of B's columns would change oneDNN's sums), and so is a copy
// that a GEMM reads as B only.
// CHECK-LABEL: func.func @copies_as_b
// CHECK: %[[WC:.*]] = memref.alloc() : memref<80x200xbf16>
// CHECK: arith.truncf
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<640xbf16>
// CHECK: call @amp_rt_rounding_matmul_bf16(
// CHECK: arith.truncf
// CHECK: call @amp_rt_matmul_bf16(
// CHECK-NOT: arith.truncf
// KEPT-LABEL: func.func @copies_as_b
// KEPT-COUNT-3: arith.truncf
// KEPT: call @amp_rt_{{(cuda_)?}}matmul_bf16(
// KEPT: call @amp_rt_{{(cuda_)?}}matmul_bf16(
func.func @copies_as_b(%x: memref<8x80xf32>, %w: memref<80x200xf32>, %h: memref<8x200xf32>,
                       %g: memref<4x12xbf16>, %v: memref<30x12xf32>, %d: memref<4x30xf32>) {
  %xc = memref.alloc() : memref<8x80xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x80xf32>) outs(%xc : memref<8x80xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  %wc = memref.alloc() : memref<80x200xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<80x200xf32>) outs(%wc : memref<80x200xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul ins(%xc, %wc : memref<8x80xbf16>, memref<80x200xbf16>) outs(%h : memref<8x200xf32>)
  // A weight's copy read transposed as B (a data gradient's GEMM).
  %vc = memref.alloc() : memref<30x12xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<30x12xf32>) outs(%vc : memref<30x12xbf16>) {
  ^bb0(%a: f32, %b: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%g, %vc : memref<4x12xbf16>, memref<30x12xbf16>) outs(%d : memref<4x30xf32>)
  return
}

// -----

// The copy stays, and every GEMM reads it, when anything but a 2-D GEMM
// reads it (here an elementwise loop), when the f32 buffer is written
// between the cast and a GEMM (an in-place weight update before a data
// gradient), when a GEMM writes the f32 buffer itself, or when a batched
// GEMM reads the copy.
// CHECK-LABEL: func.func @copies_kept
// CHECK-COUNT-4: arith.truncf
// CHECK-NOT: rounding_matmul
// CHECK-NOT: arith.truncf
func.func @copies_kept(%x: memref<4x8xf32>, %w: memref<8x8xf32>, %b: memref<8x8xbf16>,
                       %o: memref<4x8xf32>, %e: memref<4x8xbf16>, %s: memref<8x8xf32>,
                       %a3: memref<2x4x8xbf16>, %w3: memref<2x8x8xf32>, %ob: memref<2x4x8xf32>) {
  %xc = memref.alloc() : memref<4x8xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x8xf32>) outs(%xc : memref<4x8xbf16>) {
  ^bb0(%a: f32, %z: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul ins(%xc, %b : memref<4x8xbf16>, memref<8x8xbf16>) outs(%o : memref<4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%xc : memref<4x8xbf16>) outs(%e : memref<4x8xbf16>) {
  ^bb0(%a: bf16, %z: bf16):
    %n = arith.negf %a : bf16
    linalg.yield %n : bf16
  }

  %wc = memref.alloc() : memref<8x8xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%w : memref<8x8xf32>) outs(%wc : memref<8x8xbf16>) {
  ^bb0(%a: f32, %z: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul ins(%e, %wc : memref<4x8xbf16>, memref<8x8xbf16>) outs(%o : memref<4x8xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      outs(%w : memref<8x8xf32>) {
  ^bb0(%z: f32):
    %h = arith.mulf %z, %z : f32
    linalg.yield %h : f32
  }
  linalg.matmul ins(%e, %wc : memref<4x8xbf16>, memref<8x8xbf16>) outs(%o : memref<4x8xf32>)

  %sc = memref.alloc() : memref<8x8xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<8x8xf32>) outs(%sc : memref<8x8xbf16>) {
  ^bb0(%a: f32, %z: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.matmul ins(%sc, %b : memref<8x8xbf16>, memref<8x8xbf16>) outs(%s : memref<8x8xf32>)

  %bc = memref.alloc() : memref<2x8x8xbf16>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w3 : memref<2x8x8xf32>) outs(%bc : memref<2x8x8xbf16>) {
  ^bb0(%a: f32, %z: bf16):
    %t = arith.truncf %a : f32 to bf16
    linalg.yield %t : bf16
  }
  linalg.batch_matmul ins(%a3, %bc : memref<2x4x8xbf16>, memref<2x8x8xbf16>) outs(%ob : memref<2x4x8xf32>)
  return
}
