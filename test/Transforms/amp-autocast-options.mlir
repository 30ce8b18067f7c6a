// Each option of --amp-autocast moves ops between categories.
// RUN: amp-opt %s --amp-autocast | FileCheck %s --check-prefix=DEFAULT
// RUN: amp-opt %s --amp-autocast="deny=tosa.tanh" | FileCheck %s --check-prefix=DENY
// RUN: amp-opt %s --amp-autocast="allow=tosa.tanh" | FileCheck %s --check-prefix=ALLOW
// RUN: amp-opt %s --amp-autocast="infer=tosa.exp" | FileCheck %s --check-prefix=INFER
// RUN: amp-opt %s --amp-autocast="clear=tosa.exp" | FileCheck %s --check-prefix=INFER
// RUN: amp-opt %s --amp-autocast="policy=%S/Inputs/policy-tanh-deny.json" | FileCheck %s --check-prefix=FILE
// RUN: amp-opt %s --amp-autocast="policy=%S/Inputs/policy-tanh-deny.json precision=f16" | FileCheck %s --check-prefix=FILE16
// RUN: amp-opt %s --amp-autocast="policy=%S/Inputs/policy-remove.json" --verify-diagnostics | FileCheck %s --check-prefix=DENY
// RUN: amp-opt %s --amp-autocast="cast-dialect=arith" | FileCheck %s --check-prefix=ARITH

// matmul -> tanh -> matmul, then exp and a matmul reading it.
// DEFAULT-LABEL: func.func @options
// DEFAULT: tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// DEFAULT: tosa.exp %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>

// A denied tanh stays f32 and the matmul result is not cast before it.
// DENY-LABEL: func.func @options
// DENY: %[[MM:.*]] = tosa.matmul {{.*}} -> tensor<1x4x4xf32>
// DENY-NEXT: tosa.tanh %[[MM]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>

// An allowed tanh runs low (it is not a contraction: its result is low).
// ALLOW-LABEL: func.func @options
// ALLOW: tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>

// exp moved out of deny runs low between the two matmuls.
// INFER-LABEL: func.func @options
// INFER: tosa.exp %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>

// The file denies tanh and asks for bf16; the command line may override
// the precision.
// FILE-LABEL: func.func @options
// FILE: tosa.matmul {{.*}} : (tensor<1x4x4xbf16>, tensor<1x4x4xbf16>, tensor<1xbf16>, tensor<1xbf16>) -> tensor<1x4x4xf32>
// FILE: tosa.tanh %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
// FILE16-LABEL: func.func @options
// FILE16: tosa.matmul {{.*}} : (tensor<1x4x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
// FILE16: tosa.tanh %{{.*}} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>

// cast-dialect=arith makes elementwise arith casts on tensors.
// ARITH-LABEL: func.func @options
// ARITH-NOT: tosa.cast
// ARITH: arith.truncf %{{.*}} : tensor<1x4x4xf32> to tensor<1x4x4xf16>
// ARITH-NOT: tosa.cast
func.func @options(%a: tensor<1x4x4xf32>, %b: tensor<1x4x4xf32>) -> tensor<1x4x4xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  // expected-remark@+1 {{op 'tosa.tanh' is not in the precision policy; kept in f32}}
  %1 = tosa.tanh %0 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %2 = tosa.matmul %1, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %3 = tosa.exp %2 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %4 = tosa.matmul %3, %b, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  return %4 : tensor<1x4x4xf32>
}
