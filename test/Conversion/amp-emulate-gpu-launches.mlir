// RUN: amp-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(amp-emulate-gpu-launches))" --verify-diagnostics | FileCheck %s

// Grid and block become six loops, outermost first; the body sees the loop
// indices as its block and thread ids and the bounds as its sizes.
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%[[OUT:.*]]: memref<8x4xf32>, %[[GX:.*]]: index, %[[BY:.*]]: index)
// CHECK: scf.for %[[BXI:.*]] = %{{.*}} to %[[GX]] step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK-NEXT: scf.for %[[TYI:.*]] = %{{.*}} to %[[BY]] step
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %{{.*}} step
// CHECK: %[[V:.*]] = arith.index_cast %[[BY]] : index to i32
// CHECK: memref.store %{{.*}}, %[[OUT]][%[[BXI]], %[[TYI]]] : memref<8x4xf32>
// CHECK-NOT: gpu.
func.func @launch(%out: memref<8x4xf32>, %gx: index, %by: index) {
  %c1 = arith.constant 1 : index
  gpu.launch blocks(%bx, %bya, %bz) in (%sgx = %gx, %sgy = %c1, %sgz = %c1)
             threads(%tx, %ty, %tz) in (%sbx = %c1, %sby = %by, %sbz = %c1) {
    %n = arith.index_cast %sby : index to i32
    %f = arith.sitofp %n : i32 to f32
    memref.store %f, %out[%bx, %ty] : memref<8x4xf32>
    gpu.terminator
  }
  return
}

// -----

func.func @shared(%n: index) {
  // expected-error @+1 {{amp-emulate-gpu-launches: only synchronous single-block launches without clusters, workgroup or private memory can run as loops}}
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
             threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n)
             workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) {
    gpu.terminator
  }
  return
}
