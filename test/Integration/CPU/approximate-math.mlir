// amp-approximate-math (part of --amp-lower-to-cpu) against libm: each
// approximated op over 100001 points of its range (log over e^-69..e^69,
// geometric) and at NaN, +inf, -inf, +100 and -100. The step's tolerance
// for f32 parity with PyTorch is 1e-4 per loss; the approximations must
// stay within 1e-6 relative (measured: at most 2.9e-7, a few ULP), and
// special values must be exact: a NaN or inf that reaches a gradient is
// what loss scaling detects.
// RUN: amp-opt %s --amp-lower-to-cpu \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils \
// RUN:   | FileCheck %s

// Max relative error (denominator max(|libm|, 1e-6); nonzero, so it is
// not libm that ran), then op(NaN), op(+inf), op(-inf), op(100), op(-100).
// CHECK:      tanh {{[0-9.]+e-0[7-9]}}
// CHECK-NEXT: nan, 1, -1, 1, -1,
// CHECK-NEXT: exp {{[0-9.]+e-0[7-9]}}
// CHECK-NEXT: nan, inf, 0, inf, 0,
// CHECK-NEXT: expm1 {{[0-9.]+e-0[7-9]}}
// CHECK-NEXT: nan, inf, -1, inf, -1,
// CHECK-NEXT: log {{[0-9.]+e-0[7-9]}}
// CHECK-NEXT: nan, inf, nan, 4.60517, nan,
// CHECK-NEXT: log1p {{[0-9.]+e-0[7-9]}}
// CHECK-NEXT: nan, inf, nan, 4.61512, nan,
// CHECK-NEXT: erf {{[0-9.]+e-0[7-9]}}
// CHECK-NEXT: nan, 1, -1, 1, -1,

func.func private @printF64(f64)
func.func private @printF32(f32)
func.func private @printNewline()
func.func private @printComma()
func.func private @printString(!llvm.ptr)
func.func private @tanhf(f32) -> f32
func.func @ours_tanh(%x: f32) -> f32 {
  %y = math.tanh %x : f32
  return %y : f32
}
func.func @sweep_tanh() -> f64 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 100001 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -1.000000e+01 : f64
  %span = arith.constant 2.000000e+01 : f64
  %nf = arith.constant 100000.0 : f64
  %zero = arith.constant 0.0 : f64
  %tiny = arith.constant 1.0e-6 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %frac = arith.divf %if, %nf : f64
    %scaled = arith.mulf %frac, %span : f64
    %t = arith.addf %lo, %scaled : f64
    %x = arith.truncf %t : f64 to f32
    %a = func.call @ours_tanh(%x) : (f32) -> f32
    %b = func.call @tanhf(%x) : (f32) -> f32
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %d = arith.subf %a64, %b64 : f64
    %ad = math.absf %d : f64
    %ab = math.absf %b64 : f64
    %den = arith.maximumf %ab, %tiny : f64
    %q = arith.divf %ad, %den : f64
    %next = arith.maximumf %worst, %q : f64
    scf.yield %next : f64
  }
  return %r : f64
}
func.func private @expf(f32) -> f32
func.func @ours_exp(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}
func.func @sweep_exp() -> f64 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 100001 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -8.700000e+01 : f64
  %span = arith.constant 1.750000e+02 : f64
  %nf = arith.constant 100000.0 : f64
  %zero = arith.constant 0.0 : f64
  %tiny = arith.constant 1.0e-6 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %frac = arith.divf %if, %nf : f64
    %scaled = arith.mulf %frac, %span : f64
    %t = arith.addf %lo, %scaled : f64
    %x = arith.truncf %t : f64 to f32
    %a = func.call @ours_exp(%x) : (f32) -> f32
    %b = func.call @expf(%x) : (f32) -> f32
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %d = arith.subf %a64, %b64 : f64
    %ad = math.absf %d : f64
    %ab = math.absf %b64 : f64
    %den = arith.maximumf %ab, %tiny : f64
    %q = arith.divf %ad, %den : f64
    %next = arith.maximumf %worst, %q : f64
    scf.yield %next : f64
  }
  return %r : f64
}
func.func private @expm1f(f32) -> f32
func.func @ours_expm1(%x: f32) -> f32 {
  %y = math.expm1 %x : f32
  return %y : f32
}
func.func @sweep_expm1() -> f64 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 100001 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -2.000000e+01 : f64
  %span = arith.constant 4.000000e+01 : f64
  %nf = arith.constant 100000.0 : f64
  %zero = arith.constant 0.0 : f64
  %tiny = arith.constant 1.0e-6 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %frac = arith.divf %if, %nf : f64
    %scaled = arith.mulf %frac, %span : f64
    %t = arith.addf %lo, %scaled : f64
    %x = arith.truncf %t : f64 to f32
    %a = func.call @ours_expm1(%x) : (f32) -> f32
    %b = func.call @expm1f(%x) : (f32) -> f32
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %d = arith.subf %a64, %b64 : f64
    %ad = math.absf %d : f64
    %ab = math.absf %b64 : f64
    %den = arith.maximumf %ab, %tiny : f64
    %q = arith.divf %ad, %den : f64
    %next = arith.maximumf %worst, %q : f64
    scf.yield %next : f64
  }
  return %r : f64
}
func.func private @logf(f32) -> f32
func.func @ours_log(%x: f32) -> f32 {
  %y = math.log %x : f32
  return %y : f32
}
func.func @sweep_log() -> f64 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 100001 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -6.900000e+01 : f64
  %span = arith.constant 1.380000e+02 : f64
  %nf = arith.constant 100000.0 : f64
  %zero = arith.constant 0.0 : f64
  %tiny = arith.constant 1.0e-6 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %frac = arith.divf %if, %nf : f64
    %scaled = arith.mulf %frac, %span : f64
    %t = arith.addf %lo, %scaled : f64
    %e = math.exp %t : f64
    %x = arith.truncf %e : f64 to f32
    %a = func.call @ours_log(%x) : (f32) -> f32
    %b = func.call @logf(%x) : (f32) -> f32
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %d = arith.subf %a64, %b64 : f64
    %ad = math.absf %d : f64
    %ab = math.absf %b64 : f64
    %den = arith.maximumf %ab, %tiny : f64
    %q = arith.divf %ad, %den : f64
    %next = arith.maximumf %worst, %q : f64
    scf.yield %next : f64
  }
  return %r : f64
}
func.func private @log1pf(f32) -> f32
func.func @ours_log1p(%x: f32) -> f32 {
  %y = math.log1p %x : f32
  return %y : f32
}
func.func @sweep_log1p() -> f64 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 100001 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -9.990000e-01 : f64
  %span = arith.constant 1.000999e+03 : f64
  %nf = arith.constant 100000.0 : f64
  %zero = arith.constant 0.0 : f64
  %tiny = arith.constant 1.0e-6 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %frac = arith.divf %if, %nf : f64
    %scaled = arith.mulf %frac, %span : f64
    %t = arith.addf %lo, %scaled : f64
    %x = arith.truncf %t : f64 to f32
    %a = func.call @ours_log1p(%x) : (f32) -> f32
    %b = func.call @log1pf(%x) : (f32) -> f32
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %d = arith.subf %a64, %b64 : f64
    %ad = math.absf %d : f64
    %ab = math.absf %b64 : f64
    %den = arith.maximumf %ab, %tiny : f64
    %q = arith.divf %ad, %den : f64
    %next = arith.maximumf %worst, %q : f64
    scf.yield %next : f64
  }
  return %r : f64
}
func.func private @erff(f32) -> f32
func.func @ours_erf(%x: f32) -> f32 {
  %y = math.erf %x : f32
  return %y : f32
}
func.func @sweep_erf() -> f64 {
  %c0 = arith.constant 0 : index
  %n = arith.constant 100001 : index
  %c1 = arith.constant 1 : index
  %lo = arith.constant -5.000000e+00 : f64
  %span = arith.constant 1.000000e+01 : f64
  %nf = arith.constant 100000.0 : f64
  %zero = arith.constant 0.0 : f64
  %tiny = arith.constant 1.0e-6 : f64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%worst = %zero) -> (f64) {
    %ii = arith.index_cast %i : index to i64
    %if = arith.sitofp %ii : i64 to f64
    %frac = arith.divf %if, %nf : f64
    %scaled = arith.mulf %frac, %span : f64
    %t = arith.addf %lo, %scaled : f64
    %x = arith.truncf %t : f64 to f32
    %a = func.call @ours_erf(%x) : (f32) -> f32
    %b = func.call @erff(%x) : (f32) -> f32
    %a64 = arith.extf %a : f32 to f64
    %b64 = arith.extf %b : f32 to f64
    %d = arith.subf %a64, %b64 : f64
    %ad = math.absf %d : f64
    %ab = math.absf %b64 : f64
    %den = arith.maximumf %ab, %tiny : f64
    %q = arith.divf %ad, %den : f64
    %next = arith.maximumf %worst, %q : f64
    scf.yield %next : f64
  }
  return %r : f64
}
llvm.mlir.global internal constant @name_tanh("tanh \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_exp("exp \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_expm1("expm1 \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_log("log \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_log1p("log1p \00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @name_erf("erf \00") {addr_space = 0 : i32}
func.func @main() {
  %nan = arith.constant 0x7FC00000 : f32
  %pinf = arith.constant 0x7F800000 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %big = arith.constant 100.0 : f32
  %nbig = arith.constant -100.0 : f32
  %tanh_name = llvm.mlir.addressof @name_tanh : !llvm.ptr
  func.call @printString(%tanh_name) : (!llvm.ptr) -> ()
  %tanh_worst = func.call @sweep_tanh() : () -> f64
  func.call @printF64(%tanh_worst) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %tanh_nan = func.call @ours_tanh(%nan) : (f32) -> f32
  func.call @printF32(%tanh_nan) : (f32) -> ()
  func.call @printComma() : () -> ()
  %tanh_pinf = func.call @ours_tanh(%pinf) : (f32) -> f32
  func.call @printF32(%tanh_pinf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %tanh_ninf = func.call @ours_tanh(%ninf) : (f32) -> f32
  func.call @printF32(%tanh_ninf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %tanh_big = func.call @ours_tanh(%big) : (f32) -> f32
  func.call @printF32(%tanh_big) : (f32) -> ()
  func.call @printComma() : () -> ()
  %tanh_nbig = func.call @ours_tanh(%nbig) : (f32) -> f32
  func.call @printF32(%tanh_nbig) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printNewline() : () -> ()
  %exp_name = llvm.mlir.addressof @name_exp : !llvm.ptr
  func.call @printString(%exp_name) : (!llvm.ptr) -> ()
  %exp_worst = func.call @sweep_exp() : () -> f64
  func.call @printF64(%exp_worst) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %exp_nan = func.call @ours_exp(%nan) : (f32) -> f32
  func.call @printF32(%exp_nan) : (f32) -> ()
  func.call @printComma() : () -> ()
  %exp_pinf = func.call @ours_exp(%pinf) : (f32) -> f32
  func.call @printF32(%exp_pinf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %exp_ninf = func.call @ours_exp(%ninf) : (f32) -> f32
  func.call @printF32(%exp_ninf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %exp_big = func.call @ours_exp(%big) : (f32) -> f32
  func.call @printF32(%exp_big) : (f32) -> ()
  func.call @printComma() : () -> ()
  %exp_nbig = func.call @ours_exp(%nbig) : (f32) -> f32
  func.call @printF32(%exp_nbig) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printNewline() : () -> ()
  %expm1_name = llvm.mlir.addressof @name_expm1 : !llvm.ptr
  func.call @printString(%expm1_name) : (!llvm.ptr) -> ()
  %expm1_worst = func.call @sweep_expm1() : () -> f64
  func.call @printF64(%expm1_worst) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %expm1_nan = func.call @ours_expm1(%nan) : (f32) -> f32
  func.call @printF32(%expm1_nan) : (f32) -> ()
  func.call @printComma() : () -> ()
  %expm1_pinf = func.call @ours_expm1(%pinf) : (f32) -> f32
  func.call @printF32(%expm1_pinf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %expm1_ninf = func.call @ours_expm1(%ninf) : (f32) -> f32
  func.call @printF32(%expm1_ninf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %expm1_big = func.call @ours_expm1(%big) : (f32) -> f32
  func.call @printF32(%expm1_big) : (f32) -> ()
  func.call @printComma() : () -> ()
  %expm1_nbig = func.call @ours_expm1(%nbig) : (f32) -> f32
  func.call @printF32(%expm1_nbig) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printNewline() : () -> ()
  %log_name = llvm.mlir.addressof @name_log : !llvm.ptr
  func.call @printString(%log_name) : (!llvm.ptr) -> ()
  %log_worst = func.call @sweep_log() : () -> f64
  func.call @printF64(%log_worst) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %log_nan = func.call @ours_log(%nan) : (f32) -> f32
  func.call @printF32(%log_nan) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log_pinf = func.call @ours_log(%pinf) : (f32) -> f32
  func.call @printF32(%log_pinf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log_ninf = func.call @ours_log(%ninf) : (f32) -> f32
  func.call @printF32(%log_ninf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log_big = func.call @ours_log(%big) : (f32) -> f32
  func.call @printF32(%log_big) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log_nbig = func.call @ours_log(%nbig) : (f32) -> f32
  func.call @printF32(%log_nbig) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printNewline() : () -> ()
  %log1p_name = llvm.mlir.addressof @name_log1p : !llvm.ptr
  func.call @printString(%log1p_name) : (!llvm.ptr) -> ()
  %log1p_worst = func.call @sweep_log1p() : () -> f64
  func.call @printF64(%log1p_worst) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %log1p_nan = func.call @ours_log1p(%nan) : (f32) -> f32
  func.call @printF32(%log1p_nan) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log1p_pinf = func.call @ours_log1p(%pinf) : (f32) -> f32
  func.call @printF32(%log1p_pinf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log1p_ninf = func.call @ours_log1p(%ninf) : (f32) -> f32
  func.call @printF32(%log1p_ninf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log1p_big = func.call @ours_log1p(%big) : (f32) -> f32
  func.call @printF32(%log1p_big) : (f32) -> ()
  func.call @printComma() : () -> ()
  %log1p_nbig = func.call @ours_log1p(%nbig) : (f32) -> f32
  func.call @printF32(%log1p_nbig) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printNewline() : () -> ()
  %erf_name = llvm.mlir.addressof @name_erf : !llvm.ptr
  func.call @printString(%erf_name) : (!llvm.ptr) -> ()
  %erf_worst = func.call @sweep_erf() : () -> f64
  func.call @printF64(%erf_worst) : (f64) -> ()
  func.call @printNewline() : () -> ()
  %erf_nan = func.call @ours_erf(%nan) : (f32) -> f32
  func.call @printF32(%erf_nan) : (f32) -> ()
  func.call @printComma() : () -> ()
  %erf_pinf = func.call @ours_erf(%pinf) : (f32) -> f32
  func.call @printF32(%erf_pinf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %erf_ninf = func.call @ours_erf(%ninf) : (f32) -> f32
  func.call @printF32(%erf_ninf) : (f32) -> ()
  func.call @printComma() : () -> ()
  %erf_big = func.call @ours_erf(%big) : (f32) -> f32
  func.call @printF32(%erf_big) : (f32) -> ()
  func.call @printComma() : () -> ()
  %erf_nbig = func.call @ours_erf(%nbig) : (f32) -> f32
  func.call @printF32(%erf_nbig) : (f32) -> ()
  func.call @printComma() : () -> ()
  func.call @printNewline() : () -> ()
  return
}
