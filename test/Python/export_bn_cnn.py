"""Writes a small batch-normalized CNN's step ([64, 1, 28, 28] images,
class indices, F.cross_entropy, SGD momentum) with its eval-mode predict
(which reads the batch-norm statistics) for amp-train. Usage:
export_bn_cnn.py OUT.mlir"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import torch

import amp_mlir

torch.manual_seed(0)
model = torch.nn.Sequential(
    torch.nn.Conv2d(1, 8, 3, padding=1, bias=False), torch.nn.BatchNorm2d(8), torch.nn.ReLU(),
    torch.nn.MaxPool2d(2), torch.nn.Conv2d(8, 16, 3, padding=1, bias=False),
    torch.nn.BatchNorm2d(16), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
    torch.nn.Flatten(), torch.nn.Linear(16, 10))
images, labels = torch.randn(64, 1, 28, 28), torch.randint(0, 10, (64,))
step = amp_mlir.export_training_step(
    model, torch.nn.functional.cross_entropy,
    torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9), images, labels,
    predict="predict")
with open(sys.argv[1], "w") as f:
    f.write(step)
