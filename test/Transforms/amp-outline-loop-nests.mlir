// RUN: amp-opt %s --amp-outline-loop-nests | FileCheck %s

// A function with one nest is left as it is.
// CHECK-LABEL: func.func @single
// CHECK-NOT: call
// CHECK: scf.for
// CHECK-NOT: call
// CHECK: return
func.func @single(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %one, %a[%i] : memref<4xf32>
  }
  return
}

// Each top-level loop nest of a function with several becomes a call of its
// own private noinline function; what it reads from outside is passed in,
// constants (here the bounds and the fill value) are cloned in, and the code
// between the nests (the allocation, the runtime-like call) stays.
// CHECK-LABEL: func.func @step(
// CHECK-SAME: %[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<4x8xf32>)
// CHECK: %[[T:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT: call @step_nest0(%[[A]], %[[T]]) : (memref<4x8xf32>, memref<4x8xf32>) -> ()
// CHECK-NEXT: call @use(%[[T]])
// CHECK-NEXT: %[[S:.*]] = call @step_nest1(%[[T]]) : (memref<4x8xf32>) -> f32
// CHECK-NEXT: call @step_nest2(%[[S]], %[[B]])
// CHECK-NOT: scf.for
// CHECK: return
// CHECK: func.func private @step_nest0(%[[A0:.*]]: memref<4x8xf32>, %[[T0:.*]]: memref<4x8xf32>) attributes {passthrough = ["noinline"]}
// CHECK-DAG: arith.constant 0 : index
// CHECK-DAG: arith.constant 4 : index
// CHECK: scf.for
// CHECK: scf.for
// CHECK: memref.load %[[A0]]
// CHECK: func.func private @step_nest1({{.*}}) -> f32 attributes {passthrough = ["noinline"]}
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args
// CHECK: return %[[R]] : f32
// CHECK: func.func private @step_nest2(
func.func private @use(memref<4x8xf32>)
func.func @step(%a: memref<4x8xf32>, %b: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<4x8xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %a[%i, %j] : memref<4x8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %t[%i, %j] : memref<4x8xf32>
    }
  }
  call @use(%t) : (memref<4x8xf32>) -> ()
  %sum = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {
    %v = memref.load %t[%i, %c0] : memref<4x8xf32>
    %next = arith.addf %acc, %v : f32
    scf.yield %next : f32
  }
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %sum, %b[%i, %c0] : memref<4x8xf32>
  }
  return
}
