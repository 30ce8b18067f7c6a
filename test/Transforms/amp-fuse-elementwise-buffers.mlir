// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-fuse-elementwise-buffers))' | FileCheck %s
// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-fuse-elementwise-buffers{keep-lifetimes=true}))' | FileCheck %s --check-prefix=KEEP

// An optimizer's update of one parameter after bufferization: the momentum
// (into its out-param), the parameter update (into a temporary) and the
// skip-on-overflow select become one loop nest. The later bodies take the
// values the earlier ones yield instead of re-reading the buffers, the
// temporary is gone, the flag's load moves above the merged op.
// CHECK-LABEL: func.func @momentum_update_select
// CHECK-SAME: (%[[G:[^:]*]]: memref<8xf32>, %[[MIN:[^:]*]]: memref<8xf32>, %[[PIN:[^:]*]]: memref<8xf32>, %[[SKIP:[^:]*]]: memref<i1>, %[[MOUT:[^:]*]]: memref<8xf32>, %[[POUT:[^:]*]]: memref<8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: %[[S:.*]] = memref.load %[[SKIP]][]
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[G]], %[[MIN]], %[[PIN]], %[[PIN]] :
// CHECK-SAME: outs(%[[MOUT]], %[[POUT]] :
// CHECK-NEXT: ^bb0(%[[g:.*]]: f32, %[[m:.*]]: f32, %[[p:.*]]: f32, %[[p2:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[DECAY:.*]] = arith.mulf %[[m]]
// CHECK-NEXT: %[[MNEW:.*]] = arith.addf %[[DECAY]], %[[g]]
// CHECK-NEXT: %[[STEP:.*]] = arith.mulf %[[MNEW]]
// CHECK-NEXT: %[[PNEW:.*]] = arith.subf %[[p]], %[[STEP]]
// CHECK-NEXT: %[[SEL:.*]] = arith.select %[[S]], %[[p2]], %[[PNEW]]
// CHECK-NEXT: linalg.yield %[[MNEW]], %[[SEL]] : f32, f32
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.alloc
// CHECK: return
#id = affine_map<(d0) -> (d0)>
func.func @momentum_update_select(%g: memref<8xf32>, %m_in: memref<8xf32>, %p_in: memref<8xf32>, %skip: memref<i1>, %m_out: memref<8xf32>, %p_out: memref<8xf32>) {
  %mu = arith.constant 0.9 : f32
  %lr = arith.constant 0.1 : f32
  %tmp = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%g, %m_in : memref<8xf32>, memref<8xf32>) outs(%m_out : memref<8xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %0 = arith.mulf %m, %mu : f32
    %1 = arith.addf %0, %a : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%p_in, %m_out : memref<8xf32>, memref<8xf32>) outs(%tmp : memref<8xf32>) {
  ^bb0(%p: f32, %m: f32, %o: f32):
    %0 = arith.mulf %m, %lr : f32
    %1 = arith.subf %p, %0 : f32
    linalg.yield %1 : f32
  }
  %s = memref.load %skip[] : memref<i1>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%p_in, %tmp : memref<8xf32>, memref<8xf32>) outs(%p_out : memref<8xf32>) {
  ^bb0(%p: f32, %t: f32, %o: f32):
    %0 = arith.select %s, %p, %t : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The later op moves above an op it does not conflict with (another
// domain, other buffers); a buffer both write is written once, with the
// later value; a broadcast input stays a broadcast.
// CHECK-LABEL: func.func @moves_past_unrelated
// CHECK-SAME: (%[[A:[^:]*]]: memref<4x8xf32>, %[[ROW:[^:]*]]: memref<8xf32>, %[[B:[^:]*]]: memref<4x8xf32>, %[[OTHER:[^:]*]]: memref<3xf32>)
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[A]], %[[ROW]] :
// CHECK-SAME: outs(%[[B]] :
// CHECK: arith.addf
// CHECK: arith.mulf
// CHECK: linalg.yield %{{.*}} : f32
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[OTHER]] :
// CHECK-NOT: linalg.generic
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#id1 = affine_map<(d0) -> (d0)>
func.func @moves_past_unrelated(%a: memref<4x8xf32>, %row: memref<8xf32>, %b: memref<4x8xf32>, %other: memref<3xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%b : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.addf %x, %x : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]} outs(%other : memref<3xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#row, #id2], iterator_types = ["parallel", "parallel"]} ins(%row : memref<8xf32>) outs(%b : memref<4x8xf32>) {
  ^bb0(%r: f32, %o: f32):
    %0 = arith.mulf %o, %r : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Not merged: iteration spaces differ.
// CHECK-LABEL: func.func @different_domains
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @different_domains(%a: memref<8xf32>, %b: memref<4xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%b : memref<4xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Not merged: the later op reads what the earlier one writes transposed
// (element (i, j) needs (j, i), written in another iteration).
// CHECK-LABEL: func.func @transposed_read_of_written
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_read_of_written(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%b : memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Not merged: the later op writes what the earlier one reads transposed
// (element (j, i) is read in iteration (i, j), after the later op would
// have overwritten it).
// CHECK-LABEL: func.func @transposed_read_then_written
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#t = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_read_then_written(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<8x8xf32>) outs(%b : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%a : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Not merged: an op in between writes what the later one reads, reads
// what it writes, or has effects nobody knows (a call).
// CHECK-LABEL: func.func @conflicts_in_between
// CHECK: linalg.generic
// CHECK-SAME: outs(%arg0 :
// CHECK: memref.copy
// CHECK: linalg.generic
// CHECK: memref.copy
// CHECK: linalg.generic
// CHECK: call @opaque
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func private @opaque()
func.func @conflicts_in_between(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>, %d: memref<8xf32>, %e: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  memref.copy %a, %b : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  memref.copy %c, %d : memref<8xf32> to memref<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%c : memref<8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  call @opaque() : () -> ()
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : memref<8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Not merged: the later op reads the written buffer through another view
// of it.
// CHECK-LABEL: func.func @other_view
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @other_view(%a: memref<8xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%a : memref<8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  %view = memref.subview %a[0] [8] [1] : memref<8xf32> to memref<8xf32, strided<[1]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%view : memref<8xf32, strided<[1]>>) outs(%b : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Not merged: the earlier op reads the old contents of its output, which
// the later op overwrites as its own output (the merged op would have only
// one output there, holding the later value).
// CHECK-LABEL: func.func @overwritten_accumulator
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @overwritten_accumulator(%b: memref<8xf32>, %c: memref<8xf32>) {
  %one = arith.constant 1.0 : f32
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%c : memref<8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.addf %o, %one : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%b : memref<8xf32>) outs(%c : memref<8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// Not merged: the later op reads the written buffer through a transposed
// view (memref.transpose is a view although not a ViewLikeOpInterface).
// CHECK-LABEL: func.func @transposed_view
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_view(%a: memref<8x8xf32>, %b: memref<8x8xf32>) {
  %t = memref.transpose %a (i, j) -> (j, i) : memref<8x8xf32> to memref<8x8xf32, strided<[1, 8]>>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%a : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %0 = arith.negf %o : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<8x8xf32, strided<[1, 8]>>) outs(%b : memref<8x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

// A bias add reading its bias as a broadcast row ((d0, d1) -> (0, d1)) and
// the ReLU after it, whose buffer is allocated between them: one op, the
// allocation moved above it, the pre-activation still written (it has
// another reader).
// CHECK-LABEL: func.func @bias_relu
// CHECK-SAME: (%[[X:[^:]*]]: memref<4x8xf16>, %[[BIAS:[^:]*]]: memref<1x8xf32>,
// CHECK: %[[PRE:.*]] = memref.alloc() : memref<4x8xf16>
// CHECK: %[[ACT:.*]] = memref.alloc() : memref<4x8xf16>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ROW:.*]], #{{.*}}, #{{.*}}]
// CHECK-SAME: ins(%[[X]], %[[BIAS]] :
// CHECK-SAME: outs(%[[PRE]], %[[ACT]] :
// CHECK: %[[SUM:.*]] = arith.addf
// CHECK-NEXT: %[[RELU:.*]] = arith.maximumf %[[SUM]]
// CHECK-NEXT: linalg.yield %[[SUM]], %[[RELU]] : f16, f16
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %[[PRE]]
// CHECK: memref.copy %[[ACT]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
func.func @bias_relu(%x: memref<4x8xf16>, %bias: memref<1x8xf32>, %pre_out: memref<4x8xf16>, %act_out: memref<4x8xf16>) {
  %zero = arith.constant 0.0 : f16
  %pre = memref.alloc() : memref<4x8xf16>
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %bias : memref<4x8xf16>, memref<1x8xf32>) outs(%pre : memref<4x8xf16>) {
  ^bb0(%a: f16, %b: f32, %o: f16):
    %0 = arith.truncf %b : f32 to f16
    %1 = arith.addf %a, %0 : f16
    linalg.yield %1 : f16
  }
  %act = memref.alloc() : memref<4x8xf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%pre : memref<4x8xf16>) outs(%act : memref<4x8xf16>) {
  ^bb0(%a: f16, %o: f16):
    %0 = arith.maximumf %a, %zero : f16
    linalg.yield %0 : f16
  }
  memref.copy %pre, %pre_out : memref<4x8xf16> to memref<4x8xf16>
  memref.copy %act, %act_out : memref<4x8xf16> to memref<4x8xf16>
  return
}
// CHECK: #[[ROW]] = affine_map<(d0, d1) -> (0, d1)>

// -----

// A broadcast read of a buffer the earlier op writes reads elements other
// threads of a merged loop would compute: the ops stay apart.
// CHECK-LABEL: func.func @broadcast_read_of_written
// CHECK-COUNT-2: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (0, d1)>
func.func @broadcast_read_of_written(%a: memref<4x8xf32>, %t: memref<4x8xf32>, %b: memref<4x8xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%a : memref<4x8xf32>) outs(%t : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = arith.negf %x : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]} ins(%t : memref<4x8xf32>) outs(%b : memref<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    linalg.yield %x : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Two weights cast to bf16 next to their users (here copies out), sharing
// no buffer. Merged, the second cast moves up to the first and its buffer
// lives across the first copy; with keep-lifetimes it stays by its user.
// The momentum and parameter updates share buffers with the first cast
// (it reads the parameter they write) and join it either way.
// CHECK-LABEL: func.func @casts_by_their_users
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1, %arg2, %arg3, %arg0 : {{.*}}) outs(%{{.+}}, %{{.+}}, %arg2, %arg0 :
// CHECK-NOT: linalg.generic
// KEEP-LABEL: func.func @casts_by_their_users
// KEEP: %[[A:.+]] = memref.alloc
// KEEP-NEXT: linalg.generic {{.*}} ins(%arg0, %arg2, %arg3, %arg0 : {{.*}}) outs(%[[A]], %arg2, %arg0 :
// KEEP: memref.copy %[[A]], %arg4
// KEEP-NEXT: %[[B:.+]] = memref.alloc
// KEEP-NEXT: linalg.generic {{.*}} ins(%arg1 : {{.*}}) outs(%[[B]] :
// KEEP: memref.copy %[[B]], %arg5
// KEEP-NOT: linalg.generic
func.func @casts_by_their_users(%w0: memref<4096xf32>, %w1: memref<4096xf32>,
                                %m: memref<4096xf32>, %g: memref<4096xf32>,
                                %o0: memref<4096xbf16>, %o1: memref<4096xbf16>) {
  %a = memref.alloc() : memref<4096xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w0 : memref<4096xf32>) outs(%a : memref<4096xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.copy %a, %o0 : memref<4096xbf16> to memref<4096xbf16>
  %b = memref.alloc() : memref<4096xbf16>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%w1 : memref<4096xf32>) outs(%b : memref<4096xbf16>) {
  ^bb0(%in: f32, %out: bf16):
    %t = arith.truncf %in : f32 to bf16
    linalg.yield %t : bf16
  }
  memref.copy %b, %o1 : memref<4096xbf16> to memref<4096xbf16>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%m, %g : memref<4096xf32>, memref<4096xf32>) outs(%m : memref<4096xf32>) {
  ^bb0(%mi: f32, %gi: f32, %out: f32):
    %n = arith.addf %mi, %gi : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%w0, %m : memref<4096xf32>, memref<4096xf32>) outs(%w0 : memref<4096xf32>) {
  ^bb0(%wi: f32, %mi: f32, %out: f32):
    %n = arith.subf %wi, %mi : f32
    linalg.yield %n : f32
  }
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// A loss-scaled step: a weight gradient is copied (a transpose the layout
// pass made an identity), the momentum computed from the copy much later
// feeds the skip-on-overflow select, and the overflow check reads the copy
// after it (here a copy out). Merged, the momentum's buffer would be live
// from the copy on, across the work in
// between (a copy here, library calls in a real step): with keep-lifetimes
// the consumer stays where it is.
// CHECK-LABEL: func.func @consumer_across_work
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg2 : {{.*}}) outs(%{{.+}} :
// CHECK-NOT: linalg.generic
// CHECK: memref.copy %arg1, %arg3
// KEEP-LABEL: func.func @consumer_across_work
// KEEP: %[[COPY:.+]] = memref.alloc
// KEEP-NEXT: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%[[COPY]] :
// KEEP: memref.copy %arg1, %arg3
// KEEP-NEXT: %[[MOMENTUM:.+]] = memref.alloc
// KEEP-NEXT: linalg.generic {{.*}} ins(%arg2, %[[COPY]] : {{.*}}) outs(%[[MOMENTUM]] :
func.func @consumer_across_work(%grad: memref<4096xf32>, %act: memref<4096xf32>,
                                %m: memref<4096xf32>, %other: memref<4096xf32>,
                                %out: memref<4096xf32>,
                                %checked: memref<4096xf32>) {
  %copy = memref.alloc() : memref<4096xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%grad : memref<4096xf32>) outs(%copy : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  memref.copy %act, %other : memref<4096xf32> to memref<4096xf32>
  %momentum = memref.alloc() : memref<4096xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%m, %copy : memref<4096xf32>, memref<4096xf32>) outs(%momentum : memref<4096xf32>) {
  ^bb0(%mi: f32, %gi: f32, %o: f32):
    %n = arith.addf %mi, %gi : f32
    linalg.yield %n : f32
  }
  memref.copy %momentum, %out : memref<4096xf32> to memref<4096xf32>
  memref.copy %copy, %checked : memref<4096xf32> to memref<4096xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// The same with per-channel statistics: buffers of at most a page join
// either way (a loop nest saved is worth more than their lifetime).
// CHECK-LABEL: func.func @small_consumer_across_work
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg2 :
// CHECK-NOT: linalg.generic
// KEEP-LABEL: func.func @small_consumer_across_work
// KEEP: linalg.generic {{.*}} ins(%arg0, %arg2 :
// KEEP-NOT: linalg.generic
func.func @small_consumer_across_work(%grad: memref<64xf32>, %act: memref<64xf32>,
                                      %m: memref<64xf32>, %other: memref<64xf32>,
                                      %out: memref<64xf32>,
                                      %checked: memref<64xf32>) {
  %copy = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%grad : memref<64xf32>) outs(%copy : memref<64xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  memref.copy %act, %other : memref<64xf32> to memref<64xf32>
  %momentum = memref.alloc() : memref<64xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%m, %copy : memref<64xf32>, memref<64xf32>) outs(%momentum : memref<64xf32>) {
  ^bb0(%mi: f32, %gi: f32, %o: f32):
    %n = arith.addf %mi, %gi : f32
    linalg.yield %n : f32
  }
  memref.copy %momentum, %out : memref<64xf32> to memref<64xf32>
  memref.copy %copy, %checked : memref<64xf32> to memref<64xf32>
  return
}

// -----

#id = affine_map<(d0) -> (d0)>

// Where only the later op reads what the earlier writes, the merge frees
// that buffer: as many bytes as it makes live longer, so they join.
// CHECK-LABEL: func.func @consumer_frees_producer
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg2 :
// CHECK-NOT: linalg.generic
// KEEP-LABEL: func.func @consumer_frees_producer
// KEEP: linalg.generic {{.*}} ins(%arg0, %arg2 :
// KEEP-NOT: linalg.generic
func.func @consumer_frees_producer(%grad: memref<4096xf32>, %act: memref<4096xf32>,
                                   %m: memref<4096xf32>, %other: memref<4096xf32>,
                                   %out: memref<4096xf32>) {
  %copy = memref.alloc() : memref<4096xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%grad : memref<4096xf32>) outs(%copy : memref<4096xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  memref.copy %act, %other : memref<4096xf32> to memref<4096xf32>
  %momentum = memref.alloc() : memref<4096xf32>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%m, %copy : memref<4096xf32>, memref<4096xf32>) outs(%momentum : memref<4096xf32>) {
  ^bb0(%mi: f32, %gi: f32, %o: f32):
    %n = arith.addf %mi, %gi : f32
    linalg.yield %n : f32
  }
  memref.copy %momentum, %out : memref<4096xf32> to memref<4096xf32>
  return
}
