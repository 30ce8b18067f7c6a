"""Writes a training step of one of the example models at a given batch, so
that a data-parallel run (batch B per rank) and a single process (batch
B x ranks) can be compared. Usage:
export_dp_models.py mlp|transformer|bn-cnn BATCH OUT.mlir

mlp: examples/torch's MLP, SGD momentum; transformer: its TinyTransformer,
AdamW; bn-cnn: a batch-normalized CNN (class indices, SGD momentum), whose
running statistics are rank-local updates. All with a `predict`."""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "torch"))

import torch

import amp_mlir
from models import MLP, TinyTransformer, cross_entropy

name, batch, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
torch.manual_seed(0)
if name == "bn-cnn":
    model = torch.nn.Sequential(
        torch.nn.Unflatten(1, (1, 28, 28)),
        torch.nn.Conv2d(1, 8, 3, padding=1, bias=False), torch.nn.BatchNorm2d(8),
        torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
        torch.nn.Linear(8 * 14 * 14, 10))
    x, y = torch.rand(batch, 784), torch.randint(0, 10, (batch,))
    loss = torch.nn.functional.cross_entropy
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
else:
    model = MLP() if name == "mlp" else TinyTransformer()
    x = torch.rand(batch, 784)
    y = torch.nn.functional.one_hot(torch.arange(batch) % 10, 10).float()
    loss = cross_entropy
    optimizer = (torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
                 if name == "mlp" else
                 torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01))
step = amp_mlir.export_training_step(model, loss, optimizer, x, y, predict="predict")
with open(out, "w") as f:
    f.write(step)
