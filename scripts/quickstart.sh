#!/usr/bin/env bash
# From a fresh Debian 12 machine (as root): install what is missing, build,
# and run the demo: autocast the example MLP training step to f16 and print
# the precision report.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
"$root/build/bin/amp-opt" "$root/examples/mlp/train_step.mlir" \
  --amp-autocast=precision=f16 --amp-precision-report \
  -o "$root/build/train_step.f16.mlir"
echo "mixed-precision graph written to build/train_step.f16.mlir"
