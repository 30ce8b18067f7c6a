// RUN: amp-opt %s --split-input-file --amp-data-parallel | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-data-parallel="bucket-mb=0.00001" | FileCheck %s --check-prefix=SMALL
// RUN: amp-opt %s --split-input-file --amp-data-parallel="reduce-type=bf16" | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %s --split-input-file --amp-loss-scaling --amp-data-parallel | FileCheck %s --check-prefix=SCALED

// Two params whose gradients the backward pass produces last layer first
// (%d2, then %d1); SGD with the learning rate as a rank-0 argument, the
// same on every rank.
// CHECK-LABEL: func.func @two_layers
// CHECK-SAME: (%{{[^:]*}}: tensor<4x8xf32>, %{{[^:]*}}: tensor<1x8xf32> {amp.param}, %{{[^:]*}}: tensor<1x8xf32> {amp.param}, %{{[^:]*}}: tensor<f32>)
// One bucket (25 MiB by default), issued right after the last gradient
// exists, in the order the backward produced them; amp.grad marks the
// averaged gradients.
// CHECK: %[[D2:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<4x8xf32>)
// CHECK: %[[D1:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]]:2 = amp.all_reduce mean %[[D2]], %[[D1]] : tensor<1x8xf32>, tensor<1x8xf32>
// CHECK-NOT: amp.all_reduce
// CHECK: amp.grad %[[R]]#1 {param = 1 : i64}
// CHECK: amp.grad %[[R]]#0 {param = 2 : i64}
// The updates read only averaged gradients, params and the learning rate:
// they are the same on every rank and are not reduced. The loss is the
// rank's own: it is averaged just before the return.
// CHECK: %[[L:.*]] = amp.all_reduce mean %[[LOSS:.*]] : tensor<1x1xf32>
// CHECK-NEXT: return %[[L]], %{{.*}}, %{{.*}} :
// CHECK-NOT: amp.all_reduce

// A bucket limit below one gradient's size: one bucket each.
// SMALL-LABEL: func.func @two_layers
// SMALL: amp.all_reduce mean %{{.*}} : tensor<1x8xf32>
// SMALL-NEXT: tosa.mul
// SMALL-NEXT: tosa.reduce_sum
// SMALL-NEXT: amp.all_reduce mean %{{.*}} : tensor<1x8xf32>

// 16-bit gradient reduction: converted before the collective, back after.
// BF16-LABEL: func.func @two_layers
// BF16: %[[A:.*]] = arith.truncf %{{.*}} : tensor<1x8xf32> to tensor<1x8xbf16>
// BF16-NEXT: %[[B:.*]] = arith.truncf %{{.*}} : tensor<1x8xf32> to tensor<1x8xbf16>
// BF16-NEXT: %[[R:.*]]:2 = amp.all_reduce mean %[[A]], %[[B]] : tensor<1x8xbf16>, tensor<1x8xbf16>
// BF16-NEXT: arith.extf %[[R]]#0 : tensor<1x8xbf16> to tensor<1x8xf32>
// BF16-NEXT: arith.extf %[[R]]#1 : tensor<1x8xbf16> to tensor<1x8xf32>
// The loss is averaged in its own type.
// BF16: amp.all_reduce mean %{{.*}} : tensor<1x1xf32>

// After loss scaling: the scaled gradients are averaged before the unscale,
// and the overflow decision is every rank's.
// SCALED-LABEL: func.func @two_layers
// SCALED: %[[R:.*]]:2 = amp.all_reduce mean
// SCALED: %[[U:.*]]:2, %[[INF:.*]] = amp.unscale
// SCALED-NEXT: %[[GINF:.*]] = amp.all_reduce max %[[INF]] : tensor<i1>
// SCALED: amp.skip_if_inf %[[GINF]]
// SCALED: amp.update_scale %[[GINF]]
// SCALED: return {{.*}}, %[[GINF]] :
func.func @two_layers(%x: tensor<4x8xf32>, %w1: tensor<1x8xf32> {amp.param},
                      %w2: tensor<1x8xf32> {amp.param}, %lr: tensor<f32>)
    -> (tensor<1x1xf32> {amp.loss}, tensor<1x8xf32> {amp.update_of = 1 : i64},
        tensor<1x8xf32> {amp.update_of = 2 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %h = tosa.mul %x, %w1, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %o = tosa.mul %h, %w2, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %s = tosa.reduce_sum %o {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %l = tosa.reduce_sum %s {axis = 0 : i32} : (tensor<4x1xf32>) -> tensor<1x1xf32>
  %seed = amp.loss_grad %l : tensor<1x1xf32>
  %dh2 = tosa.mul %h, %seed, %shift : (tensor<4x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %d2 = tosa.reduce_sum %dh2 {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %dx = tosa.mul %x, %w2, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %d1 = tosa.reduce_sum %dx {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %g1 = amp.grad %d1 {param = 1 : i64} : tensor<1x8xf32>
  %g2 = amp.grad %d2 {param = 2 : i64} : tensor<1x8xf32>
  %rate = tensor.extract %lr[] : tensor<f32>
  %rates = tensor.splat %rate : tensor<1x8xf32>
  %step1 = arith.mulf %g1, %rates : tensor<1x8xf32>
  %nw1 = arith.subf %w1, %step1 : tensor<1x8xf32>
  %step2 = arith.mulf %g2, %rates : tensor<1x8xf32>
  %nw2 = arith.subf %w2, %step2 : tensor<1x8xf32>
  return %l, %nw1, %nw2 : tensor<1x1xf32>, tensor<1x8xf32>, tensor<1x8xf32>
}

// -----

// A running statistic computed from the batch (like batch norm's) is a
// rank-local update: averaged before it is returned. An `amp.grad` placed
// before its bucket's last gradient exists moves after the reduction, with
// the optimizer op that reads it.
// CHECK-LABEL: func.func @running_stat
// CHECK: amp.loss_grad
// CHECK: %[[DV:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<4x8xf32>)
// CHECK: %[[DW:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]]:2 = amp.all_reduce mean %[[DV]], %[[DW]]
// CHECK-NEXT: %[[GV:.*]] = amp.grad %[[R]]#0 {param = 2 : i64}
// CHECK-NEXT: arith.subf %{{.*}}, %[[GV]]
// CHECK-NEXT: %[[GW:.*]] = amp.grad %[[R]]#1 {param = 1 : i64}
// The loss and the statistic travel in one bucket (both f32).
// CHECK: %[[NS:.*]] = arith.addf
// CHECK-NEXT: %[[R:.*]]:2 = amp.all_reduce mean %{{.*}}, %[[NS]] : tensor<1x1xf32>, tensor<1x8xf32>
// CHECK-NEXT: return %[[R]]#0, %{{.*}}, %{{.*}}, %[[R]]#1 :

// After loss scaling the statistic is averaged before `amp.skip_if_inf`,
// so that a skipped step returns the old value bit for bit.
// SCALED-LABEL: func.func @running_stat
// SCALED: %[[GINF:.*]] = amp.all_reduce max
// SCALED: %[[NS:.*]] = arith.addf
// SCALED: %[[S:.*]]:2 = amp.all_reduce mean %{{.*}}, %[[NS]] : tensor<1x1xf32>, tensor<1x8xf32>
// SCALED-NEXT: amp.skip_if_inf %[[GINF]], %{{.*}}, %[[S]]#1 : tensor<1x8xf32>
func.func @running_stat(%x: tensor<4x8xf32>, %w: tensor<1x8xf32> {amp.param},
                        %v: tensor<1x8xf32> {amp.param},
                        %stat: tensor<1x8xf32> {amp.state})
    -> (tensor<1x1xf32> {amp.loss}, tensor<1x8xf32> {amp.update_of = 1 : i64},
        tensor<1x8xf32> {amp.update_of = 2 : i64},
        tensor<1x8xf32> {amp.update_of = 3 : i64}) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %h = tosa.mul %x, %w, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %mean = tosa.reduce_sum %h {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %o = tosa.mul %h, %v, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %s = tosa.reduce_sum %o {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %l = tosa.reduce_sum %s {axis = 0 : i32} : (tensor<4x1xf32>) -> tensor<1x1xf32>
  %seed = amp.loss_grad %l : tensor<1x1xf32>
  %dh = tosa.mul %h, %seed, %shift : (tensor<4x8xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %dv = tosa.reduce_sum %dh {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %gv = amp.grad %dv {param = 2 : i64} : tensor<1x8xf32>
  %nv = arith.subf %v, %gv : tensor<1x8xf32>
  %dx = tosa.mul %x, %v, %shift : (tensor<4x8xf32>, tensor<1x8xf32>, tensor<1xi8>) -> tensor<4x8xf32>
  %dw = tosa.reduce_sum %dx {axis = 0 : i32} : (tensor<4x8xf32>) -> tensor<1x8xf32>
  %gw = amp.grad %dw {param = 1 : i64} : tensor<1x8xf32>
  %nw = arith.subf %w, %gw : tensor<1x8xf32>
  %ns = arith.addf %stat, %mean : tensor<1x8xf32>
  return %l, %nw, %nv, %ns : tensor<1x1xf32>, tensor<1x8xf32>, tensor<1x8xf32>, tensor<1x8xf32>
}
