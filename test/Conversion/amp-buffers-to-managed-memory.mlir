// RUN: amp-opt %s --split-input-file --amp-buffers-to-managed-memory --verify-diagnostics | FileCheck %s

// Host buffers move to managed memory; a dealloc gets its own stream and is
// waited on; the kernel module is untouched.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[A:.*]] = gpu.alloc  host_shared () : memref<4x8xf32>
// CHECK: %[[B:.*]] = gpu.alloc  host_shared (%[[N]]) : memref<?xf16>
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: %[[T1:.*]] = gpu.dealloc async [%[[T0]]] %[[A]] : memref<4x8xf32>
// CHECK: gpu.wait [%[[T1]]]
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

func.func @stack() {
  // expected-error @+1 {{amp-buffers-to-managed-memory: a host stack buffer (memref.alloca) cannot be reached from CUDA kernels}}
  %a = memref.alloca() : memref<4xf32>
  return
}
