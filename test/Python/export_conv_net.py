"""Writes a small NCHW convolutional step (plain, strided, grouped and
depthwise convolutions; batch 8, 16x16 images) and an .npz batch for it.
Usage: export_conv_net.py OUTDIR"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import numpy as np
import torch

import amp_mlir

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(),
    torch.nn.Conv2d(16, 32, 3, stride=2, padding=1), torch.nn.ReLU(),
    torch.nn.Conv2d(32, 32, 3, padding=1, groups=4), torch.nn.ReLU(),
    torch.nn.Conv2d(32, 32, 3, padding=1, groups=32), torch.nn.ReLU(),
    torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(32, 10))
x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 10, (8,))
step = amp_mlir.export_training_step(model, torch.nn.functional.cross_entropy,
                                     torch.optim.SGD(model.parameters(), lr=0.1), x, y)
with open(os.path.join(sys.argv[1], "conv_net.mlir"), "w") as f:
    f.write(step)
np.savez(os.path.join(sys.argv[1], "batch.npz"), input=x.numpy(), target=y.numpy())
