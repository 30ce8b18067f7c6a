// RUN: amp-opt %s --amp-outline-parallel-chunks | FileCheck %s
// RUN: amp-opt %s --amp-outline-parallel-chunks=min-work=64 | FileCheck %s --check-prefix=SMALL

// A nest of 4 x 16 x 8 = 512 innermost iterations is too small for the
// default (32768): it stays as it is. With min-work=64 it becomes a chunk
// function over its first dimension, called for all of it (0 to 4); the
// chunk runs rows lb + begin * step up to min(lb + end * step, ub).
// CHECK-LABEL: func.func @rows
// CHECK-NOT: call
// CHECK: scf.parallel
// SMALL-LABEL: func.func @rows(
// SMALL-SAME: %[[A:.*]]: memref<8x16xf32>, %[[B:.*]]: memref<8x16xf32>)
// SMALL: arith.constant 16 : index
// SMALL-NEXT: %[[Z:.*]] = arith.constant 0 : index
// SMALL-NEXT: %[[N:.*]] = arith.constant 4 : index
// SMALL-NEXT: call @rows_parallel0(%[[Z]], %[[N]], %[[A]], %[[B]]) : (index, index, memref<8x16xf32>, memref<8x16xf32>) -> ()
// SMALL-NOT: scf.parallel
// SMALL: return
func.func @rows(%a: memref<8x16xf32>, %b: memref<8x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  scf.parallel (%i, %j) = (%c1, %c0) to (%c8, %c16) step (%c2, %c1) {
    scf.for %k = %c0 to %c8 step %c1 {
      %v = memref.load %a[%i, %j] : memref<8x16xf32>
      memref.store %v, %b[%k, %j] : memref<8x16xf32>
    }
    scf.reduce
  }
  return
}

// Not chunked, whatever min-work: a first dimension of one iteration, a
// dynamic first dimension, a nest with results, and a nest below the top
// level.
// SMALL-LABEL: func.func @kept
// SMALL-NOT: call @kept
// SMALL-COUNT-4: scf.parallel
// SMALL-NOT: call @kept
// SMALL: return
func.func @kept(%a: memref<1x4096xf32>, %n: index, %d: memref<?x4096xf32>, %flag: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1, %c4096) step (%c1, %c1) {
    memref.store %zero, %a[%i, %j] : memref<1x4096xf32>
    scf.reduce
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c4096) step (%c1, %c1) {
    memref.store %zero, %d[%i, %j] : memref<?x4096xf32>
    scf.reduce
  }
  %sum = scf.parallel (%j) = (%c0) to (%c4096) step (%c1) init (%zero) -> f32 {
    %v = memref.load %a[%c0, %j] : memref<1x4096xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %s = arith.addf %x, %y : f32
      scf.reduce.return %s : f32
    }
  }
  scf.if %flag {
    scf.parallel (%j) = (%c0) to (%c4096) step (%c1) {
      memref.store %zero, %a[%c0, %j] : memref<1x4096xf32>
      scf.reduce
    }
  }
  return %sum : f32
}

// The chunk function, after the functions.
// SMALL: func.func private @rows_parallel0(%[[BEGIN:.*]]: index, %[[END:.*]]: index, %{{.*}}: memref<8x16xf32>, %{{.*}}: memref<8x16xf32>) attributes {amp.parallel_chunk, passthrough = ["noinline"]}
// SMALL-DAG: %[[LB:.*]] = arith.constant 1 : index
// SMALL-DAG: %[[UB:.*]] = arith.constant 8 : index
// SMALL-DAG: %[[ST:.*]] = arith.constant 2 : index
// SMALL: %[[M0:.*]] = arith.muli %[[BEGIN]], %[[ST]]
// SMALL: %[[FIRST:.*]] = arith.addi %[[LB]], %[[M0]]
// SMALL: %[[M1:.*]] = arith.muli %[[END]], %[[ST]]
// SMALL: %[[E:.*]] = arith.addi %[[LB]], %[[M1]]
// SMALL: %[[LAST:.*]] = arith.minsi %[[UB]], %[[E]]
// SMALL: scf.parallel (%{{.*}}, %{{.*}}) = (%[[FIRST]], %{{.*}}) to (%[[LAST]], %{{.*}}) step (%[[ST]], %{{.*}})
// SMALL: scf.for
