"""A model of three data arguments (token ids int64, a bool mask, float
targets) and a learning-rate input, exported and trained two ways from the
same PyTorch initialization: by the Python Trainer, and by amp-train fed
an .npz named after the step's arguments, resuming from the Trainer's
checkpoint of step 0.

  npz_tagger.py prepare DIR   step.mlir, data.npz, init.ckpt, python.csv
  npz_tagger.py compare DIR   amp-train's log (DIR/amp-train.csv) against
                              python.csv, within 1e-5 relative

The data is one batch (examples == batch), so amp-train's shuffling only
permutes rows within the batch: a mean-reduced loss is the same up to the
order of a float sum, which is why the bound is 1e-5 and not 0.
"""
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import numpy as np
import torch
import torch.nn.functional as F

import amp_mlir
from amp_mlir.runtime import Trainer, _build

STEPS, BATCH, SEQ, VOCAB = 12, 32, 8, 50


class Tagger(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(VOCAB, 16)
        self.head = torch.nn.Linear(16, 1)

    def forward(self, tokens, mask):
        h = self.embed(tokens) * mask.unsqueeze(-1)
        pooled = h.sum(1) / mask.sum(1, keepdim=True).clamp(min=1)
        return self.head(pooled).squeeze(-1)


def data():
    g = torch.Generator().manual_seed(1)
    tokens = torch.randint(0, VOCAB, (BATCH, SEQ), generator=g)
    mask = torch.rand(BATCH, SEQ, generator=g) > 0.3
    target = (tokens.float() * mask).sum(1) / mask.sum(1).clamp(min=1) / VOCAB
    return tokens, mask, target


def prepare(out):
    import subprocess
    torch.manual_seed(0)
    model = Tagger()
    tokens, mask, target = data()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    text, layout = amp_mlir.build_training_step(model, F.mse_loss, optimizer,
                                                tokens, mask, target, lr_input=True)
    assert layout.names[:4] == ["tokens", "mask", "target", "lr"], layout.names
    with open(os.path.join(out, "step.mlir"), "w") as f:
        f.write(text)
    artifact = os.path.join(out, "step.so")
    subprocess.run([os.path.join(_build, "bin", "amp-compile"), os.path.join(out, "step.mlir"),
                    "-o", artifact, "--precision=f32"], check=True)
    params = [v.numpy() for v, k in zip(layout.initial, layout.kinds) if k == "param"]
    trainer = Trainer(artifact, params)
    print("names:", " ".join(trainer.input_names))
    trainer.save(os.path.join(out, "init.ckpt"))
    np.savez(os.path.join(out, "data.npz"), tokens=tokens.numpy(), mask=mask.numpy(),
             target=target.numpy())
    with open(os.path.join(out, "python.csv"), "w") as f:
        for step in range(STEPS):
            f.write(f"{trainer.step(tokens, mask, target, np.float32(0.5)):.9g}\n")


def compare(out):
    with open(os.path.join(out, "python.csv")) as f:
        expected = [float(line) for line in f]
    with open(os.path.join(out, "amp-train.csv")) as f:
        got = [float(row["loss"]) for row in csv.DictReader(f)]
    assert len(got) == len(expected) == STEPS, (len(got), len(expected))
    worst = max(abs(a - b) / max(abs(b), 1e-12) for a, b in zip(got, expected))
    assert worst <= 1e-5, f"losses differ by {worst:.3g} relative: {got} vs {expected}"
    assert got[-1] < 0.5 * got[0], f"the loss did not fall: {got}"
    print(f"{STEPS} steps match the Python trainer (worst {worst:.2g} relative), "
          "the loss falls")


if __name__ == "__main__":
    {"prepare": prepare, "compare": compare}[sys.argv[1]](sys.argv[2])
