// RUN: amp-opt %s --split-input-file --amp-lower-ops | FileCheck %s

// CHECK-LABEL: func.func @markers
// CHECK-NOT: amp.grad
// CHECK-NOT: amp.loss_grad
// CHECK: %[[ONE:.*]] = arith.constant dense<1.000000e+00> : tensor<1xf32>
// CHECK: return %[[ONE]], %arg0
func.func @markers(%w: tensor<4xf32> {amp.param}, %l: tensor<1xf32>) -> (tensor<1xf32>, tensor<4xf32>) {
  %seed = amp.loss_grad %l : tensor<1xf32>
  %g = amp.grad %w {param = 0 : i64} : tensor<4xf32>
  return %seed, %g : tensor<1xf32>, tensor<4xf32>
}

// -----

// Unscale: multiply by 1/scale in f32 (an f16 gradient is widened and
// narrowed), and a chain of any-non-finite reductions over all gradients;
// a gradient of rank >= 2 is reduced row by row first (a parallel loop,
// a kernel on the GPU), then its row flags.
// CHECK-LABEL: func.func @unscale
// CHECK-DAG: %[[NOINF:.*]] = arith.constant dense<false> : tensor<i1>
// CHECK-DAG: %[[NOROWS:.*]] = arith.constant dense<false> : tensor<4xi1>
// CHECK-DAG: %[[S:.*]] = tensor.extract %arg2[] : tensor<f32>
// CHECK: %[[INV:.*]] = arith.divf %{{.*}}, %[[S]] : f32
// CHECK: %[[U0:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK:   arith.mulf %{{.*}}, %[[INV]] : f32
// CHECK: %[[ROWS:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>) outs(%[[NOROWS]] : tensor<4xi1>)
// CHECK:   %[[A:.*]] = math.absf %{{.*}} : f32
// CHECK:   %[[NF:.*]] = arith.cmpf uge, %[[A]], %{{.*}} : f32
// CHECK:   arith.ori %{{.*}}, %[[NF]] : i1
// CHECK: %[[F0:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[ROWS]] : tensor<4xi1>) outs(%[[NOINF]] : tensor<i1>)
// CHECK:   arith.ori
// CHECK: %[[U1:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<?xf16>)
// CHECK:   arith.extf %{{.*}} : f16 to f32
// CHECK:   arith.mulf
// CHECK:   arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[F1:.*]] = linalg.generic {{.*}} ins(%arg1 : tensor<?xf16>) outs(%[[F0]] : tensor<i1>)
// CHECK: return %[[U0]], %[[U1]], %[[F1]]
func.func @unscale(%g0: tensor<4x8xf32>, %g1: tensor<?xf16>, %s: tensor<f32>) -> (tensor<4x8xf32>, tensor<?xf16>, tensor<i1>) {
  %u:2, %inf = amp.unscale %g0, %g1 by %s : tensor<4x8xf32>, tensor<?xf16>
  return %u#0, %u#1, %inf : tensor<4x8xf32>, tensor<?xf16>, tensor<i1>
}

// -----

// CHECK-LABEL: func.func @skip
// CHECK: %[[INF:.*]] = tensor.extract %arg0[] : tensor<i1>
// CHECK: %[[R:.*]] = arith.select %[[INF]], %arg1, %arg2 : tensor<4xf32>
// CHECK: return %[[R]]
func.func @skip(%inf: tensor<i1>, %old: tensor<4xf32>, %new: tensor<4xf32>) -> tensor<4xf32> {
  %r = amp.skip_if_inf %inf, %old, %new : tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// The scale update is scalar arith; its results are rank-0 tensors again.
// (It is executed in test/Integration/CPU/scale-update.mlir.)
// CHECK-LABEL: func.func @update
// CHECK-NOT: amp.update_scale
// CHECK-DAG: arith.mulf %{{.*}}, %{{.*}} : f32
// CHECK-DAG: arith.maximumf
// CHECK-DAG: arith.cmpi eq
// CHECK: %[[NS:.*]] = tensor.from_elements %{{.*}} : tensor<f32>
// CHECK: %[[NT:.*]] = tensor.from_elements %{{.*}} : tensor<i32>
// CHECK: return %[[NS]], %[[NT]]
func.func @update(%inf: tensor<i1>, %s: tensor<f32>, %t: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %ns, %nt = amp.update_scale %inf, %s, %t {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32, growth_interval = 2000 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
  return %ns, %nt : tensor<f32>, tensor<i32>
}

// -----

// A bucket of several tensors becomes one 1-D tensor (each flattened into
// its slice), reduced once, and sliced and reshaped back. A 1-D bucket of
// one tensor is already packed; a rank-0 flag is one element.
// CHECK-LABEL: func.func @all_reduce_bucket
// CHECK-SAME: (%[[W:.*]]: tensor<4x4xf32>, %[[B:.*]]: tensor<4xf32>, %[[F:.*]]: tensor<i1>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<20xf32>
// CHECK: %[[WF:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0, 1]] : tensor<4x4xf32> into tensor<16xf32>
// CHECK: %[[P0:.*]] = tensor.insert_slice %[[WF]] into %[[E]][0] [16] [1]
// CHECK: %[[P1:.*]] = tensor.insert_slice %[[B]] into %[[P0]][16] [4] [1]
// CHECK: %[[R:.*]] = amp.all_reduce mean %[[P1]] : tensor<20xf32>
// CHECK: %[[RW:.*]] = tensor.extract_slice %[[R]][0] [16] [1]
// CHECK: tensor.expand_shape %[[RW]] {{\[\[}}0, 1]] output_shape [4, 4] : tensor<16xf32> into tensor<4x4xf32>
// CHECK: tensor.extract_slice %[[R]][16] [4] [1]
// CHECK: %[[FE:.*]] = tensor.expand_shape %[[F]] [] output_shape [1] : tensor<i1> into tensor<1xi1>
// CHECK: %[[FR:.*]] = amp.all_reduce max %{{.*}} : tensor<1xi1>
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1xi1> into tensor<i1>
// CHECK: amp.all_reduce sum %[[B]] : tensor<4xf32>
// CHECK-NOT: amp.all_reduce
func.func @all_reduce_bucket(%w: tensor<4x4xf32>, %b: tensor<4xf32>, %f: tensor<i1>)
    -> (tensor<4x4xf32>, tensor<4xf32>, tensor<i1>, tensor<4xf32>) {
  %g:2 = amp.all_reduce mean %w, %b : tensor<4x4xf32>, tensor<4xf32>
  %any = amp.all_reduce max %f : tensor<i1>
  %s = amp.all_reduce sum %b : tensor<4xf32>
  return %g#0, %g#1, %any, %s : tensor<4x4xf32>, tensor<4xf32>, tensor<i1>, tensor<4xf32>
}
