#!/usr/bin/env python3
"""Autocast pass time against graph size, with plain parse + print as floor.

For each size it generates a graph (gen_graph.py), then runs, side by side
and REPEAT times each, pinned to one core:
  - amp-opt --amp-autocast with --mlir-timing (the pass's own wall time),
  - amp-opt parse + print (no pass), and
  - Debian's mlir-opt-22 parse + print (the floor for any MLIR tool).
It prints medians as a Markdown table. Usage:
  bench/autocast/run.py [--build build] [--repeat 7] [SIZE ...]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

parser = argparse.ArgumentParser()
parser.add_argument("--build", default=os.path.join(root, "build"))
parser.add_argument("--repeat", type=int, default=7)
parser.add_argument("--mlir-opt", default="/usr/lib/llvm-22/bin/mlir-opt")
parser.add_argument("sizes", nargs="*", type=int, default=[10000, 100000])
args = parser.parse_args()
amp_opt = os.path.join(args.build, "bin", "amp-opt")
pin = ["taskset", "-c", "0"] if subprocess.run(
    ["which", "taskset"], capture_output=True).returncode == 0 else []


def wall(cmd):
    start = time.perf_counter()
    out = subprocess.run(pin + cmd, capture_output=True, text=True, check=True)
    return time.perf_counter() - start, out.stderr


def pass_time(stderr):
    match = re.search(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+AutocastPass$",
                      stderr, re.M)
    return float(match.group(1))


print("| ops | amp-autocast pass (s) | amp-opt with pass (s) | "
      "amp-opt parse+print (s) | mlir-opt-22 parse+print (s) | "
      "pass us/op |")
print("| ---: | ---: | ---: | ---: | ---: | ---: |")
with tempfile.TemporaryDirectory() as tmp:
    for size in args.sizes:
        path = os.path.join(tmp, f"g{size}.mlir")
        with open(path, "w") as f:
            subprocess.run(["python3", os.path.join(here, "gen_graph.py"),
                            str(size)], stdout=f, check=True)
        samples = {"pass": [], "with": [], "amp": [], "mlir": []}
        for _ in range(args.repeat):
            # Interleaved so that machine noise hits every column alike.
            t, err = wall([amp_opt, path, "--amp-autocast", "--mlir-timing",
                           "-o", os.devnull])
            samples["with"].append(t)
            samples["pass"].append(pass_time(err))
            samples["amp"].append(wall([amp_opt, path, "-o", os.devnull])[0])
            samples["mlir"].append(
                wall([args.mlir_opt, path, "-o", os.devnull])[0])
        med = {k: statistics.median(v) for k, v in samples.items()}
        print(f"| {size} | {med['pass']:.3f} | {med['with']:.3f} | "
              f"{med['amp']:.3f} | {med['mlir']:.3f} | "
              f"{1e6 * med['pass'] / size:.2f} |")
