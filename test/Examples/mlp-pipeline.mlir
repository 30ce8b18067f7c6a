// The example MLP through --amp-pipeline: one cast per param read low, one
// unscale of all four gradients, one scale update, a skip on every update.
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline=precision=f16 | FileCheck %s
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline=precision=f16 | FileCheck %s --check-prefix=COUNT
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline=precision=bf16 | FileCheck %s --check-prefix=BF16
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline="precision=bf16 loss-scaling=static scale=8" | FileCheck %s --check-prefix=STATIC
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline="precision=f16 cache-working-copy deny=tosa.clamp growth-interval=100" | FileCheck %s --check-prefix=O2

// CHECK-LABEL: func.func @train_step
// CHECK-SAME: (%[[X:[^:]*]]: tensor<64x784xf32>, %[[Y:[^:]*]]: tensor<64x10xf32>, %[[W1:[^:]*]]: tensor<784x256xf32> {amp.param}, %[[B1:[^:]*]]: tensor<1x256xf32> {amp.param}, %[[W2:[^:]*]]: tensor<256x10xf32> {amp.param}, %[[B2:[^:]*]]: tensor<1x10xf32> {amp.param}, %[[S:[^:]*]]: tensor<f32> {amp.scaler = "scale"}, %[[T:[^:]*]]: tensor<i32> {amp.scaler = "growth_tracker"})
// CHECK-SAME: -> (tensor<1x1xf32> {amp.loss}, tensor<784x256xf32> {amp.update_of = 2 : i64}, tensor<1x256xf32> {amp.update_of = 3 : i64}, tensor<256x10xf32> {amp.update_of = 4 : i64}, tensor<1x10xf32> {amp.update_of = 5 : i64}, tensor<f32> {amp.update_of = 6 : i64}, tensor<i32> {amp.update_of = 7 : i64}, tensor<i1> {amp.found_inf})
// CHECK-SAME: attributes {amp.initial_scale = 6.553600e+04 : f32}
// The working copies, at the top (b2 is only read in f32).
// CHECK-NEXT: tosa.cast %[[W1]] : (tensor<784x256xf32>) -> tensor<784x256xf16>
// CHECK-NEXT: tosa.cast %[[B1]] : (tensor<1x256xf32>) -> tensor<1x256xf16>
// CHECK-NEXT: tosa.cast %[[W2]] : (tensor<256x10xf32>) -> tensor<256x10xf16>
// The seed is the scale.
// CHECK: %[[SV:.*]] = tensor.extract %[[S]][] : tensor<f32>
// CHECK: tensor.from_elements %[[SV]] : tensor<1x1xf32>
// CHECK: %[[G1:.*]] = amp.grad %{{.*}} {param = 2 : i64}
// CHECK: %[[G4:.*]] = amp.grad %{{.*}} {param = 5 : i64}
// CHECK-NEXT: %[[U:.*]]:4, %[[INF:.*]] = amp.unscale %{{.*}}, %{{.*}}, %{{.*}}, %[[G4]] by %[[S]]
// The SGD update reads unscaled gradients and the f32 masters.
// CHECK: %[[STEP1:.*]] = tosa.mul %[[U]]#0, %{{.*}}
// CHECK: %[[NW1:.*]] = tosa.sub %[[W1]], %[[STEP1]] : (tensor<784x256xf32>, tensor<784x256xf32>) -> tensor<784x256xf32>
// CHECK: %[[K1:.*]] = amp.skip_if_inf %[[INF]], %[[W1]], %[[NW1]] : tensor<784x256xf32>
// CHECK: %[[K2:.*]] = amp.skip_if_inf %[[INF]], %[[B1]], %{{.*}} : tensor<1x256xf32>
// CHECK: %[[K3:.*]] = amp.skip_if_inf %[[INF]], %[[W2]], %{{.*}} : tensor<256x10xf32>
// CHECK: %[[K4:.*]] = amp.skip_if_inf %[[INF]], %[[B2]], %{{.*}} : tensor<1x10xf32>
// CHECK: %[[NS:.*]], %[[NT:.*]] = amp.update_scale %[[INF]], %[[S]], %[[T]]
// CHECK: return %{{.*}}, %[[K1]], %[[K2]], %[[K3]], %[[K4]], %[[NS]], %[[NT]], %[[INF]]

// Exactly: three param casts, one unscale, one scale update, four skips,
// five f16 matmuls.
// COUNT-COUNT-3: tosa.cast %arg{{[2-5]}} :
// COUNT-NOT: tosa.cast %arg{{[2-5]}} :
// COUNT-COUNT-5: tosa.matmul {{.*}}xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// COUNT-NOT: tosa.matmul
// COUNT: amp.unscale
// COUNT-NOT: amp.unscale
// COUNT-COUNT-4: amp.skip_if_inf
// COUNT-NOT: amp.skip_if_inf
// COUNT-COUNT-1: amp.update_scale
// COUNT-NOT: amp.update_scale
// COUNT: func.func @predict

// BF16 has f32's range: no loss scaling by default, the seed stays.
// BF16-LABEL: func.func @train_step
// BF16-SAME: %{{[^:]*}}: tensor<1x10xf32> {amp.param}) -> (tensor<1x1xf32> {amp.loss}, tensor<784x256xf32> {amp.update_of = 2 : i64}, tensor<1x256xf32> {amp.update_of = 3 : i64}, tensor<256x10xf32> {amp.update_of = 4 : i64}, tensor<1x10xf32> {amp.update_of = 5 : i64}) {
// BF16: tosa.matmul {{.*}}xbf16>
// BF16: amp.loss_grad
// BF16-NOT: amp.unscale

// STATIC-LABEL: func.func @train_step
// STATIC-SAME: tensor<i1> {amp.found_inf})
// STATIC: arith.constant dense<8.000000e+00> : tensor<f32>
// STATIC: amp.unscale
// STATIC-NOT: amp.update_scale

// Apex O2 with a policy option and a scaler option passed through. With
// the ReLU denied (f32), the bias add before it is no longer between low
// ops, so b1 is read in f32 and only W1 and W2 get working-copy arguments,
// each returned updated (and skipped on overflow).
// O2-LABEL: func.func @train_step
// O2-SAME: tensor<784x256xf16> {amp.working_copy_of = 2 : i64}, %{{[^:]*}}: tensor<256x10xf16> {amp.working_copy_of = 4 : i64}, %{{[^:]*}}: tensor<f32> {amp.scaler = "scale"}
// O2-SAME: tensor<784x256xf16> {amp.update_of = 6 : i64}, tensor<256x10xf16> {amp.update_of = 7 : i64}, tensor<f32> {amp.update_of = 8 : i64}
// O2: tosa.clamp %{{.*}} : (tensor<64x256xf32>) -> tensor<64x256xf32>
// O2-COUNT-6: amp.skip_if_inf
// O2: amp.update_scale {{.*}}growth_interval = 100 : i64
