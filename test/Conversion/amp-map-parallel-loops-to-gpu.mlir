// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-map-parallel-loops-to-gpu))" | FileCheck %s

// [64, 16, 20]: the last dimension is tiled by its extent rounded up to a
// warp (32, bounds checked inside) and becomes thread_x / block_x; the
// others become block_y, block_z; the tile's size-1 loops run in order.
// CHECK-LABEL: func.func @rank3
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK: %[[STEP:.*]] = arith.muli %{{.*}}, %[[C32]] : index
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = (%c0, %c0, %c0) to (%c64, %c16, %c20) step (%{{.*}}, %{{.*}}, %[[STEP]]) {
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} to (%{{.*}}, %{{.*}}, %[[STEP]]) step
// CHECK: arith.cmpi ult, %{{.*}}, %c20 : index
// CHECK: scf.if
// CHECK: memref.store
// CHECK: {mapping = [#gpu.loop_dim_map<processor = sequential, {{.*}}>, #gpu.loop_dim_map<processor = sequential, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_z, {{.*}}>, #gpu.loop_dim_map<processor = block_y, {{.*}}>, #gpu.loop_dim_map<processor = block_x, {{.*}}>]}
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

// A dynamic 1-D loop: 128 threads per block; a leading dimension too large
// for the grid's y (65535) stays a sequential loop inside the kernel.
// CHECK-LABEL: func.func @dynamic_and_large
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = sequential, {{.*}}>, #gpu.loop_dim_map<processor = thread_x, {{.*}}>]}
// CHECK: {mapping = [#gpu.loop_dim_map<processor = sequential, {{.*}}>, #gpu.loop_dim_map<processor = block_x, {{.*}}>]}
func.func @dynamic_and_large(%a: memref<?xf32>, %n: index, %b: memref<70000x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c70000 = arith.constant 70000 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f, %a[%i] : memref<?xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c70000, %c8) step (%c1, %c1) {
    memref.store %f, %b[%i, %j] : memref<70000x8xf32>
    scf.reduce
  }
  return
}
