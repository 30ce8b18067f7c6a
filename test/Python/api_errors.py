"""The front end's API on misuse: clear errors, never a crash.
- a loss that is not a scalar, an unsupported optimizer or option;
- Trainer.step with the wrong number of inputs, a wrong shape or dtype;
- a step exported with lr_input takes the rate as its last data input
  (it used to crash the process): lr 0 leaves the parameters unchanged,
  lr 0.1 matches the step with the rate as a constant;
- several data inputs (ids, a mask, class indices) in the step's order."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import numpy as np
import torch

import amp_mlir

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 3))
x, y = torch.randn(5, 4), torch.randint(0, 3, (5,))
ce = torch.nn.functional.cross_entropy


def expect_error(what, thunk):
    try:
        thunk()
        print(f"{what}: no error")
    except (ValueError, OSError, amp_mlir.UnsupportedOp) as error:
        print(f"{what}: {type(error).__name__}: {error}")


sgd = torch.optim.SGD(model.parameters(), lr=0.1)
expect_error("loss per sample", lambda: amp_mlir.export_training_step(
    model, lambda out, t: torch.nn.functional.cross_entropy(out, t, reduction="none"), sgd, x, y))
expect_error("adagrad", lambda: amp_mlir.export_training_step(
    model, ce, torch.optim.Adagrad(model.parameters()), x, y))
expect_error("dampening", lambda: amp_mlir.export_training_step(
    model, ce, torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, dampening=0.1), x, y))
expect_error("float64 input", lambda: amp_mlir.export_training_step(
    model.double(), ce, sgd, x.double(), y))
model.float()

trainer = amp_mlir.compile(model, ce, sgd, x, y)
expect_error("step with one input", lambda: trainer.step(x))
expect_error("step with a wrong shape", lambda: trainer.step(x[:4], y[:4]))
expect_error("step with float labels", lambda: trainer.step(x, y.float()))

# The learning rate as an input.
start = [p.detach().numpy().copy() for p in model.parameters()]
with_lr = amp_mlir.compile(model, ce, sgd, x, y, lr_input=True)
constant = amp_mlir.compile(model, ce, torch.optim.SGD(model.parameters(), lr=0.1), x, y)
expect_error("lr step without its rate", lambda: with_lr.step(x, y))
with_lr.step(x, y, np.float32(0.0))
unchanged = all(np.array_equal(a, b) for a, b in zip(with_lr.parameters(), start))
print(f"lr 0: parameters unchanged: {unchanged}")
loss_lr, loss_constant = with_lr.step(x, y, np.float32(0.1)), constant.step(x, y)
same = all(np.array_equal(a, b) for a, b in zip(with_lr.parameters(), constant.parameters()))
print(f"lr 0.1 as input vs constant: same loss {loss_lr == loss_constant}, same parameters {same}")


class Masked(torch.nn.Module):
    """Token ids and a padding mask in, class logits out."""

    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(11, 6)
        self.out = torch.nn.Linear(6, 3)

    def forward(self, ids, mask):
        h = self.embed(ids) * mask.unsqueeze(-1)
        return self.out(h.sum(1) / mask.sum(1, keepdim=True))


masked = Masked()
ids = torch.randint(0, 11, (5, 7))
mask = (torch.arange(7) < torch.randint(2, 8, (5, 1))).float()
reference = Masked()
reference.load_state_dict(masked.state_dict())
trainer = amp_mlir.compile(masked, ce, torch.optim.SGD(masked.parameters(), lr=0.1),
                           ids, mask, y, model_inputs=2)
ours = trainer.step(ids.numpy(), mask.numpy(), y.numpy())
theirs = ce(reference(ids, mask), y).item()
difference = abs(ours - theirs) / theirs
print(f"ids + mask + labels: loss rel {difference:.0e} {'PASS' if difference <= 1e-6 else 'FAIL'}")
# Inputs are named after the parameters they bind to (the forward's, then
# the loss's), or as the user says.
print(f"input names: {trainer.input_names}")
print(f"param names: {trainer.param_names}")
expect_error("two names for three inputs", lambda: amp_mlir.export_training_step(
    masked, ce, torch.optim.SGD(masked.parameters(), lr=0.1), ids, mask, y, model_inputs=2,
    input_names=["a", "b"]))
expect_error("a name with a space", lambda: amp_mlir.export_training_step(
    masked, ce, torch.optim.SGD(masked.parameters(), lr=0.1), ids, mask, y, model_inputs=2,
    input_names=["token ids", "mask", "y"]))
named = amp_mlir.compile(masked, ce, torch.optim.SGD(masked.parameters(), lr=0.1), ids, mask, y,
                         model_inputs=2, input_names=["token_ids", "padding", "labels"])
print(f"chosen names: {named.input_names}")
# A checkpoint round trip, and a damaged one refused with the trainer kept.
import tempfile
workdir = tempfile.mkdtemp()
named.save(os.path.join(workdir, "a.ckpt"))
before = named.parameters()
named.step(ids.numpy(), mask.numpy(), y.numpy())
named.load(os.path.join(workdir, "a.ckpt"))
print(f"load restores: {all(np.array_equal(a, b) for a, b in zip(named.parameters(), before))}")
with open(os.path.join(workdir, "a.ckpt"), "r+b") as f:
    f.seek(40)
    f.write(b"\xff")
expect_error("damaged checkpoint", lambda: named.load(os.path.join(workdir, "a.ckpt")))
print(f"kept after a failed load: "
      f"{all(np.array_equal(a, b) for a, b in zip(named.parameters(), before))}")

# Dropout in training mode draws a new mask every step (torch-mlir keeps a
# seed in the step): at lr 0 the same batch gives different losses.
torch.manual_seed(0)
dropped = torch.nn.Sequential(torch.nn.Linear(6, 64), torch.nn.Dropout(0.5), torch.nn.Linear(64, 3))
xs, ys = torch.randn(16, 6), torch.randint(0, 3, (16,))
trainer = amp_mlir.compile(dropped, ce, torch.optim.SGD(dropped.parameters(), lr=0.0), xs, ys)
losses = [trainer.step(xs, ys) for _ in range(4)]
print(f"dropout: a new mask every step: {len(set(losses)) == 4}")


class PartlyFrozen(torch.nn.Module):
    """A frozen layer (requires_grad False) and an unused one: torch.optim
    leaves both as they are, weight decay included."""

    def __init__(self):
        super().__init__()
        self.frozen = torch.nn.Linear(4, 4)
        self.trained = torch.nn.Linear(4, 3)
        self.unused = torch.nn.Linear(4, 3)

    def forward(self, x):
        return self.trained(torch.relu(self.frozen(x)))


torch.manual_seed(0)
partly = PartlyFrozen()
for p in partly.frozen.parameters():
    p.requires_grad_(False)
start = [p.detach().numpy().copy() for p in partly.parameters()]
trainer = amp_mlir.compile(partly, ce, torch.optim.SGD(partly.parameters(), lr=0.1, momentum=0.9,
                                                       weight_decay=0.1), x[:, :4], y)
trainer.step(x[:, :4], y)
moved = [not np.array_equal(a, b) for a, b in zip(trainer.parameters(), start)]
print(f"frozen, trained, unused params moved: {moved}")
