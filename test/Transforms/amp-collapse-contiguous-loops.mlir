// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-collapse-contiguous-loops))" | FileCheck %s

// An elementwise update over (512, 512, 3, 3) dense buffers is one loop
// of 2359296 elements.
// CHECK-LABEL: func.func @dense_update
// CHECK-COUNT-3: memref.collapse_shape {{.*}} {{\[\[}}0, 1, 2, 3]] : memref<512x512x3x3xf32> into memref<2359296xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel"]}
func.func @dense_update(%p: memref<512x512x3x3xf32>, %g: memref<512x512x3x3xf32>, %new: memref<512x512x3x3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%p, %g : memref<512x512x3x3xf32>, memref<512x512x3x3xf32>) outs(%new : memref<512x512x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %d = arith.subf %a, %b : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// Batch norm's per-channel scale: the images' (H, W) become one loop, the
// channel stays (the scale indexes it alone); a per-channel sum keeps its
// reduction loops apart from the parallel one.
// CHECK-LABEL: func.func @per_channel
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: memref<32x64x64xf32>, memref<64xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]}
func.func @per_channel(%x: memref<32x64x8x8xf32>, %scale: memref<64xf32>, %y: memref<32x64x8x8xf32>, %sum: memref<64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d1)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x, %scale : memref<32x64x8x8xf32>, memref<64xf32>) outs(%y : memref<32x64x8x8xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %m = arith.mulf %a, %s : f32
    linalg.yield %m : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d1)>],
                  iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%x : memref<32x64x8x8xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A padded buffer's interior: its images are contiguous, its rows are not.
// CHECK-LABEL: func.func @interior
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1], [2], [3]] : memref<2x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>> into memref<8x8x8xf32, strided<[100, 10, 1], offset: 11>>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]}
func.func @interior(%padded: memref<2x4x10x10xf32>, %x: memref<2x4x8x8xf32>) {
  %interior = memref.subview %padded[0, 0, 1, 1] [2, 4, 8, 8] [1, 1, 1, 1] : memref<2x4x10x10xf32> to memref<2x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%interior : memref<2x4x8x8xf32, strided<[400, 100, 10, 1], offset: 11>>) outs(%x : memref<2x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  return
}

// -----

// A transposed operand: its (H, W) merge, its transposed dimensions do
// not. Left alone: a flip, a matrix product, a body that reads the loop
// indices.
// CHECK-LABEL: func.func @kept
// CHECK: memref.collapse_shape %arg1 {{\[\[}}0], [1], [2, 3]] : memref<4x2x8x8xf32> into memref<4x2x64xf32>
// CHECK: memref.collapse_shape %arg0 {{\[\[}}0], [1], [2, 3]] : memref<2x4x8x8xf32> into memref<2x4x64xf32>
// CHECK: linalg.generic
// CHECK-NOT: memref.collapse_shape
// CHECK: return
func.func @kept(%x: memref<2x4x8x8xf32>, %t: memref<4x2x8x8xf32>,
                %a: memref<8x4xf32>, %b: memref<4x8xf32>, %c: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d1, d0, d2, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%t : memref<4x2x8x8xf32>) outs(%x : memref<2x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, 7 - d2, 7 - d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<2x4x8x8xf32>) outs(%x : memref<2x4x8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%x : memref<2x4x8x8xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 3 : index
    %n = arith.index_cast %i : index to i32
    %v = arith.sitofp %n : i32 to f32
    linalg.yield %v : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x4xf32>, memref<4x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
