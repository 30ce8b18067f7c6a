#!/usr/bin/env bash
# Builds amp-mlir if needed and runs the whole test suite (lit). The last
# line is the summary: "N passed, N failed, N skipped".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/build.sh"
results="$root/build/test-results.json"
set +e
/usr/lib/llvm-22/bin/lit -sv -o "$results" "$root/build/test"
status=$?
set -e
python3 "$root/scripts/lit-summary.py" "$results"
exit $status
