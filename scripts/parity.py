#!/usr/bin/env python3
"""FP32 vs FP16-AMP vs BF16-AMP on full Fashion-MNIST with amp-train.

For each optimizer variant of the example MLP (SGD+momentum, AdamW) and each
precision, trains the same seed for the same number of epochs, keeps the CSV
logs, and writes a Markdown table (test accuracy, skipped steps, final
scale) and, when matplotlib is installed, a loss-curve plot.

  scripts/parity.py [--epochs 5] [--jobs 2] [--out build/parity]
"""
import argparse
import csv
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=5)
parser.add_argument("--jobs", type=int, default=2)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--out", default=os.path.join(root, "build", "parity"))
parser.add_argument("--build", default=os.path.join(root, "build"))
args = parser.parse_args()
os.makedirs(args.out, exist_ok=True)
train = os.path.join(args.build, "bin", "amp-train")
variants = {"sgd-momentum": "train_step_momentum.mlir", "adamw": "train_step_adamw.mlir"}
precisions = ["f32", "f16", "bf16"]


def run(job):
    variant, precision = job
    log = os.path.join(args.out, f"{variant}-{precision}.csv")
    out = subprocess.run(
        [train, os.path.join(root, "examples", "mlp", variants[variant]),
         f"--precision={precision}", f"--epochs={args.epochs}",
         f"--seed={args.seed}", f"--log={log}", "--quiet"],
        capture_output=True, text=True, check=True).stdout
    accuracy = float(re.search(r"test accuracy ([0-9.]+)%", out).group(1))
    steps, skipped, scale = re.search(
        r"steps (\d+) skipped (\d+) final-scale (\S+)", out).groups()
    return variant, precision, accuracy, int(skipped), scale, log


jobs = [(v, p) for v in variants for p in precisions]
with ThreadPoolExecutor(args.jobs) as pool:
    results = list(pool.map(run, jobs))

lines = ["| optimizer | precision | test accuracy | vs FP32 | skipped steps | final scale |",
         "| --- | --- | ---: | ---: | ---: | ---: |"]
fp32 = {v: a for v, p, a, *_ in results if p == "f32"}
for variant, precision, accuracy, skipped, scale, _ in results:
    name = {"f32": "FP32", "f16": "FP16-AMP", "bf16": "BF16-AMP"}[precision]
    delta = accuracy - fp32[variant]
    lines.append(f"| {variant} | {name} | {accuracy:.2f}% | {delta:+.2f} pp | "
                 f"{skipped} | {scale} |")
table = "\n".join(lines)
open(os.path.join(args.out, "table.md"), "w").write(table + "\n")
print(table)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed (apt-get install python3-matplotlib): no plot",
          file=sys.stderr)
    sys.exit(0)
fig, axes = plt.subplots(1, len(variants), figsize=(12, 4), sharey=True)
for ax, variant in zip(axes, variants):
    for v, precision, accuracy, _, _, log in results:
        if v != variant:
            continue
        rows = list(csv.DictReader(open(log)))
        window = 50
        losses = [float(r["loss"]) for r in rows]
        smooth = [sum(losses[max(0, i - window + 1):i + 1]) / len(losses[max(0, i - window + 1):i + 1])
                  for i in range(len(losses))]
        ax.plot(range(1, len(smooth) + 1), smooth,
                label=f"{precision} ({accuracy:.2f}%)", linewidth=1)
    ax.set_title(f"MLP 784-256-10, {variant}")
    ax.set_xlabel("step")
    ax.legend()
axes[0].set_ylabel(f"training loss (mean of 50 steps)")
fig.tight_layout()
path = os.path.join(args.out, "loss.png")
fig.savefig(path, dpi=100)
print(f"plot: {path}")
