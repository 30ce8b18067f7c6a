"""An aten op without a TOSA lowering is a clear error naming the op, the
model and the submodule whose forward called it."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import torch

import amp_mlir


class Cumulative(torch.nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1)


class Gated(torch.nn.Module):
    """cumsum inside a submodule, sin in the model's own forward."""

    def __init__(self, own_op=False):
        super().__init__()
        self.linear = torch.nn.Linear(8, 4)
        self.gate = torch.nn.Sequential(torch.nn.Sigmoid(), Cumulative())
        self.own_op = own_op

    def forward(self, x):
        h = self.linear(x)
        return torch.sin(h) if self.own_op else self.gate(h)


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
