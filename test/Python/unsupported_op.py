"""An aten op without a TOSA lowering is a clear error naming the op and
the module it came from."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import torch

import amp_mlir


class Gated(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(8, 4)

    def forward(self, x):
        return torch.sigmoid(self.linear(x))


def loss_fn(out, y):
    return ((out - y) * (out - y)).mean()


try:
    amp_mlir.export_training_step(Gated(), loss_fn,
                                  torch.optim.SGD(Gated().parameters(), lr=0.1),
                                  torch.rand(2, 8), torch.rand(2, 4))
except amp_mlir.UnsupportedOp as error:
    print(error)
