// RUN: amp-opt %s --pass-pipeline='builtin.module(func.func(amp-strided-copies-to-linalg))' | FileCheck %s

// A copy into a subview (a concatenation) or out of a transposed view
// becomes a linalg.copy (a loop nest: a kernel on the CUDA path); a copy
// between whole buffers stays a memref.copy (one cuMemcpyAsync there).
// CHECK-LABEL: func.func @copies
// CHECK: %[[SUB:.*]] = memref.subview
// CHECK: linalg.copy ins(%{{.*}} : memref<4x2xf32>) outs(%[[SUB]] : memref<4x2xf32, strided<[4, 1], offset: 2>>)
// CHECK: %[[T:.*]] = memref.transpose
// CHECK: linalg.copy ins(%[[T]] : {{.*}}) outs(%{{.*}} : memref<4x4xf32>)
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<4x4xf32> to memref<4x4xf32>
// CHECK-NOT: memref.copy
func.func @copies(%part: memref<4x2xf32>, %whole: memref<4x4xf32>, %out: memref<4x4xf32>) {
  %sub = memref.subview %whole[0, 2] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1], offset: 2>>
  memref.copy %part, %sub : memref<4x2xf32> to memref<4x2xf32, strided<[4, 1], offset: 2>>
  %t = memref.transpose %whole (i, j) -> (j, i) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  memref.copy %t, %out : memref<4x4xf32, strided<[1, 4]>> to memref<4x4xf32>
  memref.copy %out, %whole : memref<4x4xf32> to memref<4x4xf32>
  return
}
