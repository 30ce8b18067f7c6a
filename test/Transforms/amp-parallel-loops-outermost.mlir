// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(linalg-generalize-named-ops,amp-parallel-loops-outermost))" | FileCheck %s

// A bias gradient: the sum over the batch (axis 0) becomes parallel over
// the features with the batch reduction inside; the maps follow.
// CHECK: #[[IN:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK: #[[OUT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @bias_grad
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%arg0 : memref<64x256xf32>) outs(%arg1 : memref<256xf32>)
func.func @bias_grad(%g: memref<64x256xf32>, %b: memref<256xf32>) {
  linalg.reduce ins(%g : memref<64x256xf32>) outs(%b : memref<256xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Already parallel-first, or all one kind: unchanged.
// CHECK-LABEL: func.func @unchanged
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: iterator_types = ["reduction", "reduction"]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#all = affine_map<(d0, d1) -> ()>
func.func @unchanged(%x: memref<4x8xf32>, %r: memref<4xf32>, %s: memref<f32>) {
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%r : memref<4xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<4x8xf32>) outs(%s : memref<f32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %in, %acc : f32
    linalg.yield %a : f32
  }
  return
}
