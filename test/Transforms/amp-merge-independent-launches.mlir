// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-merge-independent-launches))' | FileCheck %s

// Two updates of different parameters (4 blocks of 256 threads, 1 block
// of 10): one launch of 5 blocks of 256; blocks 4 and on run the second
// body with their index less 4, and only its first 10 threads do.
// CHECK-LABEL: func.func @independent
// CHECK: %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[C256:.*]] = arith.constant 256 : index
// CHECK: gpu.launch blocks(%[[BX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C5]], {{.*}} threads(%[[TX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C256]],
// CHECK: %[[FIRST:.*]] = arith.cmpi ult, %[[BX]], %[[C4:.*]] : index
// CHECK: scf.if %[[FIRST]] {
// CHECK: memref.store {{.*}} %arg1[
// CHECK: } else {
// CHECK: %[[B2:.*]] = arith.subi %[[BX]], %[[C4]] : index
// CHECK: %[[ACTIVE:.*]] = arith.cmpi ult, %[[TX]], %[[C10:.*]] : index
// CHECK: scf.if %[[ACTIVE]] {
// CHECK: arith.muli %[[B2]], %[[C10]]
// CHECK: memref.store {{.*}} %arg3[
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @independent(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<10xf32>, %d: memref<10xf32>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c10 = arith.constant 10 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c4, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %a[%i] : memref<1024xf32>
    memref.store %v, %b[%i] : memref<1024xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c10, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %v = memref.load %c[%i] : memref<10xf32>
    memref.store %v, %d[%i] : memref<10xf32>
    gpu.terminator
  }
  return
}

// -----

// A kernel that reads what the one before writes waits for it; so does
// one that writes what an op in between reads.
// CHECK-LABEL: func.func @dependent
// CHECK-COUNT-3: gpu.launch
func.func @dependent(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<256xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[%tx] : memref<256xf32>
    memref.store %v, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %b[%tx] : memref<256xf32>
    memref.store %v, %c[%tx] : memref<256xf32>
    gpu.terminator
  }
  %h = memref.load %a[%c0] : memref<256xf32>
  memref.store %h, %s[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}

// -----

// Two kernels of one thread run one after the other in one thread, even
// when the second reads what the first writes (the overflow check's last
// stage, then the scale update).
// CHECK-LABEL: func.func @one_thread_chain
// CHECK: gpu.launch
// CHECK: memref.store %{{.*}}, %arg1[]
// CHECK-NOT: gpu.terminator
// CHECK: memref.load %arg1[]
// CHECK: memref.store %{{.*}}, %arg2[]
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
func.func @one_thread_chain(%a: memref<f32>, %b: memref<f32>, %c: memref<f32>) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %a[] : memref<f32>
    memref.store %v, %b[] : memref<f32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %b[] : memref<f32>
    memref.store %v, %c[] : memref<f32>
    gpu.terminator
  }
  return
}

// -----

// A grid the host computes at run time, and a call that may touch any
// buffer in between, keep their launches apart.
// CHECK-LABEL: func.func @stay_apart
// CHECK-COUNT-3: gpu.launch
// CHECK-NOT: gpu.launch
func.func private @opaque()
func.func @stay_apart(%a: memref<256xf32>, %b: memref<256xf32>, %c: memref<256xf32>, %d: memref<256xf32>, %n: index) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %a[%tx] : memref<256xf32>
    gpu.terminator
  }
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %b[%tx] : memref<256xf32>
    gpu.terminator
  }
  func.call @opaque() : () -> ()
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1) threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %c[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}
