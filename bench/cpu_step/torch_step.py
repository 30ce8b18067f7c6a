"""The example MLP step in PyTorch (Linear 784-256, ReLU, Linear 256-10,
cross-entropy, SGD momentum 0.9 lr 0.05, batch 64), timed like
bench_step.c: WARMUP steps, then STEPS steps on a fixed random batch;
prints milliseconds per step. Usage: torch_step.py STEPS [WARMUP]"""
import sys
import time

import torch

torch.manual_seed(0)
steps = int(sys.argv[1])
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 5
model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                            torch.nn.Linear(256, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
x = torch.rand(64, 784)
y = torch.arange(64) % 10


def step():
    optimizer.zero_grad(set_to_none=True)
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()


for _ in range(warmup):
    step()
start = time.perf_counter()
for _ in range(steps):
    step()
print(f"{(time.perf_counter() - start) * 1e3 / steps:.4f}")
