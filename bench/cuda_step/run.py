#!/usr/bin/env python3
"""Compiled training steps (amp-compile --target=cuda) against PyTorch on
the same GPU, for the example MLP (SGD momentum), the example
transformer (AdamW) and the epilogue step (epilogue_step.mlir: 2^24
parameters whose step is all gradient, overflow check and SGD momentum
on the masters): PyTorch eager FP32, eager mixed precision (autocast
+ GradScaler for FP16, autocast for BF16) and the same under
torch.compile (torch_amp_step.py), and ours at f32, f16 and bf16
(--amp-pipeline). Same models, batches, optimizers and data shapes (the
artifacts are the committed examples, exported from bench_models.py's
classes). Runs are interleaved REPEAT times; medians, min-max and ratios
to PyTorch eager FP32 and to PyTorch's eager AMP step of the same
precision are printed as Markdown tables. The epilogue's table adds its
effective bandwidth, the bytes such a step cannot avoid moving divided by
its time, against the GPU's device-to-device copy bandwidth measured by
PyTorch in the same run (EPILOGUE_BYTES).

Runs on the GPU machine from the bundle of scripts/cuda-device-bundle.sh
(bench_step and the artifacts are compiled here, no MLIR there):
  python3 build/cuda-check/bench/run.py [--repeat 5] [--steps 200] [--models mlp,transformer,epilogue]
"""
import argparse
import os
import statistics
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
bundle = os.path.dirname(here)
parser = argparse.ArgumentParser()
parser.add_argument("--repeat", type=int, default=5)
parser.add_argument("--steps", type=int, default=200)
parser.add_argument("--models", default="mlp,transformer,epilogue")
args = parser.parse_args()
# Our binaries get the bundle's libraries; PyTorch keeps its own.
ours = dict(os.environ)
ours["LD_LIBRARY_PATH"] = os.environ.get(
    "AMP_BUNDLE_LIBRARY_PATH", f"{bundle}/lib:/usr/local/cuda/lib64")

try:
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version",
                          "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
except FileNotFoundError:
    gpu = "no nvidia-smi"
torch_version = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"],
                               capture_output=True, text=True, check=True).stdout.strip()
models = args.models.split(",")
torch_modes = ["fp32", "fp16", "bf16", "compile-fp16", "compile-bf16"]
our_modes = ["fp32", "fp16", "bf16"]
steps = str(args.steps)
sys.path.insert(0, here)
from bench_models import EPILOGUE_PARAMS  # noqa: E402  (epilogue_step.mlir's N)
# Bytes per parameter that the epilogue step must move at the least, all
# gradients f32 (the masters' precision): the backward writes the
# gradient (4); the update reads it (4) and reads and writes the master
# and the momentum (16). Loss scaling (f16) adds one read of the gradient
# (4) for the overflow check, which must finish before any update is
# written. The same figure serves PyTorch, whose GradScaler moves more.
EPILOGUE_BYTES = {"fp32": 24, "fp16": 28, "bf16": 24}
COPY_PROBE = """
import statistics, torch
if not torch.cuda.is_available():
    raise SystemExit("no CUDA device")
src = torch.empty(1 << 26, device="cuda")
dst = torch.empty_like(src)
times = []
for _ in range(25):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    dst.copy_(src)
    end.record()
    end.synchronize()
    times.append(start.elapsed_time(end))
print(2 * src.numel() * 4 / statistics.median(times[5:]) / 1e6)
"""


class TorchStep:
    """A torch_amp_step.py server: compiled once, timed on request."""

    def __init__(self, model, mode):
        self.label = f"PyTorch {model} {mode}"
        self.log = open(os.path.join(logs, f"torch-{model}-{mode}.err"), "w")
        self.process = subprocess.Popen(
            [sys.executable, os.path.join(here, "torch_amp_step.py"), model, mode],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True)
        self.ready = False

    def wait_ready(self):
        """Waits for its warm-up (and compilation) to finish."""
        self.ready = self.process.stdout.readline().strip() == "ready"
        if not self.ready:
            print(f"{self.label} failed to start (see {self.log.name})", file=sys.stderr)

    def time(self):
        if not self.ready:
            return None
        self.process.stdin.write(steps + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            print(f"{self.label} died (see {self.log.name})", file=sys.stderr)
            self.ready = False
            return None
        return float(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait()
        self.log.close()
        with open(self.log.name) as log:
            notes.update(line.strip() for line in log if "torch.compile" in line)


def time_ours(model, mode):
    run = subprocess.run([os.path.join(bundle, "bin", "bench_step"),
                          os.path.join(here, f"{model}-{mode}.so"), steps, "20"],
                         capture_output=True, text=True, env=ours)
    if run.returncode != 0:
        print(f"ours {model} {mode} failed:\n{run.stderr[-2000:]}", file=sys.stderr)
        return None
    return float(run.stdout.split()[-1])


notes = set()
logs = os.environ.get("BENCH_LOGS", here)
# Started together: their compilations overlap (the run stays within the
# device machine's minutes); they time one at a time below.
servers = {(model, mode): TorchStep(model, mode) for model in models for mode in torch_modes}
for server in servers.values():
    server.wait_ready()
samples = {}
for _ in range(args.repeat):
    for model in models:
        for mode in torch_modes:
            samples.setdefault(("torch", model, mode), []).append(servers[(model, mode)].time())
        for mode in our_modes:
            samples.setdefault(("amp", model, mode), []).append(time_ours(model, mode))
for server in servers.values():
    server.close()


def copy_bandwidth():
    """The GPU's device-to-device copy bandwidth in GB/s (read + write of
    256 MB, median of 20 copies), or None without a GPU."""
    run = subprocess.run([sys.executable, "-c", COPY_PROBE], capture_output=True, text=True)
    if run.returncode != 0:
        print(f"copy bandwidth not measured: {run.stderr.strip()[-300:]}", file=sys.stderr)
        return None
    return float(run.stdout)


copy_gbs = copy_bandwidth() if "epilogue" in models else None


def median(key):
    values = [v for v in samples.get(key, []) if v is not None]
    return (statistics.median(values), min(values), max(values)) if values else None


print(f"{gpu}; PyTorch {torch_version}; {args.steps} steps x {args.repeat} interleaved runs; "
      "ms per step, median (min-max)")
labels = {"fp32": "FP32", "fp16": "FP16-AMP", "bf16": "BF16-AMP",
          "compile-fp16": "FP16-AMP", "compile-bf16": "BF16-AMP"}
for model in models:
    base = median(("torch", model, "fp32"))
    print()
    print(f"{model}:")
    print()
    epilogue = model == "epilogue"
    if epilogue:
        print(f"GB/s: {EPILOGUE_PARAMS} params x bytes per param (24, 28 with the overflow "
              f"check) / step time; device copy bandwidth "
              + (f"{copy_gbs:.0f} GB/s" if copy_gbs else "not measured"))
        print()
    print("| step | ms | vs PyTorch eager FP32 | vs PyTorch eager AMP, same precision |"
          + (" GB/s | of copy bandwidth |" if epilogue else ""))
    print("| --- | ---: | ---: | ---: |" + (" ---: | ---: |" if epilogue else ""))
    rows = [("torch", mode, ("torch.compile " if mode.startswith("compile") else
                             "PyTorch eager ") + labels[mode]) for mode in torch_modes]
    rows += [("amp", mode, "amp-compile --target=cuda " + labels[mode]) for mode in our_modes]
    for side, mode, label in rows:
        m = median((side, model, mode))
        if m is None:
            print(f"| {label} | failed | | |" + (" | |" if epilogue else ""))
            continue
        precision = mode.removeprefix("compile-")
        eager = median(("torch", model, precision)) if precision != "fp32" else None
        versus_base = f"{m[0] / base[0]:.2f}x" if base else ""
        versus_eager = f"{m[0] / eager[0]:.2f}x" if eager else ""
        bandwidth = ""
        if epilogue:
            gbs = EPILOGUE_PARAMS * EPILOGUE_BYTES[precision] / m[0] / 1e6
            share = f"{gbs / copy_gbs:.0%}" if copy_gbs else ""
            bandwidth = f" {gbs:.0f} | {share} |"
        print(f"| {label} | {m[0]:.3f} ({m[1]:.3f}-{m[2]:.3f}) | {versus_base} | {versus_eager} |"
              + bandwidth)
if notes:
    print()
    for note in sorted(notes):
        print(f"- {note}")
