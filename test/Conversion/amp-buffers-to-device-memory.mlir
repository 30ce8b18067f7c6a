// RUN: amp-opt %s --split-input-file --amp-buffers-to-device-memory --verify-diagnostics | FileCheck %s

// Host buffers move to device memory (asynchronous gpu.alloc: the
// synchronous form of a device allocation has no lowering); a dealloc is
// queued on a stream and not waited for (amp-async-gpu-work chains both);
// a whole-buffer copy runs on the GPU; the kernel module is untouched.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[S0:.*]] = gpu.wait async
// CHECK: %[[A:.*]], %{{.*}} = gpu.alloc async [%[[S0]]] () : memref<4x8xf32>
// CHECK: %[[S1:.*]] = gpu.wait async
// CHECK: %[[B:.*]], %{{.*}} = gpu.alloc async [%[[S1]]] (%[[N]]) : memref<?xf16>
// CHECK: %[[S2:.*]] = gpu.wait async
// CHECK: %[[C:.*]], %{{.*}} = gpu.alloc async [%[[S2]]] () : memref<4x8xf32>
// CHECK: gpu.memcpy %[[C]], %[[A]] : memref<4x8xf32>, memref<4x8xf32>
// CHECK: %[[T0:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T0]]] %[[A]] : memref<4x8xf32>
// CHECK-NOT: gpu.wait [
// CHECK: %[[T2:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T2]]] %[[B]] : memref<?xf16>
// CHECK-NOT: host_shared
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: gpu.module @kernels
// CHECK: memref.alloc() : memref<2xf32, #gpu.address_space<private>>
module attributes {gpu.container_module} {
  func.func @step(%n: index) {
    %a = memref.alloc() {alignment = 64 : i64} : memref<4x8xf32>
    %b = memref.alloc(%n) : memref<?xf16>
    %c = memref.alloc() : memref<4x8xf32>
    memref.copy %a, %c : memref<4x8xf32> to memref<4x8xf32>
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

// A constant in host read-only data: kernels get a device copy, made on
// the GPU (a copy between whole buffers) at the top of the function (also
// when the constant is taken in a loop) and freed before the return.
// CHECK-LABEL: func.func @constant
// CHECK: %[[G:.*]] = memref.get_global @table : memref<4xi32>
// CHECK: %[[S:.*]] = gpu.wait async
// CHECK: %[[M:.*]], %{{.*}} = gpu.alloc async [%[[S]]] () : memref<4xi32>
// CHECK: gpu.memcpy %[[M]], %[[G]] : memref<4xi32>, memref<4xi32>
// CHECK: scf.for
// CHECK:   gpu.launch_func {{.*}}args(%[[M]] : memref<4xi32>
// CHECK: %[[T:.*]] = gpu.wait async
// CHECK: gpu.dealloc async [%[[T]]] %[[M]] : memref<4xi32>
// CHECK: return
module attributes {gpu.container_module} {
  memref.global "private" constant @table : memref<4xi32> = dense<[0, 1, 2, 3]>
  func.func @constant(%out: memref<4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    scf.for %i = %c0 to %c4 step %c1 {
      %t = memref.get_global @table : memref<4xi32>
      gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%t : memref<4xi32>, %out : memref<4xi32>, %i : index)
    }
    return
  }
  gpu.module @kernels {
    gpu.func @k(%t: memref<4xi32>, %out: memref<4xi32>, %i: index) kernel {
      %v = memref.load %t[%i] : memref<4xi32>
      memref.store %v, %out[%i] : memref<4xi32>
      gpu.return
    }
  }
}

// -----

// A constant only copied whole into a buffer (amp-plan-step-memory's
// workspace slots) is copied straight from the host's data: no second
// device copy.
// CHECK-LABEL: func.func @copied_constant
// CHECK: %[[G:.*]] = memref.get_global @copied : memref<4xi32>
// CHECK-NEXT: gpu.memcpy %{{.*}}, %[[G]] : memref<4xi32>, memref<4xi32>
// CHECK-NOT: gpu.alloc
memref.global "private" constant @copied : memref<4xi32> = dense<[0, 1, 2, 3]>
func.func @copied_constant(%slot: memref<4xi32>) {
  %g = memref.get_global @copied : memref<4xi32>
  memref.copy %g, %slot : memref<4xi32> to memref<4xi32>
  return
}

// -----

func.func @stack() {
  // expected-error @+1 {{amp-buffers-to-device-memory: a host stack buffer (memref.alloca) cannot be reached from CUDA kernels}}
  %a = memref.alloca() : memref<4xf32>
  return
}

// -----

// Host code that reads or writes a buffer would fault on the GPU's memory:
// each such op is an error, located.
func.func @host_access(%out: memref<4xf32>, %strided: memref<4xf32, strided<[2]>>) {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{amp-buffers-to-device-memory: the host would read or write a GPU buffer here; on the CUDA path every access to a buffer runs in a kernel}}
  %x = memref.load %a[%c0] : memref<4xf32>
  // expected-error @+1 {{the host would read or write a GPU buffer here}}
  memref.store %x, %out[%c0] : memref<4xf32>
  // A copy that is not between two whole buffers stays on the host.
  // expected-error @+1 {{the host would read or write a GPU buffer here}}
  memref.copy %strided, %out : memref<4xf32, strided<[2]>> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}
