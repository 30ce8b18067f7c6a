#!/usr/bin/env python3
"""Compiled MLP training step (amp-compile --target=cuda) against PyTorch
on the same GPU: FP32, and mixed precision (ours: --amp-pipeline; PyTorch:
autocast + GradScaler for FP16, autocast for BF16). Same model, batch,
optimizer and data shapes (examples/mlp/train_step_momentum.mlir vs
torch_amp_step.py). Runs are interleaved REPEAT times; medians and ratios
to PyTorch FP32 are printed as a Markdown table.

Runs on the GPU machine from the bundle of scripts/cuda-device-bundle.sh
(bench_step and the artifacts are compiled here, no MLIR there):
  python3 build/cuda-check/bench/run.py [--repeat 7] [--steps 200]
"""
import argparse
import os
import statistics
import subprocess

here = os.path.dirname(os.path.abspath(__file__))
bundle = os.path.dirname(here)
parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=7)
parser.add_argument("--steps", type=int, default=200)
args = parser.parse_args()
# Our binaries get the bundle's libraries; PyTorch keeps its own.
ours = dict(os.environ)
ours["LD_LIBRARY_PATH"] = os.environ.get(
    "AMP_BUNDLE_LIBRARY_PATH", f"{bundle}/lib:/usr/local/cuda/lib64")

gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                     capture_output=True, text=True).stdout.strip()
torch_version = subprocess.run(["python3", "-c", "import torch; print(torch.__version__)"],
                               capture_output=True, text=True, check=True).stdout.strip()
modes = ["fp32", "fp16", "bf16"]
samples = {(side, mode): [] for side in ("torch", "amp") for mode in modes}
steps = str(args.steps)
for _ in range(args.repeat):
    for mode in modes:
        samples[("torch", mode)].append(float(subprocess.run(
            ["python3", os.path.join(here, "torch_amp_step.py"), mode, steps],
            capture_output=True, text=True, check=True).stdout))
        samples[("amp", mode)].append(float(subprocess.run(
            [os.path.join(bundle, "bin", "bench_step"),
             os.path.join(here, f"mlp-{mode}.so"), steps, "20"],
            capture_output=True, text=True, check=True, env=ours).stdout))

print(f"{gpu}; PyTorch {torch_version}; {args.steps} steps x {args.repeat} interleaved runs")
print()
print("| step | median ms/step | vs PyTorch FP32 |")
print("| --- | ---: | ---: |")
base = statistics.median(samples[("torch", "fp32")])
labels = {"fp32": "FP32", "fp16": "FP16-AMP", "bf16": "BF16-AMP"}
for side, name in (("torch", "PyTorch eager"), ("amp", "amp-compile --target=cuda")):
    for mode in modes:
        median = statistics.median(samples[(side, mode)])
        print(f"| {name} {labels[mode]} | {median:.3f} | {median / base:.2f}x |")
