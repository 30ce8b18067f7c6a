#!/usr/bin/env python3
"""Compiled MLP training step (amp-compile, CPU) against PyTorch on the CPU.

Same model, batch and optimizer (examples/mlp/train_step_momentum.mlir vs
torch_step.py). Both run single-threaded (OPENBLAS_NUM_THREADS=1,
OMP_NUM_THREADS=1) and both use the BLAS that Debian's alternatives select
(OpenBLAS when libopenblas0 is installed; the script prints which). Runs
are interleaved REPEAT times; medians and the ratio to PyTorch are printed
as a Markdown table.

  bench/cpu_step/run.py [--repeat 7] [--steps 200] [--python /usr/bin/python3]
"""
import argparse
import os
import statistics
import subprocess
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=7)
parser.add_argument("--steps", type=int, default=200)
parser.add_argument("--build", default=os.path.join(root, "build"))
parser.add_argument("--python", default="/usr/bin/python3",
                    help="a Python with torch (Debian's python3-torch)")
args = parser.parse_args()
env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1",
           MKL_NUM_THREADS="1")

blas = subprocess.run(["readlink", "-f", "/etc/alternatives/libblas.so.3-x86_64-linux-gnu"],
                      capture_output=True, text=True).stdout.strip()
torch_version = subprocess.run(
    [args.python, "-c", "import torch; print(torch.__version__)"],
    capture_output=True, text=True, check=True).stdout.strip()

with tempfile.TemporaryDirectory() as tmp:
    bench = os.path.join(tmp, "bench_step")
    subprocess.run(["cc", "-O2", os.path.join(here, "bench_step.c"),
                    "-I", os.path.join(root, "runtime", "include"),
                    "-L", os.path.join(args.build, "lib"), "-lamprt",
                    f"-Wl,-rpath,{os.path.join(args.build, 'lib')}", "-o", bench],
                   check=True)
    artifacts = {}
    for precision in ["f32", "f16", "bf16"]:
        path = os.path.join(tmp, f"{precision}.so")
        subprocess.run([os.path.join(args.build, "bin", "amp-compile"),
                        os.path.join(root, "examples", "mlp", "train_step_momentum.mlir"),
                        f"--precision={precision}", "-o", path], check=True)
        artifacts[precision] = path
    samples = {name: [] for name in ["torch", "f32", "f16", "bf16"]}
    steps = str(args.steps)
    for _ in range(args.repeat):
        samples["torch"].append(float(subprocess.run(
            [args.python, os.path.join(here, "torch_step.py"), steps],
            capture_output=True, text=True, check=True, env=env).stdout))
        for precision, path in artifacts.items():
            samples[precision].append(float(subprocess.run(
                [bench, path, steps], capture_output=True, text=True,
                check=True, env=env).stdout))

print(f"PyTorch {torch_version}; BLAS: {blas}; one thread each; "
      f"{args.steps} steps x {args.repeat} interleaved runs")
print()
print("| step | median ms/step | vs PyTorch FP32 |")
print("| --- | ---: | ---: |")
base = statistics.median(samples["torch"])
rows = [("PyTorch FP32 (eager)", "torch"), ("amp-compile FP32", "f32"),
        ("amp-compile FP16-AMP", "f16"), ("amp-compile BF16-AMP", "bf16")]
for label, key in rows:
    median = statistics.median(samples[key])
    print(f"| {label} | {median:.3f} | {median / base:.2f}x |")
