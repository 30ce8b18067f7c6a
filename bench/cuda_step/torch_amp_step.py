"""The example MLP step in PyTorch on the GPU (Linear 784-256, ReLU,
Linear 256-10, cross-entropy, SGD momentum 0.9 lr 0.05, batch 64), in FP32,
or with PyTorch's own mixed precision: torch.autocast(float16) +
GradScaler, or torch.autocast(bfloat16). Timed like bench_step.c: WARMUP
steps, then STEPS steps on a fixed batch, synchronized; prints
milliseconds per step. Usage: torch_amp_step.py fp32|fp16|bf16 STEPS [WARMUP]
"""
import sys
import time

import torch

mode, steps = sys.argv[1], int(sys.argv[2])
warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 20
device = "cuda"
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                            torch.nn.Linear(256, 10)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x = torch.rand(64, 784, device=device)
y = torch.arange(64, device=device) % 10
dtype = {"fp16": torch.float16, "bf16": torch.bfloat16}.get(mode)
scaler = torch.amp.GradScaler("cuda") if mode == "fp16" else None


def step():
    optimizer.zero_grad(set_to_none=True)
    with torch.autocast(device, dtype=dtype, enabled=dtype is not None):
        loss = torch.nn.functional.cross_entropy(model(x), y)
    if scaler:
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    else:
        loss.backward()
        optimizer.step()


for _ in range(warmup):
    step()
torch.cuda.synchronize()
start = time.perf_counter()
for _ in range(steps):
    step()
torch.cuda.synchronize()
print(f"{(time.perf_counter() - start) * 1e3 / steps:.4f}")
