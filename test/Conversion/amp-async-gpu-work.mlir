// RUN: amp-opt %s --split-input-file --amp-async-gpu-work | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-async-gpu-work=wait-before-return=false | FileCheck %s --check-prefix=NOWAIT

// Kernels, a stream-ordered GEMM call and frees form one chain; the host
// waits once, before it loads from memory, and once before returning.
// CHECK-LABEL: func.func @step
// CHECK: %[[A:.*]] = gpu.alloc{{ +}}host_shared () : memref<16xf32>
// CHECK-NEXT: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: %[[K1:.*]] = gpu.launch_func async [%[[S]]] @kernels::@fill
// CHECK-NEXT: call @gemm(%[[A]])
// CHECK-NEXT: %[[K2:.*]] = gpu.launch_func async [%[[K1]]] @kernels::@fill
// CHECK-NEXT: gpu.wait [%[[K2]]]
// CHECK-NEXT: memref.load %[[A]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: %[[S2:.*]] = gpu.wait async
// CHECK-NEXT: %[[K3:.*]] = gpu.launch_func async [%[[S2]]] @kernels::@fill
// CHECK-NEXT: %[[F:.*]] = gpu.dealloc async [%[[K3]]] %[[A]]
// CHECK-NEXT: gpu.wait [%[[F]]]
// CHECK-NEXT: return
// CHECK-NOT: gpu.wait
// Returning with the work queued (amp-compile's artifacts): the wait before
// the host's load stays, the one before the return goes.
// NOWAIT-LABEL: func.func @step
// NOWAIT: gpu.wait [%{{.*}}]
// NOWAIT-NEXT: memref.load
// NOWAIT: gpu.dealloc async
// NOWAIT-NEXT: return
module attributes {gpu.container_module} {
  func.func private @gemm(memref<16xf32>) attributes {amp.stream_ordered}
  func.func @step(%out: memref<f32>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %a = gpu.alloc host_shared () : memref<16xf32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    call @gemm(%a) : (memref<16xf32>) -> ()
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    %v = memref.load %a[%c0] : memref<16xf32>
    memref.store %v, %out[] : memref<f32>
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    %t = gpu.wait async
    %f = gpu.dealloc async [%t] %a : memref<16xf32>
    return
  }
  gpu.module @kernels {
    gpu.func @fill(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A call the pass knows nothing of may touch memory: the queued work is
// waited for first. A GEMM queued alone (no token) is waited for through
// a fresh stream, which the runtime makes the one stream. A host wait
// already there is merged into the chain's.
// CHECK-LABEL: func.func @unknown_call
// CHECK: call @gemm
// CHECK-NEXT: %[[S:.*]] = gpu.wait async
// CHECK-NEXT: gpu.wait [%[[S]]]
// CHECK-NEXT: call @host
// CHECK-NEXT: %[[S2:.*]] = gpu.wait async
// CHECK-NEXT: %[[K:.*]] = gpu.launch_func async [%[[S2]]]
// CHECK-NEXT: gpu.wait [%[[K]]]
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  func.func private @gemm(memref<16xf32>) attributes {amp.stream_ordered}
  func.func private @host(memref<16xf32>)
  func.func @unknown_call(%a: memref<16xf32>) {
    %c1 = arith.constant 1 : index
    call @gemm(%a) : (memref<16xf32>) -> ()
    call @host(%a) : (memref<16xf32>) -> ()
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    %t = gpu.wait async
    gpu.wait [%t]
    return
  }
  gpu.module @kernels {
    gpu.func @fill(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A host loop around launches: waited for before it, a chain of its own
// inside each iteration, and nothing queued after it.
// CHECK-LABEL: func.func @host_loop
// CHECK: %[[K:.*]] = gpu.launch_func async
// CHECK-NEXT: gpu.wait [%[[K]]]
// CHECK-NEXT: scf.for
// CHECK-NEXT:   %[[S:.*]] = gpu.wait async
// CHECK-NEXT:   %[[L:.*]] = gpu.launch_func async [%[[S]]]
// CHECK-NEXT:   gpu.wait [%[[L]]]
// CHECK-NEXT: }
// CHECK-NEXT: return
module attributes {gpu.container_module} {
  func.func @host_loop(%a: memref<16xf32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    scf.for %i = %c0 to %c4 step %c1 {
      gpu.launch_func @kernels::@fill blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<16xf32>)
    }
    return
  }
  gpu.module @kernels {
    gpu.func @fill(%a: memref<16xf32>) kernel {
      gpu.return
    }
  }
}
