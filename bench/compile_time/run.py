"""Compile time of real training steps against their size: torchvision
ResNet-18, -34 and -50 (batch 8, 32x32, SGD momentum) exported through the
PyTorch front end, then `amp-compile --precision=f16` (the whole path:
amp pipeline, lowering, LLVM, link), each timed REPEATS times (median,
min, max). Op counts are the operations of the exported step (what the
amp pipeline sees). Linear growth shows as a constant time per op.

  /opt/amp-mlir/torch2/bin/python bench/compile_time/run.py [--repeats 3]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "python"))

import torch
import torchvision

import amp_mlir

parser = argparse.ArgumentParser()
parser.add_argument("--repeats", type=int, default=3)
parser.add_argument("--precision", default="f16")
parser.add_argument("--build", default=os.path.join(root, "build"))
args = parser.parse_args()
compiler = os.path.join(args.build, "bin", "amp-compile")
workdir = tempfile.mkdtemp(prefix="compile-time-")
print(f"| model | ops in the step | export (s) | amp-compile {args.precision} (s): median (min-max) "
      "| ms per op |")
print("| --- | ---: | ---: | ---: | ---: |")
for name in ("resnet18", "resnet34", "resnet50"):
    torch.manual_seed(0)
    model = getattr(torchvision.models, name)(num_classes=10)
    images, labels = torch.randn(8, 3, 32, 32), torch.randint(0, 10, (8,))
    start = time.time()
    text = amp_mlir.export_training_step(
        model, torch.nn.functional.cross_entropy,
        torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9), images, labels)
    exported = time.time() - start
    source = os.path.join(workdir, f"{name}.mlir")
    with open(source, "w") as f:
        f.write(text)
    stats = subprocess.run([os.path.join(args.build, "bin", "amp-opt"), source,
                            "--print-op-stats", "-o", "/dev/null"],
                           capture_output=True, text=True).stderr
    ops = sum(int(line.split(",")[-1]) for line in stats.splitlines()
              if "," in line and line.strip().split(",")[-1].strip().isdigit())
    times = []
    for _ in range(args.repeats):
        start = time.time()
        subprocess.run([compiler, source, "-o", os.path.join(workdir, f"{name}.so"),
                        f"--precision={args.precision}"], check=True,
                       stderr=subprocess.DEVNULL)
        times.append(time.time() - start)
    median = statistics.median(times)
    print(f"| {name} | {ops} | {exported:.1f} | {median:.1f} ({min(times):.1f}-{max(times):.1f}) "
          f"| {1000 * median / ops:.2f} |", flush=True)
