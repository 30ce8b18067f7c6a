// The example MLP training step through --amp-autocast=precision=f16: all
// five matmuls (two forward, three backward) take f16 and accumulate in
// f32; the softmax cross-entropy, its gradient and the SGD update stay f32.
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=f16 | FileCheck %s
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=f16 | FileCheck %s --check-prefix=COUNT
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=f16 | sed -n '/@train_step/,/@predict/p' | grep -c tosa.cast | FileCheck %s --check-prefix=NCAST
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=f16 --amp-precision-report -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=bf16 | FileCheck %s --check-prefix=BF16
// The rewritten step still lowers to linalg, in both precisions.
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=f16 | amp-opt --tosa-to-linalg-pipeline -o /dev/null
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-autocast=precision=bf16 | amp-opt --tosa-to-linalg-pipeline -o /dev/null

// The signature is unchanged.
// CHECK-LABEL: func.func @train_step
// CHECK-SAME: (%[[X:.*]]: tensor<64x784xf32>, %[[Y:.*]]: tensor<64x10xf32>, %[[W1:.*]]: tensor<784x256xf32> {amp.param}, %[[B1:.*]]: tensor<1x256xf32> {amp.param}, %[[W2:.*]]: tensor<256x10xf32> {amp.param}, %[[B2:.*]]: tensor<1x10xf32> {amp.param})
// CHECK-SAME: -> (tensor<1x1xf32> {amp.loss}, tensor<784x256xf32> {amp.update_of = 2 : i64}, tensor<1x256xf32> {amp.update_of = 3 : i64}, tensor<256x10xf32> {amp.update_of = 4 : i64}, tensor<1x10xf32> {amp.update_of = 5 : i64})

// The input and the parameters read low are cast once each, at the top.
// CHECK: %[[X16:.*]] = tosa.cast %[[X]] : (tensor<64x784xf32>) -> tensor<64x784xf16>
// CHECK: %[[W1_16:.*]] = tosa.cast %[[W1]] : (tensor<784x256xf32>) -> tensor<784x256xf16>
// CHECK: %[[B1_16:.*]] = tosa.cast %[[B1]] : (tensor<1x256xf32>) -> tensor<1x256xf16>
// CHECK: %[[W2_16:.*]] = tosa.cast %[[W2]] : (tensor<256x10xf32>) -> tensor<256x10xf16>

// Forward: layer 1 runs low from matmul to relu.
// CHECK: tosa.matmul {{.*}} : (tensor<1x64x784xf16>, tensor<1x784x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x64x256xf32>
// CHECK: %[[H1:.*]] = tosa.add %{{.*}}, %[[B1_16]] : (tensor<64x256xf16>, tensor<1x256xf16>) -> tensor<64x256xf16>
// CHECK: %[[A1:.*]] = tosa.clamp %[[H1]] {{.*}} : (tensor<64x256xf16>) -> tensor<64x256xf16>
// CHECK: tosa.matmul {{.*}} : (tensor<1x64x256xf16>, tensor<1x256x10xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x64x10xf32>
// The logits and the loss are f32.
// CHECK: %[[LOGITS:.*]] = tosa.add %{{.*}}, %[[B2]] : (tensor<64x10xf32>, tensor<1x10xf32>) -> tensor<64x10xf32>
// CHECK: tosa.reduce_max %[[LOGITS]] {{.*}} : (tensor<64x10xf32>) -> tensor<64x1xf32>
// CHECK: tosa.exp %{{.*}} : (tensor<64x10xf32>) -> tensor<64x10xf32>
// CHECK: tosa.log %{{.*}} : (tensor<64x1xf32>) -> tensor<64x1xf32>
// CHECK: %[[LOSS:.*]] = tosa.mul {{.*}} -> tensor<1x1xf32>
// Backward: the softmax gradient is f32, cast once for the two matmuls.
// CHECK: %[[SEED:.*]] = amp.loss_grad %[[LOSS]] : tensor<1x1xf32>
// CHECK: %[[DLOGITS:.*]] = tosa.mul %{{.*}}, %{{.*}}, %{{.*}} : (tensor<64x10xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<64x10xf32>
// CHECK: %[[DL16:.*]] = tosa.cast %[[DLOGITS]] : (tensor<64x10xf32>) -> tensor<64x10xf16>
// CHECK: tosa.transpose %[[A1]] {{.*}} : (tensor<64x256xf16>) -> tensor<256x64xf16>
// CHECK: %[[DW2:.*]] = tosa.matmul {{.*}} : (tensor<1x256x64xf16>, tensor<1x64x10xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x256x10xf32>
// CHECK: tosa.reduce_sum %[[DLOGITS]] {axis = 0 : i32} : (tensor<64x10xf32>) -> tensor<1x10xf32>
// CHECK: tosa.transpose %[[W2_16]] {{.*}} : (tensor<256x10xf16>) -> tensor<10x256xf16>
// CHECK: tosa.matmul {{.*}} : (tensor<1x64x10xf16>, tensor<1x10x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x64x256xf32>
// The relu gradient runs low, comparing the f16 pre-activation.
// CHECK: %[[ACTIVE:.*]] = tosa.greater %[[H1]], %{{.*}} : (tensor<64x256xf16>, tensor<1x1xf16>) -> tensor<64x256xi1>
// CHECK: %[[DH1:.*]] = tosa.select %[[ACTIVE]], {{.*}} : (tensor<64x256xi1>, tensor<64x256xf16>, tensor<1x1xf16>) -> tensor<64x256xf16>
// CHECK: %[[DH1_32:.*]] = tosa.cast %[[DH1]] : (tensor<64x256xf16>) -> tensor<64x256xf32>
// CHECK: tosa.transpose %[[X16]] {{.*}} : (tensor<64x784xf16>) -> tensor<784x64xf16>
// CHECK: tosa.matmul {{.*}} : (tensor<1x784x64xf16>, tensor<1x64x256xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x784x256xf32>
// The bias gradient sums in f32.
// CHECK: tosa.reduce_sum %[[DH1_32]] {axis = 0 : i32} : (tensor<64x256xf32>) -> tensor<1x256xf32>
// The optimizer is f32 on the f32 masters.
// CHECK: %[[G:.*]] = amp.grad %{{.*}} {param = 2 : i64} : tensor<784x256xf32>
// CHECK: %[[U:.*]] = tosa.mul %[[G]], {{.*}} -> tensor<784x256xf32>
// CHECK: tosa.sub %[[W1]], %[[U]] : (tensor<784x256xf32>, tensor<784x256xf32>) -> tensor<784x256xf32>
// CHECK: return %[[LOSS]]

// Exactly five matmuls, all f16 x f16 -> f32; eight casts in all.
// COUNT-COUNT-5: tosa.matmul {{.*}} : (tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// COUNT-NOT: tosa.matmul
// COUNT: func.func @predict
// NCAST: 8

// REPORT: amp precision report for @train_step
// REPORT-NEXT: category low f32
// REPORT-NEXT: allow 5 0
// REPORT-NEXT: deny 0 8
// REPORT: casts: 8

// BF16-COUNT-5: tosa.matmul {{.*}}xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<{{[0-9x]+}}xf32>
