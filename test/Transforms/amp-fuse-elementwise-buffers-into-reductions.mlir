// RUN: amp-opt %s --split-input-file --mlir-print-local-scope --pass-pipeline='builtin.module(func.func(amp-fuse-elementwise-buffers{into-reductions=true}))' | FileCheck %s
// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-fuse-elementwise-buffers))' | FileCheck %s --check-prefix=DEFAULT

// A softmax's logits (bias add) under their row maximum: one op with the
// reduction's loops; the logits are still written (the exp reads them
// later), the accumulator's fill moves above the merged op, the
// linalg.reduce became a generic.
// CHECK-LABEL: func.func @bias_add_then_row_max
// CHECK-SAME: (%[[X:[^:]*]]: memref<4x8xf32>, %[[B:[^:]*]]: memref<8xf32>, %[[LOGITS:[^:]*]]: memref<4x8xf32>, %[[MAX:[^:]*]]: memref<4xf32>)
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[MAX]] : memref<4xf32>)
// CHECK-NEXT: linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]], %[[B]] :
// CHECK-SAME: outs(%[[LOGITS]], %[[MAX]] :
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[SUM:.*]] = arith.addf
// CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[SUM]], %[[ACC]]
// CHECK-NEXT: linalg.yield %[[SUM]], %[[M]] : f32, f32
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.reduce
// CHECK: return
// DEFAULT-LABEL: func.func @bias_add_then_row_max
// DEFAULT: linalg.generic
// DEFAULT: linalg.fill
// DEFAULT: linalg.reduce
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @bias_add_then_row_max(%x: memref<4x8xf32>, %b: memref<8xf32>, %logits: memref<4x8xf32>, %max: memref<4xf32>) {
  %lowest = arith.constant -3.40282347E+38 : f32
  linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %b : memref<4x8xf32>, memref<8xf32>) outs(%logits : memref<4x8xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%lowest : f32) outs(%max : memref<4xf32>)
  linalg.reduce ins(%logits : memref<4x8xf32>) outs(%max : memref<4xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %0 = arith.maximumf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
}

// -----

// A ReLU gradient under its bias gradient (a sum over the batch, the
// reduction loop outermost): one op; the temporary only the two used is
// gone.
// CHECK-LABEL: func.func @relu_grad_then_bias_grad
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.select
// CHECK-NEXT: arith.addf
// CHECK-NOT: linalg.generic
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @relu_grad_then_bias_grad(%pre: memref<4x8xf32>, %dy: memref<4x8xf32>, %db: memref<8xf32>) {
  %zero = arith.constant 0.0 : f32
  %dx = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%pre, %dy : memref<4x8xf32>, memref<4x8xf32>) outs(%dx : memref<4x8xf32>) {
  ^bb0(%p: f32, %g: f32, %o: f32):
    %0 = arith.cmpf ogt, %p, %zero : f32
    %1 = arith.select %0, %g, %zero : f32
    linalg.yield %1 : f32
  }
  linalg.fill ins(%zero : f32) outs(%db : memref<8xf32>)
  linalg.reduce ins(%dx : memref<4x8xf32>) outs(%db : memref<8xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %0 = arith.addf %in, %acc : f32
      linalg.yield %0 : f32
    }
  return
}

// -----

// Left apart: a GEMM (whose operands do not line up with its loops), a
// reduction with no
// parallel loop (one thread would compute every element), a reduction
// reading the producer's output transposed, and a fill that something in
// between reads.
// CHECK-LABEL: func.func @stay_apart
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK: linalg.fill
// CHECK-NEXT: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "reduction"]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: linalg.fill
// CHECK-NEXT: memref.load
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#tr = affine_map<(d0, d1) -> (d1, d0)>
#row = affine_map<(d0, d1) -> (d0)>
#mm_a = affine_map<(i, j, k) -> (i, k)>
#mm_b = affine_map<(i, j, k) -> (k, j)>
#mm_c = affine_map<(i, j, k) -> (i, j)>
#all = affine_map<(d0, d1) -> ()>
func.func @stay_apart(%x: memref<8x8xf32>, %w: memref<8x8xf32>, %t: memref<8x8xf32>, %y: memref<8x8xf32>, %s: memref<f32>, %r: memref<8xf32>, %u: memref<8x8xf32>, %r2: memref<8xf32>, %out: memref<f32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  // into a contraction
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%t : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<8x8xf32>)
  linalg.generic {indexing_maps = [#mm_a, #mm_b, #mm_c], iterator_types = ["parallel", "parallel", "reduction"]} ins(%t, %w : memref<8x8xf32>, memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  // into a full reduction
  linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%t : memref<8x8xf32>) outs(%s : memref<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  // transposed read of what the producer writes
  linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "reduction"]} ins(%t : memref<8x8xf32>) outs(%r : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  // a fill read in between
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : memref<8x8xf32>) outs(%u : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.negf %a : f32
    linalg.yield %0 : f32
  }
  linalg.fill ins(%zero : f32) outs(%r2 : memref<8xf32>)
  %v = memref.load %r2[%c0] : memref<8xf32>
  memref.store %v, %out[] : memref<f32>
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]} ins(%u : memref<8x8xf32>) outs(%r2 : memref<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %0 = arith.addf %a, %acc : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A multiply-accumulate stays whole even where its operands line up with
// its loops (a batch of dot products): contractions are the libraries'.
// CHECK-LABEL: func.func @into_dot_products
// CHECK-COUNT-2: linalg.generic
// DEFAULT-LABEL: func.func @into_dot_products
// DEFAULT-COUNT-2: linalg.generic
#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @into_dot_products(%x: memref<2x3x4xf32>, %a: memref<2x3x4xf32>, %b: memref<2x3x4xf32>, %c: memref<2x3xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : memref<2x3x4xf32>) outs(%a : memref<2x3x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %0 = arith.negf %v : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #out], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a, %b : memref<2x3x4xf32>, memref<2x3x4xf32>) outs(%c : memref<2x3xf32>) {
  ^bb0(%u: f32, %v: f32, %acc: f32):
    %0 = arith.mulf %u, %v : f32
    %1 = arith.addf %acc, %0 : f32
    linalg.yield %1 : f32
  }
  return
}

