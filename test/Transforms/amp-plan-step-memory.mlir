// RUN: amp-opt %s --split-input-file --amp-plan-step-memory | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-plan-step-memory=alignment=64 | FileCheck %s --check-prefix=ALIGN64

// Three buffers: %a and %b live together, %c only after %a's dealloc, so
// %c takes %a's bytes. Slots are 256-byte aligned: %a at 0 (64 bytes),
// %b at 256 (400 bytes), %c at 0; the workspace is 768 bytes, the last
// argument. The deallocs go.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[WS:.*]]: memref<768xi8>)
// CHECK-SAME: amp.workspace_bytes = 768 : i64
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<768xi8> to memref<16xf32>
// CHECK: %[[C256:.*]] = arith.constant 256 : index
// CHECK: %[[B:.*]] = memref.view %[[WS]][%[[C256]]][] : memref<768xi8> to memref<100xf32>
// CHECK: call @use16(%[[A]])
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[C:.*]] = memref.view %[[WS]][%[[ZERO]]][] : memref<768xi8> to memref<8xf16>
// CHECK: call @use100(%[[B]])
// CHECK: call @use8(%[[C]])
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: return
// With 64-byte slots %b goes right after %a: 64 + 400 -> 512 bytes.
// ALIGN64-LABEL: func.func @step
// ALIGN64-SAME: memref<512xi8>
// ALIGN64-SAME: amp.workspace_bytes = 512 : i64
func.func private @use16(memref<16xf32>)
func.func private @use100(memref<100xf32>)
func.func private @use8(memref<8xf16>)
func.func @step(%in: memref<16xf32>) {
  %a = memref.alloc() {alignment = 64 : i64} : memref<16xf32>
  %b = memref.alloc() : memref<100xf32>
  call @use16(%a) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<16xf32>
  %c = memref.alloc() : memref<8xf16>
  call @use100(%b) : (memref<100xf32>) -> ()
  call @use8(%c) : (memref<8xf16>) -> ()
  memref.dealloc %b : memref<100xf32>
  memref.dealloc %c : memref<8xf16>
  return
}

// -----

// A constant gets a slot, filled by a copy (the GPU runs it); the global
// itself is then only copied from.
// CHECK-LABEL: func.func @constant
// CHECK-SAME: (%[[WS:.*]]: memref<256xi8>)
// CHECK: %[[G:.*]] = memref.get_global @table : memref<4xi32>
// CHECK: %[[V:.*]] = memref.view %[[WS]]
// CHECK: memref.copy %[[G]], %[[V]]
// CHECK: call @use(%[[V]])
memref.global "private" constant @table : memref<4xi32> = dense<[0, 1, 2, 3]>
func.func private @use(memref<4xi32>)
func.func @constant() {
  %t = memref.get_global @table : memref<4xi32>
  call @use(%t) : (memref<4xi32>) -> ()
  return
}

// -----

// Left as they are: a dynamic shape, a returned buffer, an allocation in a
// loop, a private function's buffer; with nothing to plan a function gets
// no workspace.
// CHECK-LABEL: func.func @unplanned
// CHECK-SAME: (%[[N:.*]]: index) -> memref<4xf32> {
// CHECK-NOT: amp.workspace_bytes
// CHECK: memref.alloc(%[[N]]) : memref<?xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: scf.for
// CHECK:   memref.alloc() : memref<2xf32>
// CHECK-LABEL: func.func private @helper()
// CHECK: memref.alloc() : memref<8xf32>
func.func @unplanned(%n: index) -> memref<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  %r = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %n step %c1 {
    %l = memref.alloc() : memref<2xf32>
    memref.dealloc %l : memref<2xf32>
  }
  return %r : memref<4xf32>
}
func.func private @helper() {
  %h = memref.alloc() : memref<8xf32>
  memref.dealloc %h : memref<8xf32>
  return
}
