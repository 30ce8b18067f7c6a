"""An aten op amp-mlir cannot compile is a clear error naming the op, the
model, the submodule whose forward called it and the user's source line."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import torch

import amp_mlir


class Sorted(torch.nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=1).values  # torch-mlir: tm_tensor.sort


class Gated(torch.nn.Module):
    """sort inside a submodule, or a Bessel function in the model's own
    forward (no torch-mlir lowering at all)."""

    def __init__(self, own_op=False):
        super().__init__()
        self.linear = torch.nn.Linear(8, 4)
        self.gate = torch.nn.Sequential(torch.nn.Sigmoid(), Sorted())
        self.own_op = own_op

    def forward(self, x):
        h = self.linear(x)
        return torch.special.bessel_j0(h) if self.own_op else self.gate(h)


def loss_fn(out, y):
    return ((out - y) * (out - y)).mean()


for own_op in (False, True):
    model = Gated(own_op)
    try:
        amp_mlir.export_training_step(model, loss_fn,
                                      torch.optim.SGD(model.parameters(), lr=0.1),
                                      torch.rand(2, 8), torch.rand(2, 4))
        print("exported: no error")
    except amp_mlir.UnsupportedOp as error:
        print(error)
