"""The models of the CPU step benchmark, built the same way for PyTorch
(torch_step.py) and for our exporter (run.py writes the wide MLP's step;
the others are the committed examples, exported from the same classes):

  mlp          examples/mlp/train_step_momentum.mlir: 784-256-10, batch 64,
               SGD momentum 0.9 lr 0.05
  wide         784-2048-2048-10, batch 256, SGD momentum 0.9 lr 0.01
  cnn          examples/cnn: TinyCNN, batch 64, AdamW lr 1e-3 wd 0.01
  transformer  examples/transformer: TinyTransformer, batch 64, AdamW

All use softmax cross-entropy on one-hot labels (examples/torch/models.py).
"""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "torch"))
from models import TinyCNN, TinyTransformer, cross_entropy  # noqa: E402

BATCH = {"mlp": 64, "wide": 256, "cnn": 64, "transformer": 64}


def network(name):
    if name == "mlp":
        return torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                   torch.nn.Linear(256, 10))
    if name == "wide":
        return torch.nn.Sequential(
            torch.nn.Linear(784, 2048), torch.nn.ReLU(),
            torch.nn.Linear(2048, 2048), torch.nn.ReLU(),
            torch.nn.Linear(2048, 10))
    return {"cnn": TinyCNN, "transformer": TinyTransformer}[name]()


def build(name):
    """(model, loss_fn, optimizer, x, y) for one benchmark model."""
    model = network(name)
    if name in ("mlp", "wide"):
        optimizer = torch.optim.SGD(model.parameters(),
                                    lr=0.05 if name == "mlp" else 0.01,
                                    momentum=0.9)
    else:
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3,
                                      weight_decay=0.01)
    batch = BATCH[name]
    x = torch.rand(batch, 784)
    y = torch.nn.functional.one_hot(torch.arange(batch) % 10, 10).float()
    return model, cross_entropy, optimizer, x, y
