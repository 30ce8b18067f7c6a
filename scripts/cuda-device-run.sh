#!/usr/bin/env bash
# Runs on the GPU machine, from a bundle made by scripts/cuda-device-bundle.sh:
#   bash build/cuda-check/run.sh OUTDIR
# Trains every CUDA artifact with the arguments its CPU reference ran with,
# then checks: the first 20 losses within a relative tolerance of the
# CPU's (f32: 1e-4, summation order only; f16: 3e-3 and bf16: 2e-2, a few
# units in the last place of the 16-bit activations, which cuBLASLt's
# summation order flips differently from the CPU's), and on real data
# (not --data=synthetic, whose random labels make any two runs drift
# apart) all losses within 2e-2 and test accuracy within 1.5 points; an
# overflowing batch skips its step (params/state digests unchanged) and
# halves the scale. Writes logs and summary.txt to OUTDIR; exits non-zero
# if any check fails. When all pass and PyTorch sees the GPU, benchmarks
# the MLP and transformer steps against PyTorch's FP32, autocast and
# torch.compile steps (bench.md; each PyTorch mode's log in OUTDIR).
# LD_LIBRARY_PATH is set for our binaries only, never for PyTorch.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${OUT:-$here/out}}
mkdir -p "$out"
# cuBLASLt 13: the toolkit's, or the one PyTorch's pip wheels carry.
cublas_dirs=$(python3 - <<'PY' 2>/dev/null
import glob, os, site
roots = ["/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib"]
for base in site.getsitepackages():
    roots += glob.glob(os.path.join(base, "nvidia", "**", "lib"), recursive=True)
print(":".join(r for r in roots if glob.glob(os.path.join(r, "libcublasLt.so.13*"))))
PY
)
export AMP_BUNDLE_LIBRARY_PATH="$here/lib:${cublas_dirs:+$cublas_dirs:}/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
ours() { LD_LIBRARY_PATH="$AMP_BUNDLE_LIBRARY_PATH" "$@"; }
train="ours $here/bin/amp-train"
check="python3 $here/check_train.py"
summary="$out/summary.txt"
: > "$summary"
failed=0
note() { echo "$*" | tee -a "$summary"; }
# verdict LABEL COMMAND...: runs the check, records its output and result.
verdict() {
  local label=$1
  shift
  if "$@" >> "$summary" 2>&1; then note "  ok: $label"; else note "  FAILED: $label"; failed=1; fi
}

nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> "$summary" 2>&1 || note "no nvidia-smi"
# libamprt_cuda loads cuBLASLt with dlopen and, asked to, says which.
loaded=$(AMPRT_CUDA_VERBOSE=1 ours "$here/bin/amp-train" "$here/artifacts/mlp-f32.so" --data=synthetic --steps=1 --quiet 2>&1 >/dev/null | grep -o 'cuBLASLt [0-9]* from .*')
note "${loaded:-cuBLASLt: not loaded (see $out/*.err)}"
while read -r name source precision args; do
  note "== $name ($source, $precision)"
  start=$(date +%s.%N)
  # shellcheck disable=SC2086
  if ! $train "$here/artifacts/$name.so" $args --quiet --log="$out/$name.csv" \
      > "$out/$name.out" 2> "$out/$name.err"; then
    note "  FAILED: amp-train exited with an error:"; tail -5 "$out/$name.err" | tee -a "$summary"
    failed=1
    continue
  fi
  seconds=$(python3 -c "import time,sys; print(f'{time.time()-float(sys.argv[1]):.2f}')" "$start")
  note "  gpu seconds $seconds, cpu seconds (here, when bundled) $(grep "^$name " "$here/reference/cpu-seconds.txt" | cut -d' ' -f2)"
  cat "$out/$name.out" >> "$summary"
  case $precision in f32) rtol=1e-4 ;; f16) rtol=3e-3 ;; *) rtol=2e-2 ;; esac
  verdict "first 20 losses within $rtol of the CPU's" \
    $check losses "$here/reference/$name.csv" "$out/$name.csv" --rtol $rtol --steps 20
  case $args in *synthetic*) continue ;; esac
  verdict "all losses within 2e-2" \
    $check losses "$here/reference/$name.csv" "$out/$name.csv" --rtol 2e-2
  verdict "test accuracy within 1.5 points" \
    $check accuracy "$here/reference/$name.out" "$out/$name.out" --max-diff 1.5
done < "$here/configs.txt"

note "== overflow skip (mlp-f16)"
$train "$here/artifacts/mlp-f16.so" --data=synthetic --steps=9 --quiet --print-digest > "$out/before.out" 2>&1
$train "$here/artifacts/mlp-f16.so" --data=synthetic --steps=10 --poison-step=10 --quiet --print-digest > "$out/poisoned.out" 2>&1
cat "$out/before.out" "$out/poisoned.out" >> "$summary"
if [ "$(grep -o 'params-digest.*' "$out/before.out")" = "$(grep -o 'params-digest.*' "$out/poisoned.out")" ] &&
   grep -q "steps 10 skipped 1 final-scale 32768" "$out/poisoned.out"; then
  note "  ok: skipped step left params and state bit-identical, scale halved"
else
  note "  FAILED: overflow skip"; failed=1
fi
# The session replays each step from a CUDA graph from the second on: the
# same kernels on the same buffers, so the same bits as running the host
# code every step (AMPRT_CUDA_GRAPHS=off).
note "== graph replay vs direct (mlp-f16)"
$train "$here/artifacts/mlp-f16.so" --data=synthetic --steps=20 --quiet --print-digest --log="$out/graphs.csv" > "$out/graphs.out" 2>&1
AMPRT_CUDA_GRAPHS=off $train "$here/artifacts/mlp-f16.so" --data=synthetic --steps=20 --quiet --print-digest --log="$out/direct.csv" > "$out/direct.out" 2>&1
if cmp -s "$out/graphs.csv" "$out/direct.csv" &&
   [ "$(grep -o 'params-digest.*' "$out/graphs.out")" = "$(grep -o 'params-digest.*' "$out/direct.out")" ]; then
  note "  ok: losses and digests bit-identical"
else
  note "  FAILED: graph replay differs from running the step directly"; failed=1
fi
note "== $( [ $failed = 0 ] && echo ALL PASSED || echo SOME FAILED )"
# The benchmark against PyTorch on the same GPU (bench/cuda_step/run.py).
if [ $failed = 0 ] && python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  BENCH_LOGS=$out python3 "$here/bench/run.py" --repeat "${BENCH_REPEAT:-5}" > "$out/bench.md" 2>&1
  cat "$out/bench.md" | tee -a "$summary"
fi
exit $failed
