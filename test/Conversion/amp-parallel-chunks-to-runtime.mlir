// RUN: amp-opt %s --split-input-file --amp-parallel-chunks-to-runtime --verify-diagnostics | FileCheck %s

// A call of a chunk function over [0, n) becomes amprt_parallel_for with a
// trampoline that unpacks the call's arguments from a struct in the
// caller's frame; a call that does not start at 0 stays as it is.
// CHECK-LABEL: llvm.func @chunk(
// CHECK-NOT: amp.parallel_chunk
// CHECK-LABEL: llvm.func internal @chunk_task(
// CHECK-SAME: %[[CTX:.*]]: !llvm.ptr, %[[B:.*]]: i64, %[[E:.*]]: i64)
// CHECK: %[[A0:.*]] = llvm.getelementptr %[[CTX]][0, 0] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, f32)>
// CHECK: %[[P:.*]] = llvm.load %[[A0]] : !llvm.ptr -> !llvm.ptr
// CHECK: %[[A1:.*]] = llvm.getelementptr %[[CTX]][0, 1] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(ptr, f32)>
// CHECK: %[[X:.*]] = llvm.load %[[A1]] : !llvm.ptr -> f32
// CHECK: llvm.call @chunk(%[[B]], %[[E]], %[[P]], %[[X]])
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @step(
// CHECK-SAME: %[[SP:.*]]: !llvm.ptr, %[[SX:.*]]: f32)
// CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK: %[[S:.*]] = llvm.alloca %[[ONE]] x !llvm.struct<(ptr, f32)> : (i64) -> !llvm.ptr
// CHECK: %[[N:.*]] = llvm.mlir.constant(100 : i64)
// CHECK: %[[F0:.*]] = llvm.getelementptr %[[S]][0, 0]
// CHECK: llvm.store %[[SP]], %[[F0]] : !llvm.ptr, !llvm.ptr
// CHECK: %[[F1:.*]] = llvm.getelementptr %[[S]][0, 1]
// CHECK: llvm.store %[[SX]], %[[F1]] : f32, !llvm.ptr
// CHECK: %[[T:.*]] = llvm.mlir.addressof @chunk_task : !llvm.ptr
// CHECK: llvm.call @amprt_parallel_for(%[[T]], %[[S]], %[[N]]) : (!llvm.ptr, !llvm.ptr, i64) -> ()
// CHECK: llvm.call @chunk(%{{.*}}, %[[N]], %[[SP]], %[[SX]])
// CHECK: llvm.return
// CHECK: llvm.func @amprt_parallel_for(!llvm.ptr, !llvm.ptr, i64)
llvm.func @chunk(%begin: i64, %end: i64, %p: !llvm.ptr, %x: f32) attributes {amp.parallel_chunk} {
  llvm.return
}
llvm.func @step(%p: !llvm.ptr, %x: f32) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %n = llvm.mlir.constant(100 : i64) : i64
  llvm.call @chunk(%c0, %n, %p, %x) : (i64, i64, !llvm.ptr, f32) -> ()
  llvm.call @chunk(%c1, %n, %p, %x) : (i64, i64, !llvm.ptr, f32) -> ()
  llvm.return
}

// -----

// expected-error @+1 {{'amp.parallel_chunk' function must take (i64 begin, i64 end) first}}
llvm.func @bad(%x: f32) attributes {amp.parallel_chunk} {
  llvm.return
}

// -----

// expected-error @+1 {{'amp.parallel_chunk' must be a unit attribute of a function}}
llvm.func @notunit(%b: i64, %e: i64) attributes {amp.parallel_chunk = 1 : i64} {
  llvm.return
}
