// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-fuse-fills-into-parallel-loops))' | FileCheck %s

// A row sum after its zero fill: the fill becomes the first store of the
// reduction's own iteration; one loop nest is left.
// CHECK-LABEL: func.func @row_sum
// CHECK-SAME: (%[[IN:.*]]: memref<4x8xf32>, %[[OUT:.*]]: memref<4xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.0
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK-NEXT: memref.store %[[ZERO]], %[[OUT]][%[[I]]]
// CHECK-NEXT: scf.for
// CHECK-NOT: scf.parallel
func.func @row_sum(%in: memref<4x8xf32>, %out: memref<4xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %out[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %x = memref.load %in[%i, %k] : memref<4x8xf32>
      %acc = memref.load %out[%i] : memref<4xf32>
      %sum = arith.addf %x, %acc : f32
      memref.store %sum, %out[%i] : memref<4xf32>
    }
    scf.reduce
  }
  return
}

// -----

// A copy of a splat constant (an overflow check's `false` init) is a fill
// too, fused the same way into a consumer that walks the buffer
// transposed; the global's read is gone.
// CHECK-LABEL: func.func @splat_copy_transposed
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.get_global
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) =
// CHECK-NEXT: memref.store %[[FALSE]], %{{.*}}[%[[J]], %[[I]]] : memref<3x2xi1>
// CHECK-NOT: scf.parallel
// CHECK-NOT: memref.copy
memref.global "private" constant @__false_3x2 : memref<3x2xi1> = dense<false>
func.func @splat_copy_transposed(%in: memref<2x3xf32>, %flags: memref<3x2xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %g = memref.get_global @__false_3x2 : memref<3x2xi1>
  memref.copy %g, %flags : memref<3x2xi1> to memref<3x2xi1>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c3) step (%c1, %c1) {
    %x = memref.load %in[%i, %j] : memref<2x3xf32>
    %old = memref.load %flags[%j, %i] : memref<3x2xi1>
    %nan = arith.cmpf uno, %x, %x : f32
    %any = arith.ori %old, %nan : i1
    memref.store %any, %flags[%j, %i] : memref<3x2xi1>
    scf.reduce
  }
  return
}

// -----

// A splat copy with nothing to fuse into still becomes stores: a loop nest
// for a buffer (here the next op, a call, takes it), one store for a
// rank-0 buffer. A copy of a constant that is not a splat stays a copy.
// CHECK-LABEL: func.func @splat_copies_unfused
// CHECK: %[[ONE:.*]] = arith.constant 1.0{{.*}} : f32
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK-NEXT: memref.store %[[ONE]], %[[BUF:.*]][%[[I]]] : memref<5xf32>
// CHECK: call @use(%[[BUF]])
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK-NEXT: memref.store %[[FALSE]], %{{.*}}[] : memref<i1>
// CHECK: %[[IOTA:.*]] = memref.get_global @iota
// CHECK: memref.copy %[[IOTA]]
// CHECK-NOT: memref.copy
memref.global "private" constant @ones : memref<5xf32> = dense<1.0>
memref.global "private" constant @no : memref<i1> = dense<false>
memref.global "private" constant @iota : memref<3xi32> = dense<[0, 1, 2]>
func.func private @use(memref<5xf32>)
func.func @splat_copies_unfused(%buf: memref<5xf32>, %flag: memref<i1>, %idx: memref<3xi32>) {
  %ones = memref.get_global @ones : memref<5xf32>
  memref.copy %ones, %buf : memref<5xf32> to memref<5xf32>
  call @use(%buf) : (memref<5xf32>) -> ()
  %no = memref.get_global @no : memref<i1>
  memref.copy %no, %flag : memref<i1> to memref<i1>
  %iota = memref.get_global @iota : memref<3xi32>
  memref.copy %iota, %idx : memref<3xi32> to memref<3xi32>
  return
}

// -----

// Not fused: the consumer reaches an element from several iterations (a
// reduction dimension as a parallel one, a diagonal), reads a fixed
// element, visits only part of the buffer, or another op reads the buffer
// first; nor through another view of it.
// CHECK-LABEL: func.func @not_one_element_per_iteration
// CHECK-COUNT-13: scf.parallel
// CHECK-NOT: scf.parallel
func.func @not_one_element_per_iteration(%a: memref<4xf32>, %b: memref<4xf32>, %c: memref<4xf32>, %d: memref<4x1xf32>, %e: memref<4xf32>, %f: memref<4x4xf32>, %g: memref<4xf32>, %h: memref<4x4xf32>, %k: memref<4x4xf32>, %sink: memref<f32>) {
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %a[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %x = memref.load %a[%i] : memref<4xf32>
    memref.store %x, %a[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %b[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %b[%c0] : memref<4xf32>
    memref.store %x, %b[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %c[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %f[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %x = memref.load %f[%i, %i] : memref<4x4xf32>
    memref.store %x, %f[%i, %i] : memref<4x4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %zero, %g[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c2) step (%c1) {
    %x = memref.load %g[%i] : memref<4xf32>
    memref.store %x, %g[%i] : memref<4xf32>
    scf.reduce
  }
  %t = memref.transpose %h (i, j) -> (j, i) : memref<4x4xf32> to memref<4x4xf32, strided<[1, 4]>>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    memref.store %zero, %h[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
    %x = memref.load %t[%i, %j] : memref<4x4xf32, strided<[1, 4]>>
    memref.store %x, %k[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  %first = memref.load %c[%c0] : memref<4xf32>
  memref.store %first, %sink[] : memref<f32>
  %col = memref.collapse_shape %d [[0, 1]] : memref<4x1xf32> into memref<4xf32>
  scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c1) step (%c1, %c1) {
    memref.store %zero, %d[%i, %j] : memref<4x1xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %col[%i] : memref<4xf32>
    memref.store %x, %e[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
