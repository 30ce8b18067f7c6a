"""The losses users write, through the whole front end against PyTorch: a
small MLP trained three SGD steps at f32 with each loss, from the same
weights on the same batches. The same arithmetic up to f32 summation
order: every loss within 1e-5 relative and the parameters within 1e-5
(measured <= 1e-6)."""
import copy
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import numpy as np
import torch
import torch.nn.functional as F

import amp_mlir

BOUND = 1e-5
generator = torch.Generator().manual_seed(1)
x = [torch.randn(8, 6, generator=generator) for _ in range(3)]
classes = [torch.randint(0, 4, (8,), generator=generator) for _ in range(3)]
targets = [torch.randn(8, 4, generator=generator) for _ in range(3)]
bits = [torch.randint(0, 2, (8, 4), generator=generator).float() for _ in range(3)]


def focal(out, y):
    """A user-written loss: focal loss on class indices."""
    log_p = torch.log_softmax(out, dim=1)
    picked = log_p.gather(1, y.unsqueeze(1)).squeeze(1)
    return (-(1 - picked.exp()) ** 2 * picked).mean()


CASES = {
    "cross_entropy": (lambda o, y: F.cross_entropy(o, y), classes),
    "cross_entropy label_smoothing=0.1": (
        lambda o, y: F.cross_entropy(o, y, label_smoothing=0.1), classes),
    "cross_entropy reduction=sum": (lambda o, y: F.cross_entropy(o, y, reduction="sum"),
                                    classes),
    "nll_loss": (lambda o, y: F.nll_loss(torch.log_softmax(o, 1), y), classes),
    "mse_loss": (lambda o, y: F.mse_loss(o, y), targets),
    "mse_loss reduction=sum": (lambda o, y: F.mse_loss(o, y, reduction="sum"), targets),
    "binary_cross_entropy_with_logits": (
        lambda o, y: F.binary_cross_entropy_with_logits(o, y), bits),
    "user-written focal loss": (focal, classes),
}

failed = 0
for name, (loss_fn, labels) in CASES.items():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    reference = copy.deepcopy(model)
    trainer = amp_mlir.compile(model, loss_fn, torch.optim.SGD(model.parameters(), lr=0.1),
                               x[0], labels[0])
    optimizer = torch.optim.SGD(reference.parameters(), lr=0.1)
    worst_loss = 0.0
    for batch, label in zip(x, labels):
        optimizer.zero_grad()
        loss = loss_fn(reference(batch), label)
        loss.backward()
        optimizer.step()
        ours = trainer.step(batch, label)
        worst_loss = max(worst_loss, abs(ours - loss.item()) / abs(loss.item()))
    worst_param = max(float(np.linalg.norm(a - b.detach().numpy()) / np.linalg.norm(b.detach().numpy()))
                      for a, b in zip(trainer.parameters(), reference.parameters()))
    ok = worst_loss <= BOUND and worst_param <= BOUND
    failed += not ok
    print(f"{name}: loss rel {worst_loss:.1e}, params rel {worst_param:.1e} "
          f"{'PASS' if ok else 'FAIL'}", flush=True)
sys.exit(1 if failed else 0)
