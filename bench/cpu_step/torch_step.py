"""One benchmark model's training step in PyTorch, timed like bench_step.c,
as a small server so that compiled modes compile once and runs can be
interleaved with ours: each line "STEPS" on stdin runs STEPS steps on a
fixed random batch and prints milliseconds per step.

  torch_step.py MODEL MODE THREADS [memory]   (MODE: fp32 | bf16 | compile-bf16)

MODE fp32 is eager FP32; bf16 is eager under torch.autocast("cpu",
torch.bfloat16) (PyTorch's CPU mixed precision: oneDNN bf16 matmuls and
convolutions, f32 master weights); compile-bf16 is the same step through
torch.compile (inductor).

With "memory" it serves nothing: it prints the resident set before the
first step, the peak after five, and the bytes of optimizer state those
steps created (what our session holds before its first step), in KiB, for
memory.py."""
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_models import build  # noqa: E402

name, mode, threads = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.set_num_threads(threads)
torch.manual_seed(0)
model, loss_fn, optimizer, inputs, k = build(name)


def compute_loss():
    out = model(*inputs[:k])
    return loss_fn(out, *inputs[k:]) if loss_fn else out


def step():
    optimizer.zero_grad(set_to_none=True)
    if mode == "fp32":
        loss = compute_loss()
    else:
        with torch.autocast("cpu", dtype=torch.bfloat16):
            loss = compute_loss()
    loss.backward()
    optimizer.step()


def status_kib(field):
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return -1


if len(sys.argv) > 4 and sys.argv[4] == "memory":
    rss_before = status_kib("VmRSS")
    for _ in range(5):
        step()
    state = sum(value.numel() * value.element_size()
                for per_param in optimizer.state.values()
                for value in per_param.values() if torch.is_tensor(value))
    print(rss_before, status_kib("VmHWM"), state // 1024)
    sys.exit(0)
if mode == "compile-bf16":
    step = torch.compile(step)
for _ in range(5):  # warm up (and compile)
    step()
print("ready", flush=True)
for line in sys.stdin:
    steps = int(line)
    start = time.perf_counter()
    for _ in range(steps):
        step()
    print(f"{(time.perf_counter() - start) * 1e3 / steps:.4f}", flush=True)
