"""One benchmark model's training step in PyTorch on the GPU, timed like
bench_step.c, as a small server so that compiled modes compile once and
runs interleave with ours: after WARMUP steps it prints "ready", then each
line "STEPS" on stdin runs STEPS steps on a fixed batch, synchronized, and
prints milliseconds per step.

  torch_amp_step.py MODEL MODE [WARMUP]

MODEL is one of bench_models.py's (mlp: examples/mlp/train_step_momentum,
SGD momentum; transformer: examples/transformer, AdamW; epilogue:
epilogue_step.mlir's loss = w[0] * x over 2^24 params, SGD momentum; the
same classes, batches and optimizers our artifacts come from). MODE:
  fp32          eager FP32
  fp16          eager torch.autocast(float16) + GradScaler
  bf16          eager torch.autocast(bfloat16)
  compile-fp16  the fp16 step with the model under torch.compile
  compile-bf16  the bf16 step with the model under torch.compile
The compiled modes compile the loss computation (forward and, through
AOTAutograd, backward) with mode="reduce-overhead": inductor kernels
replayed as CUDA graphs, PyTorch's fastest setting for small steps. The
optimizer and GradScaler stay eager, as in `model = torch.compile(model)`
(GradScaler reads found_inf on the host). If reduce-overhead fails on
this machine, the default mode is used; stderr says which ran.

AMP_BENCH_DEVICE=cpu runs the same script on the CPU (a smoke test of the
script where there is no GPU; autocast then uses the CPU's bf16/f16).
"""
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_models import build  # noqa: E402

name, mode = sys.argv[1], sys.argv[2]
warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 20
device = os.environ.get("AMP_BENCH_DEVICE", "cuda")
torch.manual_seed(0)
model, loss_fn, optimizer, inputs, k = build(name)
model.to(device)  # in place: the optimizer keeps the same parameters
inputs = [x.to(device) for x in inputs]
precision = mode.removeprefix("compile-")
dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(precision)
scaler = torch.amp.GradScaler(device) if precision == "fp16" else None


def compute_loss(*tensors):
    out = model(*tensors[:k])
    return loss_fn(out, *tensors[k:]) if loss_fn else out


forward = compute_loss
compiled = mode.startswith("compile-")


def step():
    if compiled:
        torch.compiler.cudagraph_mark_step_begin()
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device, dtype=dtype, enabled=dtype is not None):
        loss = forward(*inputs)
    if scaler:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()


def synchronize():
    if device == "cuda":
        torch.cuda.synchronize()


def warm_up():
    for _ in range(warmup):
        step()
    synchronize()


if compiled:
    try:
        forward = torch.compile(compute_loss, mode="reduce-overhead")
        warm_up()
        print(f"{name} {mode}: torch.compile mode=reduce-overhead", file=sys.stderr)
    except Exception as error:  # noqa: BLE001 - any backend failure
        print(f"{name} {mode}: reduce-overhead failed ({type(error).__name__}: "
              f"{error}); torch.compile default mode", file=sys.stderr)
        torch._dynamo.reset()
        forward = torch.compile(compute_loss)
        compiled = False  # no CUDA graphs to mark
        warm_up()
else:
    warm_up()

print("ready", flush=True)
for line in sys.stdin:
    steps = int(line)
    start = time.perf_counter()
    for _ in range(steps):
        step()
    synchronize()
    print(f"{(time.perf_counter() - start) * 1e3 / steps:.4f}", flush=True)
