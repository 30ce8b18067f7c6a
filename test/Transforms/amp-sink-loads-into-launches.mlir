// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-sink-loads-into-launches))' | FileCheck %s

// The flag and the value computed from it are loaded in each kernel that
// uses them; the host keeps nothing.
// CHECK-LABEL: func.func @flag
// CHECK-NOT: memref.load
// CHECK: gpu.launch
// CHECK-NEXT: %[[F:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK-NEXT: %[[S:.*]] = arith.select %[[F]]
// CHECK: memref.store %[[S]]
// CHECK: gpu.launch
// CHECK-NEXT: %[[F2:.*]] = memref.load %{{.*}}[] : memref<i1>
// CHECK-NEXT: arith.select %[[F2]]
func.func @flag(%flag: memref<i1>, %a: memref<4xf32>, %b: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %f = memref.load %flag[] : memref<i1>
  %s = arith.select %f, %zero, %one : f32
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %s, %a[%c0] : memref<4xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %s, %b[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// -----

// Not sunk: the buffer is written between the load and the kernel (the
// kernel would read the new value), or the value is also needed on the
// host, or the buffer is reached through a view.
// CHECK-LABEL: func.func @written_between
// CHECK: %[[F:.*]] = memref.load
// CHECK: memref.store
// CHECK: gpu.launch
// CHECK-NOT: memref.load
// CHECK: return
func.func @written_between(%flag: memref<f32>, %a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %f = memref.load %flag[] : memref<f32>
  memref.store %zero, %flag[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %f, %a[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @used_on_host
// CHECK: %[[F:.*]] = memref.load
// CHECK: memref.store %[[F]], %{{.*}}[%{{.*}}] : memref<4xf32>
// CHECK: gpu.launch
// CHECK-NOT: memref.load
// CHECK: return
func.func @used_on_host(%flag: memref<f32>, %a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %f = memref.load %flag[] : memref<f32>
  memref.store %f, %a[%c1] : memref<4xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %f, %a[%c0] : memref<4xf32>
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @viewed
// CHECK: memref.load
// CHECK: gpu.launch
// CHECK-NOT: memref.load
// CHECK: return
func.func @viewed(%buffer: memref<1x1xf32>, %a: memref<4xf32>) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %view = memref.collapse_shape %buffer [[0, 1]] : memref<1x1xf32> into memref<1xf32>
  %f = memref.load %buffer[%c0, %c0] : memref<1x1xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %c1, %y = %c1, %z = %c1)
             threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
    memref.store %f, %a[%c0] : memref<4xf32>
    memref.store %f, %view[%c0] : memref<1xf32>
    gpu.terminator
  }
  return
}
