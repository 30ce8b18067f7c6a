#!/usr/bin/env python3
"""The memory a compiled training step touches, against what the precision
report predicts and against PyTorch eager, on the CPU.

For each model of bench_models.py and each precision (FP32, BF16-AMP,
FP16-AMP) it prints:
  - predicted: the activation bytes amp-precision-report counts for the
    step after the precision pipeline, as a ratio to the same values in f32
    (the saving the report promises; 1.00 for FP32);
  - workspace: the bytes amp-plan-step-memory gives the step (every
    temporary buffer, placed by liveness), in MB;
  - step memory, planned and not (`amp-compile --plan-memory=false`): the
    process's peak resident set over five steps less its resident set
    before the first (parameters and optimizer state are already in place
    then), in MB, the median of --repeat runs of bench_step.c;
  - PyTorch eager FP32 (for our FP32 row) and eager bf16 autocast (for the
    BF16 row) measured the same way by torch_step.py, less the optimizer
    state its first step creates.
Every measurement is its own process. Resident sets include the library
code and JIT kernels the first step pages in (oneDNN's on both sides), so
small steps are dominated by them.

  bench/cpu_step/memory.py [--models mlp,wide,cnn,transformer,resnet18,gpt2]
                           [--repeat 3] [--threads 1]
"""
import argparse
import os
import re
import statistics
import subprocess
import tempfile

from artifacts import build_bench_step, compile_step, root, step_source

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--models", default="mlp,wide,cnn,transformer,resnet18,gpt2")
parser.add_argument("--repeat", type=int, default=3)
parser.add_argument("--threads", type=int, default=1)
parser.add_argument("--build", default=os.path.join(root, "build"))
parser.add_argument("--python", default="/opt/amp-mlir/torch2/bin/python",
                    help="a Python with torch 2.x")
args = parser.parse_args()

PRECISIONS = ("f32", "bf16", "f16")
TORCH_MODE = {"f32": "fp32", "bf16": "bf16"}
STEPS = 5
env = dict(os.environ, OMP_NUM_THREADS=str(args.threads),
           OPENBLAS_NUM_THREADS=str(args.threads), HF_HUB_OFFLINE="1")
MB = 1e6


def predicted_ratio(source, precision):
    """Mixed over f32 activation bytes of @train_step in the report."""
    command = [os.path.join(args.build, "bin", "amp-opt"), source]
    if precision != "f32":
        command.append(f"--amp-pipeline=precision={precision}")
    command += ["--amp-precision-report", "-o", os.devnull]
    report = subprocess.run(command, capture_output=True, text=True, check=True).stderr
    step = report[report.index("report for @train_step"):]
    f32, mixed = re.search(r"activation bytes: f32 (\d+), mixed (\d+)", step).groups()
    return int(mixed) / int(f32)


def ours(bench, artifact):
    """(workspace bytes, step memory in bytes)."""
    run = subprocess.run([bench, artifact, str(STEPS), "0", str(args.threads)],
                         capture_output=True, text=True, check=True, env=env)
    fields = dict(item.split("=") for item in run.stderr.split()
                  if item.startswith(("workspace_bytes=", "rss_before_kib=", "peak_kib=")))
    return (int(fields["workspace_bytes"]),
            (int(fields["peak_kib"]) - int(fields["rss_before_kib"])) * 1024)


def torch_step_memory(model, mode):
    run = subprocess.run([args.python, os.path.join(here, "torch_step.py"), model,
                          mode, str(args.threads), "memory"],
                         capture_output=True, text=True, check=True, env=env)
    before, peak, state = map(int, run.stdout.split())
    return (peak - before - state) * 1024


def ratio(value, base):
    return f"{value / MB:.2f} ({value / base:.2f}x)"


with tempfile.TemporaryDirectory() as tmp:
    bench = build_bench_step(tmp, args.build)
    models = args.models.split(",")
    print(f"{args.threads} thread(s); step memory: median of {args.repeat} runs of "
          f"{STEPS} steps, MB (ratio to the same column's FP32 row)\n")
    print("| model | precision | predicted activations | workspace MB | "
          "step memory, planned | step memory, unplanned | PyTorch eager |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for model in models:
        source = step_source(model, tmp, args.python)
        rows = {}
        for precision in PRECISIONS:
            samples = {}
            for plan in ("true", "false"):
                artifact = compile_step(args.build, source, precision,
                                        os.path.join(tmp, f"{model}-{precision}-{plan}.so"),
                                        f"--plan-memory={plan}")
                samples[plan] = [ours(bench, artifact) for _ in range(args.repeat)]
            torch = None
            if precision in TORCH_MODE:
                torch = statistics.median(torch_step_memory(model, TORCH_MODE[precision])
                                          for _ in range(args.repeat))
            rows[precision] = (predicted_ratio(source, precision),
                               samples["true"][0][0],
                               statistics.median(s[1] for s in samples["true"]),
                               statistics.median(s[1] for s in samples["false"]),
                               torch)
        base = rows["f32"]
        for precision in PRECISIONS:
            predicted, workspace, planned, unplanned, torch = rows[precision]
            torch_cell = "-" if torch is None else ratio(torch, base[4])
            print(f"| {model} | {precision} | {predicted:.2f}x | "
                  f"{ratio(workspace, base[1])} | {ratio(planned, base[2])} | "
                  f"{ratio(unplanned, base[3])} | {torch_cell} |", flush=True)
