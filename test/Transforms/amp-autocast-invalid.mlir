// Every user-facing error of --amp-autocast is a located diagnostic, and the
// input is left as it was.
// RUN: split-file %s %t
// Closed choices are refused when the options are parsed, with the choices.
// RUN: not amp-opt %t/empty.mlir --amp-autocast="precision=f17" 2>&1 | FileCheck %s --check-prefix=PRECISION
// RUN: not amp-opt %t/empty.mlir --amp-autocast="cast-dialect=llvm" 2>&1 | FileCheck %s --check-prefix=CAST
// RUN: amp-opt %t/file-precision.mlir --amp-autocast="policy=%S/Inputs/policy-bad-precision.json" --verify-diagnostics
// RUN: amp-opt %t/missing.mlir --amp-autocast="policy=%t/does-not-exist.json" --verify-diagnostics
// RUN: amp-opt %t/malformed.mlir --amp-autocast="policy=%S/Inputs/policy-malformed.json" --verify-diagnostics
// RUN: amp-opt %t/unknown-op.mlir --amp-autocast="policy=%S/Inputs/policy-unknown-op.json" --verify-diagnostics
// RUN: amp-opt %t/unknown-key.mlir --amp-autocast="policy=%S/Inputs/policy-unknown-key.json" --verify-diagnostics
// RUN: amp-opt %t/not-list.mlir --amp-autocast="policy=%S/Inputs/policy-not-list.json" --verify-diagnostics
// RUN: amp-opt %t/file-contradiction.mlir --amp-autocast="policy=%S/Inputs/policy-contradiction.json" --verify-diagnostics
// RUN: amp-opt %t/option-contradiction.mlir --amp-autocast="allow=tosa.tanh deny=tosa.tanh" --verify-diagnostics
// RUN: amp-opt %t/option-unknown-op.mlir --amp-autocast="deny=tosa.nope" --verify-diagnostics
// RUN: amp-opt %t/structural.mlir --amp-autocast="allow=func.call" --verify-diagnostics
// RUN: amp-opt %t/report-policy.mlir --amp-precision-report="policy=%S/Inputs/policy-malformed.json" --verify-diagnostics
// RUN: amp-opt %t/report-output.mlir --amp-precision-report="output=%t/no-such-dir/report.txt" --verify-diagnostics

// PRECISION: for the --precision option: 'f17' is not one of f16, bf16
// CAST: for the --cast-dialect option: 'llvm' is not one of tosa, arith

//--- empty.mlir
module {
}

//--- file-precision.mlir
// expected-error-re@+1 {{amp-autocast: policy file '{{.*}}policy-bad-precision.json': unknown precision 'f8' (expected f16 or bf16)}}
module {
  func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}

//--- missing.mlir
// expected-error@+1 {{amp-autocast: cannot read policy file}}
module {
}

//--- malformed.mlir
// expected-error-re@+1 {{amp-autocast: malformed policy file '{{.*}}policy-malformed.json:3:9': Expected , or ] after array element}}
module {
}

//--- unknown-op.mlir
// expected-error-re@+1 {{amp-autocast: policy file '{{.*}}': policy names op 'tosa.frobnicate', which is not a registered operation}}
module {
}

//--- unknown-key.mlir
// expected-error-re@+1 {{policy file '{{.*}}': unknown key 'alow' (expected allow, deny, infer, clear, remove or precision)}}
module {
}

//--- not-list.mlir
// expected-error-re@+1 {{policy file '{{.*}}': 'deny' must be a list of op names}}
module {
}

//--- option-unknown-op.mlir
// expected-error@+1 {{amp-autocast: policy names op 'tosa.nope', which is not a registered operation}}
module {
}

//--- structural.mlir
// expected-error@+1 {{amp-autocast: policy cannot move op 'func.call': its precision follows from what it is (control flow, cast or constant)}}
module {
}

//--- report-policy.mlir
// expected-error-re@+1 {{amp-precision-report: malformed policy file '{{.*}}policy-malformed.json:3:9'}}
module {
}

//--- report-output.mlir
// expected-error-re@+1 {{amp-precision-report: cannot open output file '{{.*}}no-such-dir/report.txt'}}
module {
}

//--- file-contradiction.mlir
// expected-error-re@+1 {{amp-autocast: policy file '{{.*}}policy-contradiction.json': op 'tosa.tanh' is listed in both 'allow' and 'deny'}}
module {
}

//--- option-contradiction.mlir
// expected-error@+1 {{amp-autocast: op 'tosa.tanh' is given to both 'allow' and 'deny'}}
module {
}

