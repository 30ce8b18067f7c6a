// RUN: amp-opt %s --split-input-file --amp-buffers-to-managed-memory --verify-diagnostics | FileCheck %s

// Host buffers move to managed memory; a dealloc is queued on a stream and
// not waited for (amp-async-gpu-work chains it); the kernel module is
// untouched.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[A:.*]] = gpu.alloc  host_shared () : memref<4x8xf32>
// CHECK: %[[B:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?xf16>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T0]]] %[[A]] : memref<4x8xf32>
// CHECK-NOT: gpu.wait [
// CHECK: %[[T2:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T2]]] %[[B]] : memref<?xf16>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: gpu.module @kernels
// CHECK: memref.alloc() : memref<2xf32, #gpu.address_space<private>>
module attributes {gpu.container_module} {
  func.func @step(%n: index) {
    %a = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
    %b = memref.alloc(%n) : memref<?xf16>
    %c0 = arith.constant 0 : index
    %x = arith.constant 1.0 : f32
    memref.store %x, %a[%c0, %c0] : memref<4x8xf32>
    memref.dealloc %a : memref<4x8xf32>
    memref.dealloc %b : memref<?xf16>
    return
  }
  gpu.module @kernels {
    gpu.func @k() kernel {
      %p = memref.alloc() : memref<2xf32, #gpu.address_space<private>>
      gpu.return
    }
  }
}

// -----

// A constant in host read-only data: kernels get a managed copy, made on
// the GPU (a copy between whole buffers) at the top of the function (also when the constant is taken in a loop) and
// freed before the return.
// CHECK-LABEL: func.func @constant
// CHECK: %[[G:.*]] = memref.get_global @table : memref<4xi32>
// CHECK: %[[M:.*]] = gpu.alloc  host_shared () : memref<4xi32>
// CHECK: gpu.memcpy %[[M]], %[[G]] : memref<4xi32>, memref<4xi32>
// CHECK: scf.for
// CHECK:   memref.load %[[M]]
// CHECK: %[[T:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T]]] %[[M]] : memref<4xi32>
// CHECK: return
memref.global "private" constant @table : memref<4xi32> = dense<[0, 1, 2, 3]>
func.func @constant(%out: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.get_global @table : memref<4xi32>
    %v = memref.load %t[%i] : memref<4xi32>
    memref.store %v, %out[%i] : memref<4xi32>
  }
  return
}

// -----

func.func @stack() {
  // expected-error @+1 {{amp-buffers-to-managed-memory: a host stack buffer (memref.alloca) cannot be reached from CUDA kernels}}
  %a = memref.alloca() : memref<4xf32>
  return
}
