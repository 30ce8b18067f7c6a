#!/usr/bin/env python3
"""Training steps compiled by amp-compile (FP32, BF16-AMP, FP16-AMP) against
PyTorch eager FP32, eager bf16 autocast and torch.compile bf16 on the CPU,
for the models of bench_models.py, at 1 thread and at all cores.

Every configuration runs in its own process (ours: bench_step.c through
libamprt; PyTorch: torch_step.py, a server that compiles once); one model
at a time, its runs are interleaved REPEAT times, so that the noise of a
shared machine hits all alike. Printed: Markdown tables of medians with min and max, and the
ratio of each median to PyTorch eager FP32's in the same run.

  bench/cpu_step/run.py [--repeat 5] [--models mlp,wide,cnn,transformer,resnet18,gpt2]
                        [--threads 1,all] [--python /opt/amp-mlir/torch2/bin/python]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from artifacts import build_bench_step, compile_step, root, step_source

here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--models", default="mlp,wide,cnn,transformer,resnet18,gpt2")
parser.add_argument("--threads", default="1,all")
parser.add_argument("--build", default=os.path.join(root, "build"))
parser.add_argument("--python", default="/opt/amp-mlir/torch2/bin/python",
                    help="a Python with torch 2.x")
parser.add_argument("--time", type=float, default=0.5,
                    help="seconds per sample, roughly")
args = parser.parse_args()

models = args.models.split(",")
threads = [os.cpu_count() if t == "all" else int(t)
           for t in args.threads.split(",")]
TORCH_MODES = [("fp32", "PyTorch eager FP32"),
               ("bf16", "PyTorch eager bf16 autocast"),
               ("compile-bf16", "torch.compile bf16")]
OURS = [("f32", "ours FP32"), ("bf16", "ours BF16-AMP"), ("f16", "ours FP16-AMP")]
# Neither side may take more threads than it is given.
base_env = dict(os.environ, HF_HUB_OFFLINE="1")
for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    base_env.pop(var, None)


def start_torch(model, mode, count):
    env = dict(base_env, OMP_NUM_THREADS=str(count))
    proc = subprocess.Popen([args.python, os.path.join(here, "torch_step.py"),
                             model, mode, str(count)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    return proc


def torch_sample(proc, steps):
    proc.stdin.write(f"{steps}\n")
    proc.stdin.flush()
    return float(proc.stdout.readline())


def ours_sample(bench, artifact, steps, count):
    env = dict(base_env, OMP_NUM_THREADS=str(count),
               OPENBLAS_NUM_THREADS=str(count))
    out = subprocess.run([bench, artifact, str(steps), "5", str(count)],
                         capture_output=True, text=True, check=True, env=env)
    return float(out.stdout)


def cell(values, base):
    median = statistics.median(values)
    return (f"{median / base:.2f}x ({median:.2f} ms, "
            f"{min(values):.2f}-{max(values):.2f})")


with tempfile.TemporaryDirectory() as tmp:
    bench = build_bench_step(tmp, args.build)
    sources = {model: step_source(model, tmp, args.python) for model in models}
    artifacts = {}
    for model in models:
        for precision, _ in OURS:
            artifacts[model, precision] = compile_step(
                args.build, sources[model], precision,
                os.path.join(tmp, f"{model}-{precision}.so"))
    torch_version = subprocess.run(
        [args.python, "-c", "import torch; print(torch.__version__)"],
        capture_output=True, text=True, check=True).stdout.strip()
    print(f"PyTorch {torch_version}; {os.cpu_count()} cores; "
          f"{args.repeat} interleaved runs; cells: median ratio to PyTorch "
          f"eager FP32 (median ms, min-max)\n")

    for count in threads:
        samples = {}
        # One model at a time, its PyTorch servers alive only meanwhile:
        # with every model's servers idling beside it, a step timed on two
        # threads could run at half speed (ResNet-18 BF16: 40 ms alone,
        # 75 ms beside 18 servers idle for 2 s).
        for model in models:
            procs = {mode: start_torch(model, mode, count)
                     for mode, _ in TORCH_MODES}
            for proc in procs.values():
                assert proc.stdout.readline().strip() == "ready"
            # Steps per sample from one timing of PyTorch eager FP32.
            ms = torch_sample(procs["fp32"], 3)
            steps = max(3, int(args.time * 1e3 / ms))
            for _ in range(args.repeat):
                for mode, _ in TORCH_MODES:
                    samples.setdefault((model, "torch-" + mode), []).append(
                        torch_sample(procs[mode], steps))
                for precision, _ in OURS:
                    samples.setdefault((model, "ours-" + precision), []).append(
                        ours_sample(bench, artifacts[model, precision], steps,
                                    count))
            for proc in procs.values():
                proc.stdin.close()
                proc.wait()
        columns = ([("torch-" + mode, label) for mode, label in TORCH_MODES] +
                   [("ours-" + precision, label) for precision, label in OURS])
        print(f"{count} thread{'s' if count > 1 else ''}:\n")
        print("| model | " + " | ".join(label for _, label in columns) + " |")
        print("| --- |" + " ---: |" * len(columns))
        for model in models:
            base = statistics.median(samples[model, "torch-fp32"])
            print(f"| {model} | " + " | ".join(
                cell(samples[model, key], base) for key, _ in columns) + " |")
        print()
        sys.stdout.flush()
