// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-map-parallel-loops-to-gpu))" | FileCheck %s

// [64, 16, 20] becomes one row-major dimension of 20480 iterations in
// blocks of 256 threads (block_x / thread_x), bounds checked inside, the
// indices recovered innermost-fastest.
// CHECK-LABEL: func.func @rank3
// CHECK: %[[N:[^ ]+]] = arith.muli %{{[^ ]+}}, %[[C20:c20[^ ]*]] : index
// CHECK: %[[C256:[^ ]+]] = arith.constant 256 : index
// CHECK: %[[STEP:[^ ]+]] = arith.muli %{{[^ ]+}}, %[[C256]] : index
// CHECK: scf.parallel (%[[B:[^)]+]]) = (%{{[^)]+}}) to (%[[N]]) step (%[[STEP]]) {
// CHECK: scf.parallel (%[[T:[^)]+]]) = (%{{[^)]+}}) to (%[[STEP]]) step
// CHECK: %[[I:[^ ]+]] = arith.addi %[[T]], %[[B]] : index
// CHECK: arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK: scf.if
// CHECK: %[[K:[^ ]+]] = arith.remsi %[[I]], %[[C20]] : index
// CHECK: memref.store %{{.*}}, %arg0[%{{.*}}, %{{.*}}, %[[K]]] : memref<64x16x20xf32>
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
func.func @rank3(%out: memref<64x16x20xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c16 = arith.constant 16 : index
  %c20 = arith.constant 20 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%c64, %c16, %c20) step (%c1, %c1, %c1) {
    memref.store %f, %out[%i, %j, %k] : memref<64x16x20xf32>
    scf.reduce
  }
  return
}

// -----

// A short loop gets one block of its extent rounded up to a warp; a
// dynamic one blocks of 256; a reduction inside a thread stays a loop.
// CHECK-LABEL: func.func @short_dynamic_reduction
// CHECK: arith.constant 32 : index
// CHECK: scf.parallel
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK: arith.constant 256 : index
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
func.func @short_dynamic_reduction(%a: memref<10xf32>, %b: memref<?x8xf32>, %r: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c10 = arith.constant 10 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c10) step (%c1) {
    memref.store %f, %a[%i] : memref<10xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.for %j = %c0 to %c8 step %c1 {
      %x = memref.load %b[%i, %j] : memref<?x8xf32>
      %s = memref.load %r[%i] : memref<?xf32>
      %t = arith.addf %x, %s : f32
      memref.store %t, %r[%i] : memref<?xf32>
    }
    scf.reduce
  }
  return
}
