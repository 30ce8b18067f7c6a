// RUN: amp-opt %s --split-input-file --amp-plan-step-memory | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-plan-step-memory=alignment=64 | FileCheck %s --check-prefix=ALIGN64
// RUN: amp-opt %s --split-input-file --amp-plan-step-memory=constants=false | FileCheck %s --check-prefix=NOCONST

// Three buffers: %a and %b live together, %c only after %a's last use
// (and while %b is still read), so %c takes %a's bytes. Largest first, in
// 256-byte slots: %b at 0 (400 bytes), %a at 512 (64 bytes), %c at 512;
// the workspace is 768 bytes, the last argument. The deallocs go.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[WS:.*]]: memref<768xi8>)
// CHECK-SAME: amp.workspace_bytes = 768 : i64
// CHECK: %[[C512:.*]] = arith.constant 512 : index
// CHECK: %[[A:.*]] = memref.view %[[WS]][%[[C512]]][] : memref<768xi8> to memref<16xf32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[B:.*]] = memref.view %[[WS]][%[[C0]]][] : memref<768xi8> to memref<100xf32>
// CHECK: call @use16(%[[A]])
// CHECK: call @use100(%[[B]])
// CHECK: call @use16(%[[A]])
// CHECK: %[[AGAIN:.*]] = arith.constant 512 : index
// CHECK: %[[C:.*]] = memref.view %[[WS]][%[[AGAIN]]][] : memref<768xi8> to memref<8xf16>
// CHECK: call @use8(%[[C]])
// CHECK: call @use100(%[[B]])
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: return
// With 64-byte slots %a goes right after %b: 448 + 64 -> 512 bytes.
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
  call @use100(%b) : (memref<100xf32>) -> ()
  call @use16(%a) : (memref<16xf32>) -> ()
  %c = memref.alloc() : memref<8xf16>
  call @use8(%c) : (memref<8xf16>) -> ()
  call @use100(%b) : (memref<100xf32>) -> ()
  // Buffer deallocation frees everything at the end: liveness is the last
  // use, not the dealloc.
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<100xf32>
  memref.dealloc %c : memref<8xf16>
  return
}

// -----

// A constant gets a slot no buffer shares (a buffer that lives while the
// constant is not used still gets bytes of its own), filled once per
// workspace by @constant_init_workspace, which the step names and which is
// exported as the step is; the step itself only reads the slot.
// CHECK-LABEL: func.func @constant
// CHECK-SAME: (%[[WS:.*]]: memref<768xi8>)
// CHECK-SAME: amp.workspace_bytes = 768 : i64
// CHECK-SAME: amp.workspace_init = @constant_init_workspace
// CHECK-SAME: llvm.emit_c_interface
// CHECK-NOT: memref.get_global
// CHECK-NOT: memref.copy
// CHECK: %[[VA:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<768xi8> to memref<64xf32>
// CHECK: call @use_f32(%[[VA]])
// CHECK: %[[V:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<768xi8> to memref<4xi32>
// CHECK: call @use(%[[V]])
// CHECK: %[[V2:.*]] = memref.view %[[WS]][%{{.*}}][] : memref<768xi8> to memref<2xi32>
// CHECK: call @use2(%[[V2]])
// CHECK: return
// CHECK-LABEL: func.func @constant_init_workspace
// CHECK-SAME: (%[[IWS:.*]]: memref<768xi8>)
// CHECK-SAME: llvm.emit_c_interface
// CHECK-DAG: %[[G:.*]] = memref.get_global @table : memref<4xi32>
// CHECK-DAG: %[[G2:.*]] = memref.get_global @table3 : memref<2xi32>
// CHECK-DAG: %[[IV:.*]] = memref.view %[[IWS]][%{{.*}}][] : memref<768xi8> to memref<4xi32>
// CHECK-DAG: %[[IV2:.*]] = memref.view %[[IWS]][%{{.*}}][] : memref<768xi8> to memref<2xi32>
// CHECK-DAG: memref.copy %[[G]], %[[IV]]
// CHECK-DAG: memref.copy %[[G2]], %[[IV2]]
// CHECK-NOT: memref.copy
// CHECK: return
memref.global "private" constant @table : memref<4xi32> = dense<[0, 1, 2, 3]>
memref.global "private" constant @table3 : memref<2xi32> = dense<[4, 5]>
func.func private @use(memref<4xi32>)
func.func private @use2(memref<2xi32>)
func.func private @use_f32(memref<64xf32>)
func.func @constant() attributes {llvm.emit_c_interface} {
  %a = memref.alloc() : memref<64xf32>
  call @use_f32(%a) : (memref<64xf32>) -> ()
  memref.dealloc %a : memref<64xf32>
  %t = memref.get_global @table : memref<4xi32>
  call @use(%t) : (memref<4xi32>) -> ()
  %u = memref.get_global @table3 : memref<2xi32>
  call @use2(%u) : (memref<2xi32>) -> ()
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

// -----

// With constants=false (the CPU, which reads them in place) a constant
// keeps its global and gets no slot.
// NOCONST-LABEL: func.func @constant_in_place
// NOCONST-SAME: (%[[WS:.*]]: memref<256xi8>)
// NOCONST-SAME: amp.workspace_bytes = 256 : i64
// NOCONST: %[[G:.*]] = memref.get_global @table2 : memref<4xi32>
// NOCONST-NOT: memref.copy
// NOCONST: call @use(%[[G]])
// NOCONST: %[[V:.*]] = memref.view %[[WS]]
// NOCONST: call @use(%[[V]])
memref.global "private" constant @table2 : memref<4xi32> = dense<[0, 1, 2, 3]>
func.func private @use(memref<4xi32>)
func.func @constant_in_place() {
  %t = memref.get_global @table2 : memref<4xi32>
  call @use(%t) : (memref<4xi32>) -> ()
  %a = memref.alloc() : memref<4xi32>
  call @use(%a) : (memref<4xi32>) -> ()
  memref.dealloc %a : memref<4xi32>
  return
}

// -----

// Kept as allocations: a buffer freed in a branch or through a view of it
// (the workspace must never be freed), and every buffer of a public
// function that something in the module calls (its callers pass no
// workspace); the caller itself is planned.
// CHECK-LABEL: func.func @freed_elsewhere
// CHECK-NOT: amp.workspace_bytes
// CHECK: memref.alloc() : memref<4xf32>
// CHECK: memref.alloc() : memref<2x2xf32>
// CHECK-LABEL: func.func @called
// CHECK-NOT: amp.workspace_bytes
// CHECK: memref.alloc() : memref<8xf32>
// CHECK-LABEL: func.func @caller
// CHECK-SAME: memref<256xi8>
// CHECK-NOT: memref.alloc
// CHECK: call @called()
func.func private @use4(memref<4xf32>)
func.func @freed_elsewhere(%flag: i1) {
  %a = memref.alloc() : memref<4xf32>
  call @use4(%a) : (memref<4xf32>) -> ()
  scf.if %flag {
    memref.dealloc %a : memref<4xf32>
  }
  %b = memref.alloc() : memref<2x2xf32>
  %flat = memref.collapse_shape %b [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  call @use4(%flat) : (memref<4xf32>) -> ()
  memref.dealloc %flat : memref<4xf32>
  return
}
func.func private @use8f(memref<8xf32>)
func.func @called() {
  %a = memref.alloc() : memref<8xf32>
  call @use8f(%a) : (memref<8xf32>) -> ()
  memref.dealloc %a : memref<8xf32>
  return
}
func.func @caller() {
  %a = memref.alloc() : memref<8xf32>
  call @use8f(%a) : (memref<8xf32>) -> ()
  memref.dealloc %a : memref<8xf32>
  call @called() : () -> ()
  return
}

// -----

// A buffer lives until the last use of its views: %a's bytes are written
// through a reshape before %b exists and read after it, so the two do not
// share; %c, first used after that read, reuses bytes.
// CHECK-LABEL: func.func @through_views
// CHECK-SAME: memref<512xi8>
// CHECK: %[[OA:.*]] = arith.constant 0 : index
// CHECK: memref.view %{{.*}}[%[[OA]]][] : memref<512xi8> to memref<4x4xf32>
// CHECK: memref.collapse_shape
// CHECK: %[[OB:.*]] = arith.constant 256 : index
// CHECK: memref.view %{{.*}}[%[[OB]]][] : memref<512xi8> to memref<16xf32>
// CHECK: %[[OC:.*]] = arith.constant 0 : index
// CHECK: memref.view %{{.*}}[%[[OC]]][] : memref<512xi8> to memref<16xf32>
func.func private @use16f(memref<16xf32>)
func.func @through_views() {
  %a = memref.alloc() : memref<4x4xf32>
  %flat = memref.collapse_shape %a [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  call @use16f(%flat) : (memref<16xf32>) -> ()
  %b = memref.alloc() : memref<16xf32>
  call @use16f(%b) : (memref<16xf32>) -> ()
  call @use16f(%flat) : (memref<16xf32>) -> ()
  %c = memref.alloc() : memref<16xf32>
  call @use16f(%c) : (memref<16xf32>) -> ()
  memref.dealloc %a : memref<4x4xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<16xf32>
  return
}

// -----

// A buffer's bytes are taken at the first op that may read or write it,
// not at its allocation or the views made of it (bufferization puts them
// long before): %early, allocated first and viewed at once, shares bytes
// with %b, whose last use comes before %early's first.
// CHECK-LABEL: func.func @first_access
// CHECK-SAME: memref<256xi8>
// CHECK-SAME: amp.workspace_bytes = 256 : i64
// CHECK-COUNT-2: memref.view %{{.*}}[%{{.*}}][] : memref<256xi8>
func.func private @use16g(memref<16xf32>)
func.func private @use4x4(memref<4x4xf32>)
func.func @first_access() {
  %early = memref.alloc() : memref<16xf32>
  %view = memref.expand_shape %early [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %b = memref.alloc() : memref<16xf32>
  call @use16g(%b) : (memref<16xf32>) -> ()
  call @use4x4(%view) : (memref<4x4xf32>) -> ()
  return
}
