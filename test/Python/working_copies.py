"""A step compiled with cache-working-copy (Apex O2: the f16 copy of each
weight is optimizer state, written by the update, not cast every step)
trains from the weights the front end loads, not from the cast of the
runtime's own initialization: libamprt casts a param's working copy again
once the caller may have written the param (Trainer's set of initial
params goes through amprt_session_argument). Same batches, same weights:
the losses must be the plain f16 step's, bit for bit (the cached copy is
the same cast, made at the end of the previous step). Also after a
checkpoint round trip and after writing the params again mid-run."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import numpy as np
import torch

import amp_mlir


def run(options):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    generator = torch.Generator().manual_seed(1)
    batches = [(torch.randn(8, 6, generator=generator).numpy(),
                torch.randint(0, 3, (8,), generator=generator).numpy()) for _ in range(6)]
    trainer = amp_mlir.compile(model, torch.nn.functional.cross_entropy, optimizer,
                               torch.from_numpy(batches[0][0]),
                               torch.from_numpy(batches[0][1]),
                               precision="f16", amp_options=options)
    losses = [float(trainer.step(x, y)) for x, y in batches[:2]]
    # Round trip through a checkpoint, then new weights mid-run (halved).
    path = os.path.join(tempfile.mkdtemp(), "ckpt")
    trainer.save(path)
    trainer.load(path)
    trainer.set_parameters([p / 2 for p in trainer.parameters()])
    losses += [float(trainer.step(x, y)) for x, y in batches[2:]]
    return losses


plain, cached = run(""), run("cache-working-copy")
print("losses", " ".join(f"{v:.6f}" for v in cached))
print("bit-identical to the plain f16 step:", plain == cached)
