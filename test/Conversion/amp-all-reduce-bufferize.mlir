// RUN: amp-opt %s --amp-lower-ops --one-shot-bufferize="bufferize-function-boundaries" | FileCheck %s

// One-shot bufferization turns each packed bucket into one in-place call
// of the runtime's all-reduce for its element type
// (runtime/include/amprt_collectives.def), on a fully dynamic 1-D view;
// the reduction is passed as amprt_comm.h's value (mean = 1, max = 2).
// CHECK-DAG: func.func private @amp_rt_all_reduce_f32(memref<?xf32, strided<[?], offset: ?>>, i32) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @amp_rt_all_reduce_bf16(memref<?xbf16, strided<[?], offset: ?>>, i32) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @amp_rt_all_reduce_i1(memref<?xi1, strided<[?], offset: ?>>, i32) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @buckets
// CHECK: %[[PACKED:.*]] = memref.alloc() {{.*}} : memref<20xf32>
// CHECK: %[[VIEW:.*]] = memref.cast %[[PACKED]] : memref<20xf32> to memref<?xf32, strided<[?], offset: ?>>
// CHECK: %[[MEAN:.*]] = arith.constant 1 : i32
// CHECK: call @amp_rt_all_reduce_f32(%[[VIEW]], %[[MEAN]])
// CHECK: %[[MAX:.*]] = arith.constant 2 : i32
// CHECK: call @amp_rt_all_reduce_i1(%{{.*}}, %[[MAX]])
// CHECK: call @amp_rt_all_reduce_bf16(
// CHECK-NOT: amp.all_reduce
func.func @buckets(%w: tensor<4x4xf32>, %b: tensor<4xf32>, %f: tensor<i1>,
                   %h: tensor<8xbf16>)
    -> (tensor<4x4xf32>, tensor<4xf32>, tensor<i1>, tensor<8xbf16>) {
  %g:2 = amp.all_reduce mean %w, %b : tensor<4x4xf32>, tensor<4xf32>
  %any = amp.all_reduce max %f : tensor<i1>
  %s = amp.all_reduce sum %h : tensor<8xbf16>
  return %g#0, %g#1, %any, %s : tensor<4x4xf32>, tensor<4xf32>, tensor<i1>, tensor<8xbf16>
}
