#!/usr/bin/env python3
"""Data-parallel throughput: one process against `mpirun -np 2`.

Usage: bench/data_parallel/run.py [--repeat 5] [--models mlp,transformer]
       [--precision f16] [--steps-scale 1.0]

For each example model (batch 64 per rank, Fashion-MNIST, one thread per
rank), runs interleaved in every repeat:
  1 rank          the plain step (amp-train --comm=none)
  1 rank, dp      the data-parallel step on one rank (the collectives'
                  cost when there is nothing to exchange)
  2 ranks f32     mpirun -np 2, gradients reduced in f32 (the default)
  2 ranks 16-bit  mpirun -np 2, gradients reduced in the step's precision
and prints the median (min-max) examples/s of the training loop (amp-train's
"trained N steps in T s" line, startup and compilation excluded), the
scaling efficiency (2-rank examples/s over twice the 1-rank figure) and the
bytes each rank reduces per step (amp-train's data-parallel line; a ring
all-reduce sends about 2 (n - 1) / n times that per rank).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("AMP_MLIR_BUILD", os.path.join(ROOT, "build"))
MODELS = {"mlp": ("examples/mlp/train_step_momentum.mlir", 600),
          "transformer": ("examples/transformer/train_step.mlir", 120)}


def mpirun(ranks):
    # Open MPI's defaults otherwise (shared memory with CMA single copies:
    # the test suite turns CMA off for containers, at twice the cost).
    command = ["mpirun", "-np", str(ranks), "--oversubscribe", "--bind-to", "none"]
    if os.geteuid() == 0:
        command.append("--allow-run-as-root")
    return command


def run(command):
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"failed: {' '.join(command)}\n{out.stdout}\n{out.stderr}")
    rate = float(re.search(r"trained \d+ steps in [\d.]+ s \((\d+) examples/s\)",
                           out.stdout).group(1))
    volume = re.search(r"all-reduce calls of (\d+) bytes", out.stdout)
    return rate, int(volume.group(1)) if volume else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--models", default="mlp,transformer")
    parser.add_argument("--precision", default="f16")
    parser.add_argument("--steps-scale", type=float, default=1.0)
    args = parser.parse_args()
    cache = tempfile.mkdtemp(prefix="amp-dp-bench-")
    train = os.path.join(BUILD, "bin", "amp-train")
    print(f"| model | configuration | examples/s median (min-max) | efficiency | "
          f"bytes reduced per step |")
    print("| --- | --- | ---: | ---: | ---: |")
    for name in args.models.split(","):
        source, steps = MODELS[name]
        steps = max(10, int(steps * args.steps_scale))
        common = [train, os.path.join(ROOT, source), f"--precision={args.precision}",
                  f"--steps={steps}", "--threads=1", "--quiet", f"--cache-dir={cache}"]
        configs = {
            "1 rank": common + ["--comm=none"],
            "1 rank, dp step": common + ["--comm=none", "--amp-options=data-parallel=true"],
            "2 ranks, f32 reduce": mpirun(2) + common,
            f"2 ranks, {args.precision} reduce":
                mpirun(2) + common + [f"--amp-options=reduce-type={args.precision}"],
        }
        for command in configs.values():  # compile once, outside the timing
            run(command)
        results = {key: [] for key in configs}
        volume = {}
        for _ in range(args.repeat):
            for key, command in configs.items():
                rate, volume[key] = run(command)
                results[key].append(rate)
        base = statistics.median(results["1 rank"])
        for key, rates in results.items():
            median = statistics.median(rates)
            ranks = 2 if key.startswith("2") else 1
            efficiency = f"{median / (ranks * base):.2f}"
            print(f"| {name} | {key} | {median:.0f} ({min(rates):.0f}-{max(rates):.0f}) | "
                  f"{efficiency} | {volume[key] or '-'} |")


if __name__ == "__main__":
    main()
