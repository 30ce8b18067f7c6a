#!/usr/bin/env bash
# What each example's CUDA step asks of the GPU, from the second step on,
# counted on the simulated driver (no GPU needed; docs/cuda.md):
#   bench/cuda_step/mock_counts.sh [PRECISION...]     (default: f32 f16 bf16)
# Prints a Markdown table: one row per example and precision, the
# amprt-cuda-mock-step counters of step 2 with CUDA graphs off (what the
# step's host code asks for), then those of step 4 with graphs on (the
# default: steps 2 and 3 capture, step 4 replays).
set -euo pipefail
# shellcheck source=bench/cuda_step/common.sh
source "$(dirname "$0")/common.sh"
[ -x "$bin/amprt-cuda-mock-step" ] ||
  { echo "no $bin/amprt-cuda-mock-step: build with the CUDA toolkit first" >&2; exit 1; }
# "cuda-step: launches=N gemms=N ..." -> "| N | N | ..."
columns() { sed 's/^cuda-step: //; s/[a-z_0-9]*=//g; s/ / | /g'; }
echo "| step | precision | launches | gemms | graph launches | allocs | frees | syncs | h2d | d2h | host-touched pages | with graphs: launches | gemms | graph launches | allocs | frees | syncs | h2d | d2h | host-touched pages |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for example in $examples; do
  for precision in $precisions; do
    "$bin/amp-compile" "$root/examples/$example" --target=cuda --precision="$precision" \
      -o "$work/step.so"
    eager=$(AMPRT_CUDA_GRAPHS=off "$bin/amprt-cuda-mock-step" "$work/step.so" --steps=2 |
      tail -1 | columns)
    graphs=$("$bin/amprt-cuda-mock-step" "$work/step.so" --steps=4 | tail -1 | columns)
    echo "| examples/$example | $precision | $eager | $graphs |"
  done
done
