// RUN: amp-opt %s --amp-approximate-math | FileCheck %s
// RUN: amp-opt %s --amp-approximate-math="ops=math.exp" | FileCheck %s --check-prefix=EXP
// RUN: not amp-opt %s --amp-approximate-math="ops=math.sin" 2>&1 | FileCheck %s --check-prefix=UNKNOWN

// tanh (f32) and exp (bf16, through f32) become arith: no math op and no
// libm call is left; f64 and ops not listed are left as they are. Each
// approximated op is guarded by three selects (+inf, -inf, NaN).
// CHECK-LABEL: func.func @f(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[H:[^:]*]]: bf16, %[[D:[^:]*]]: f64
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp {{.*}} : bf16
// CHECK-DAG: %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : f32
// CHECK-DAG: arith.select %[[NAN]], %[[X]], %{{.*}} : f32
// CHECK-DAG: %[[HNAN:.*]] = arith.cmpf uno, %[[H]], %[[H]] : bf16
// CHECK-DAG: arith.select %[[HNAN]], %[[H]], %{{.*}} : bf16
// CHECK-DAG: math.exp %[[D]] : f64
// CHECK-DAG: math.sqrt %[[X]] : f32
// CHECK: return
func.func @f(%x: f32, %h: bf16, %d: f64) -> (f32, bf16, f64, f32) {
  %a = math.tanh %x : f32
  %b = math.exp %h : bf16
  %c = math.exp %d : f64
  %s = math.sqrt %x : f32
  return %a, %b, %c, %s : f32, bf16, f64, f32
}

// With ops=math.exp, tanh stays.
// EXP-LABEL: func.func @f(
// EXP: math.tanh
// EXP-NOT: math.exp {{.*}} : bf16

// UNKNOWN: error: amp-approximate-math: cannot approximate 'math.sin' (it approximates math.tanh, math.exp, math.expm1, math.log, math.log1p, math.erf)
