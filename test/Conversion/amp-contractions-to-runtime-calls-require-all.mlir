// RUN: amp-opt %s --split-input-file --verify-diagnostics --amp-contractions-to-runtime-calls=require-all

// With require-all, a matrix product that stays a loop nest is an error
// saying why (the pipelines leave it as loops; tests count on none).

func.func @conv3d(%in: memref<1x4x6x6x3xf32>, %w: memref<2x3x3x3x2xf32>, %out: memref<1x3x4x4x2xf32>) {
  // expected-error @+1 {{contraction left as a loop nest: the runtime has no linalg.conv_3d_ndhwc_dhwcf (1-D and 2-D convolutions that multiply and accumulate only)}}
  linalg.conv_3d_ndhwc_dhwcf ins(%in, %w : memref<1x4x6x6x3xf32>, memref<2x3x3x3x2xf32>) outs(%out : memref<1x3x4x4x2xf32>)
  return
}

// -----

// Two k loops that are not one dimension of A (which holds them
// transposed) cannot be one reduction.
func.func @unmergeable_k(%a: memref<4x8x2xf32>, %b: memref<2x8x3xf32>, %c: memref<4x3xf32>) {
  // expected-error @+1 {{contraction left as a loop nest: the loops of one GEMM dimension are not one dimension of an operand's layout}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d2, d3, d1)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<4x8x2xf32>, memref<2x8x3xf32>) outs(%c : memref<4x3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

// -----

func.func @mixed_inputs(%a: memref<4x8xf16>, %b: memref<8x3xbf16>, %c: memref<4x3xf32>) {
  // expected-error @+1 {{contraction left as a loop nest: the runtime has no GEMM for these element types}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<4x8xf16>, memref<8x3xbf16>) outs(%c : memref<4x3xf32>) {
  ^bb0(%x: f16, %y: bf16, %acc: f32):
    %0 = arith.extf %x : f16 to f32
    %1 = arith.extf %y : bf16 to f32
    %2 = arith.mulf %0, %1 : f32
    %3 = arith.addf %acc, %2 : f32
    linalg.yield %3 : f32
  }
  return
}

// -----

func.func @dynamic(%a: memref<?x8xf32>, %b: memref<8x3xf32>, %c: memref<?x3xf32>) {
  // expected-error @+1 {{contraction left as a loop nest: a loop has a dynamic extent}}
  linalg.matmul ins(%a, %b : memref<?x8xf32>, memref<8x3xf32>) outs(%c : memref<?x3xf32>)
  return
}
