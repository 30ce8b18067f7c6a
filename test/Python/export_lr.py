"""Writes the MLP step (SGD, lr 0.05) twice: with the learning rate as a
constant and as an input. Usage: export_lr.py OUTDIR"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "torch"))

import torch

import amp_mlir
from models import MLP, cross_entropy

x = torch.rand(64, 784)
y = torch.nn.functional.one_hot(torch.arange(64) % 10, 10).float()
torch.manual_seed(0)
model = MLP()
for name, lr_input in (("const", False), ("input", True)):
    step = amp_mlir.export_training_step(
        model, cross_entropy, torch.optim.SGD(model.parameters(), lr=0.05), x, y,
        lr_input=lr_input)
    with open(os.path.join(sys.argv[1], f"lr_{name}.mlir"), "w") as f:
        f.write(step)
