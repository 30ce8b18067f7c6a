// Bad --amp-loss-scaling options are located errors on the module.
// RUN: split-file %s %t
// RUN: not amp-opt %t/options.mlir --amp-loss-scaling="mode=adaptive" 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-opt %t/options.mlir --amp-pipeline="loss-scaling=adaptive" 2>&1 | FileCheck %s --check-prefix=PIPELINE
// RUN: amp-opt %t/backoff.mlir --amp-loss-scaling="backoff-factor=1.5" --verify-diagnostics
// RUN: amp-opt %t/growth.mlir --amp-loss-scaling="growth-factor=0.5" --verify-diagnostics
// RUN: amp-opt %t/interval.mlir --amp-loss-scaling="growth-interval=0" --verify-diagnostics
// RUN: amp-opt %t/bounds.mlir --amp-loss-scaling="min-scale=8 max-scale=4" --verify-diagnostics
// RUN: amp-opt %t/scale.mlir --amp-loss-scaling="mode=static scale=0" --verify-diagnostics
// RUN: amp-opt %t/hysteresis.mlir --amp-loss-scaling="hysteresis=0" --verify-diagnostics
// As PyTorch's GradScaler: growth 1 or inf never recovers the scale,
// backoff 1 skips every step after an overflow.
// RUN: amp-opt %t/growth-one.mlir --amp-loss-scaling="growth-factor=1" --verify-diagnostics
// RUN: amp-opt %t/growth-inf.mlir --amp-loss-scaling="growth-factor=inf" --verify-diagnostics
// RUN: amp-opt %t/backoff-one.mlir --amp-loss-scaling="backoff-factor=1" --verify-diagnostics
// RUN: not amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline="backoff-factor=1" 2>&1 | FileCheck %s --check-prefix=PIPELINE-BACKOFF
// A bad option on a large module names the option, and does not print the
// module.
// RUN: not amp-opt %amp_src_root/examples/transformer/train_step.mlir --amp-pipeline="scale=-1" 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not amp-opt %amp_src_root/examples/transformer/train_step.mlir --amp-pipeline="scale=-1" 2>&1 | count 1

// PIPELINE-BACKOFF: error: amp-loss-scaling: backoff-factor must be in (0, 1), got 1.000000e+00
// QUIET: train_step.mlir:{{[0-9]+}}:{{[0-9]+}}: error: amp-loss-scaling: scale must be positive and finite, got -1.000000e+00
// QUIET-NOT: func.func

// MODE: for the --mode option: 'adaptive' is not one of dynamic, static, none
// PIPELINE: for the --loss-scaling option: 'adaptive' is not one of auto, dynamic, static, none

//--- options.mlir
module {
}

//--- backoff.mlir
// expected-error@+1 {{amp-loss-scaling: backoff-factor must be in (0, 1), got 1.500000e+00}}
module {
}

//--- scale.mlir
// expected-error@+1 {{amp-loss-scaling: scale must be positive and finite, got 0.000000e+00}}
module {
}

//--- hysteresis.mlir
// expected-error@+1 {{amp-loss-scaling: hysteresis must be at least 1, got 0}}
module {
}

//--- growth.mlir
// expected-error@+1 {{amp-loss-scaling: growth-factor must be greater than 1 and finite, got 5.000000e-01}}
module {
}

//--- interval.mlir
// expected-error@+1 {{amp-loss-scaling: growth-interval must be at least 1, got 0}}
module {
}

//--- bounds.mlir
// expected-error@+1 {{amp-loss-scaling: needs 0 <= min-scale <= max-scale, got 8.000000e+00 and 4.000000e+00}}
module {
}

//--- growth-one.mlir
// expected-error@+1 {{amp-loss-scaling: growth-factor must be greater than 1 and finite, got 1.000000e+00}}
module {
}

//--- growth-inf.mlir
// expected-error@+1 {{amp-loss-scaling: growth-factor must be greater than 1 and finite, got INF}}
module {
}

//--- backoff-one.mlir
// expected-error@+1 {{amp-loss-scaling: backoff-factor must be in (0, 1), got 1.000000e+00}}
module {
}

