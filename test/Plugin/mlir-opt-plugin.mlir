// Debian's own mlir-opt-22 runs our passes from the plugin, without any
// amp-mlir binary: the dialect for parsing the markers, the passes and the
// pipeline from --pass-pipeline.
// RUN: %mlir_opt_22 --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin \
// RUN:   %amp_src_root/examples/mlp/train_step.mlir \
// RUN:   --pass-pipeline="builtin.module(amp-pipeline{precision=f16})" | FileCheck %s
// RUN: %mlir_opt_22 --load-dialect-plugin=%amp_plugin --load-pass-plugin=%amp_plugin %s \
// RUN:   --pass-pipeline="builtin.module(amp-autocast{precision=bf16})" | FileCheck %s --check-prefix=AUTOCAST

// CHECK-LABEL: func.func @train_step
// CHECK-SAME: {amp.scaler = "scale"}
// CHECK-COUNT-5: tosa.matmul {{.*}}xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// CHECK: amp.unscale
// CHECK: amp.update_scale

// AUTOCAST-LABEL: func.func @small
// AUTOCAST: tosa.matmul {{.*}} : (tensor<1x4x4xbf16>, tensor<1x4x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x4x4xf32>
func.func @small(%a: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}
