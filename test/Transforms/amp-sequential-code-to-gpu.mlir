// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-sequential-code-to-gpu))' | FileCheck %s

// The last stage of a reduction (a host loop) and the scale update become
// one-thread kernels; the allocation between them goes above; a constant
// the host still needs after the run stays on the host; kernels already
// there are left alone.
// CHECK-LABEL: func.func @sequential
// CHECK: %[[OUT:.*]] = memref.alloc() : memref<f32>
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: gpu.launch blocks(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]]) threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[C1]], %{{.*}} = %[[C1]], %{{.*}} = %[[C1]])
// CHECK: scf.for
// CHECK: memref.load
// CHECK: memref.store
// CHECK: memref.load %{{.*}}[] : memref<f32>
// CHECK: arith.mulf
// CHECK: memref.store %{{.*}}, %[[OUT]][]
// CHECK: gpu.terminator
// CHECK: gpu.launch
// CHECK: gpu.terminator
// CHECK-NOT: gpu.launch
// CHECK: return
func.func @sequential(%rows: memref<8xi1>, %flag: memref<i1>, %scale: memref<f32>,
                      %out2: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %step = arith.constant 1 : index
  scf.for %i = %c0 to %c8 step %step {
    %r = memref.load %rows[%i] : memref<8xi1>
    %f = memref.load %flag[] : memref<i1>
    %o = arith.ori %f, %r : i1
    memref.store %o, %flag[] : memref<i1>
  }
  %two = arith.constant 2.0 : f32
  %out = memref.alloc() : memref<f32>
  %s = memref.load %scale[] : memref<f32>
  %d = arith.mulf %s, %two : f32
  memref.store %d, %out[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%x = %step, %y = %step, %z = %step)
             threads(%tx, %ty, %tz) in (%u = %step, %v = %step, %w = %step) {
    memref.store %two, %out2[] : memref<f32>
    gpu.terminator
  }
  return
}

// -----

// A loaded value the host needs after the run (here, a call) keeps the run
// on the host; so does a loop around a kernel launch.
// CHECK-LABEL: func.func @needed_on_host
// CHECK-NOT: gpu.launch
// CHECK: memref.load
// CHECK: call @use
func.func private @use(f32)
func.func @needed_on_host(%scale: memref<f32>) {
  %s = memref.load %scale[] : memref<f32>
  call @use(%s) : (f32) -> ()
  return
}

// CHECK-LABEL: func.func @loop_around_kernel
// CHECK: scf.for
// CHECK-NEXT: gpu.launch
// CHECK-NOT: gpu.launch
func.func @loop_around_kernel(%a: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %x = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    gpu.launch blocks(%bx, %by, %bz) in (%p = %c1, %q = %c1, %r = %c1)
               threads(%tx, %ty, %tz) in (%u = %c1, %v = %c1, %w = %c1) {
      memref.store %x, %a[%i] : memref<4xf32>
      gpu.terminator
    }
  }
  return
}
