#!/usr/bin/env bash
# Runs every libFuzzer target of build-asan/ (scripts/sanitize.sh builds
# them) for SECONDS each (default 20): first the saved regression inputs of
# fuzz/regressions/<target>/, then fuzzing from the seed corpus of
# fuzz/corpus/<target>/ (copied, so the repository is not changed). A crash
# is saved as fuzz/regressions/<target>/crash-* (commit it with its fix)
# and fails the run.
#   scripts/fuzz.sh [SECONDS]
# AMP_FUZZ_SEED (default 1) seeds libFuzzer's mutations, so that a run is
# repeatable; set another (or 0 for a random one) to explore elsewhere.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/build-asan/bin"
seconds=${1:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ASAN_OPTIONS=detect_leaks=0:detect_container_overflow=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

# The checkpoint fuzzer loads checkpoints into the tiny step's session.
"$bin/amp-compile" "$root/fuzz/tiny_step.mlir" --precision=f32 -o "$work/tiny.so"
export AMP_FUZZ_ARTIFACT="$work/tiny.so"

status=0
for target in checkpoint artifact policy passes npz; do
  corpus="$work/corpus-$target"
  mkdir -p "$root/fuzz/regressions/$target"
  mkdir -p "$corpus"
  cp "$root/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
  case $target in
    checkpoint) AMP_FUZZ_SEED_OUT="$corpus/valid.ckpt" "$bin/amp-fuzz-checkpoint" -runs=0 >/dev/null 2>&1 ;;
    artifact) cp "$work/tiny.so" "$corpus/tiny.so" ;;
  esac
  regressions=("$root/fuzz/regressions/$target/"*)
  if [ -e "${regressions[0]}" ]; then
    echo "== $target: ${#regressions[@]} regression inputs"
    "$bin/amp-fuzz-$target" "${regressions[@]}" || status=1
  fi
  echo "== $target: fuzzing for ${seconds}s"
  dict=()
  [ -f "$root/fuzz/$target.dict" ] && dict=(-dict="$root/fuzz/$target.dict")
  if ! "$bin/amp-fuzz-$target" "$corpus" "${dict[@]}" -max_total_time="$seconds" \
        -seed="${AMP_FUZZ_SEED:-1}" \
        -max_len=65536 -timeout=20 -rss_limit_mb=4096 \
        -artifact_prefix="$root/fuzz/regressions/$target/" -print_final_stats=1 \
        2>"$work/$target.log"; then
    tail -40 "$work/$target.log"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$work/$target.log" | sed "s/^/   /"
done
exit $status
