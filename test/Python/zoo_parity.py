"""Real models (zoo.py) through the whole front end against PyTorch.

Each model is exported once (make_fx + torch-mlir), compiled with
amp-compile at f32, f16 and bf16, and trained ten SGD steps (the case's
learning rate, no momentum: Adam would normalize near-zero gradients into
lr-sized moves and make a parameter comparison meaningless) from the same
initial weights on the same batches as PyTorch's eager training in FP32.
zoo.py says why each case's batch and rate keep f32 training reproducible.

Bounds (checked per step):
- f32 loss within 1e-4 relative of PyTorch's at every step, parameters
  within PARAM_BOUND relative (the norm of the difference of the whole
  parameter vector over its norm) after the last step. Our contractions sum in another order
  than PyTorch's kernels (oneDNN vs MKL/loops), so a value within a
  rounding of a ReLU's or a max pool's decision may go the other way;
  over ten small steps of a well-conditioned case that stays far below
  these bounds.
- f16/bf16 losses within 1e-2 / 2e-2 relative of PyTorch's FP32 losses at
  every step, or within twice what PyTorch's own CPU autocast to the same
  type deviates from its FP32 run on the same model and batches, if that
  is more: matmul and conv inputs are rounded to 2^-11 / 2^-8 relative, the
  error of a sum of k products grows like sqrt(k) roundings, and a deep
  batch-normalized net (EfficientNet) amplifies it; the autocast reference
  says how much this model amplifies, and we round at the same places.
- A step our f16 loss scaling skips (an overflow while the scale comes
  down from 2^16) is skipped in the PyTorch references too, as GradScaler
  would; the count is printed.

Usage: zoo_parity.py MODEL[/PRECISION[,PRECISION]]... | zoo_parity.py all | --list
Prints one line per model and precision, PASS or FAIL.
"""
import copy
import os
import subprocess
import sys
import tempfile
import time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
sys.path.insert(0, here)
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import numpy as np
import torch

import amp_mlir
from amp_mlir import runtime
from zoo import MODELS

STEPS = 10
LOSS_BOUNDS = {"f32": 1e-4, "f16": 1e-2, "bf16": 2e-2}
AUTOCAST = {"f16": torch.float16, "bf16": torch.bfloat16}
AUTOCAST_FACTOR = 2.0
PARAM_BOUND = 1e-4


def reference_run(model, loss_fn, k, batches, lr, autocast=None, skipped=()):
    """PyTorch's eager losses, in FP32 or under CPU autocast to `autocast`
    (torch.float16 / torch.bfloat16), on a copy of `model`; the steps in
    `skipped` compute the loss but do not update (what GradScaler does on
    an overflow, and what our f16 step did)."""
    model = copy.deepcopy(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for step, batch in enumerate(batches):
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=autocast or torch.float32,
                            enabled=autocast is not None):
            out = model(*batch[:k])
            loss = loss_fn(out, *batch[k:]) if loss_fn is not None else out
        loss.backward()
        if step not in skipped:
            optimizer.step()
        losses.append(loss.item())
    return losses, model


def run(name, precisions):
    torch.manual_seed(0)
    case = MODELS[name]()
    model, loss_fn, k, make = case.model, case.loss_fn, case.model_inputs, case.make_batch
    generator = torch.Generator().manual_seed(1)
    batches = [make(generator) for _ in range(STEPS)]
    start = time.time()
    text, layout = amp_mlir.build_training_step(model, loss_fn,
                                                torch.optim.SGD(model.parameters(), lr=case.lr),
                                                *batches[0], model_inputs=k)
    export_time = time.time() - start
    expected, reference = reference_run(model, loss_fn, k, batches, case.lr)
    workdir = tempfile.mkdtemp(prefix=f"zoo-{name}-")
    source = os.path.join(workdir, "step.mlir")
    with open(source, "w") as f:
        f.write(text)
    failed = 0
    for precision in precisions:
        artifact = os.path.join(workdir, f"step-{precision}.so")
        start = time.time()
        subprocess.run([os.path.join(runtime._build, "bin", "amp-compile"), source, "-o",
                        artifact, f"--precision={precision}"], check=True,
                       stderr=subprocess.DEVNULL)
        compile_time = time.time() - start
        params = [v.numpy() for v, kind in zip(layout.initial, layout.kinds) if kind == "param"]
        state = [v.numpy() for v, kind in zip(layout.initial, layout.kinds)
                 if kind in ("state", "buffer")]
        trainer = amp_mlir.Trainer(artifact, params, state)
        losses, skipped = [], []
        for step, batch in enumerate(batches):
            losses.append(trainer.step(*batch))
            if trainer.found_inf:
                skipped.append(step)
        # A step our loss scaling skipped (an f16 overflow while the scale
        # comes down from 2^16) is skipped on PyTorch's side too.
        reference_losses = expected
        if skipped:
            reference_losses, _ = reference_run(model, loss_fn, k, batches, case.lr,
                                                skipped=skipped)
        worst = max(abs(a - b) / abs(b) for a, b in zip(losses, reference_losses))
        if os.environ.get("ZOO_VERBOSE"):
            print("\n".join(f"  {b:.7f} {a:.7f}" for a, b in zip(losses, reference_losses)))
        bound = LOSS_BOUNDS[precision]
        note = f", {len(skipped)} skipped" if skipped else ""
        if precision != "f32":
            # PyTorch's own autocast on the same model moves the loss too.
            # (oneDNN has no f16 LSTM on this CPU: PyTorch's composite then.)
            with torch.backends.mkldnn.flags(enabled=False):
                theirs, _ = reference_run(model, loss_fn, k, batches, case.lr,
                                          AUTOCAST[precision], skipped)
            torch_worst = max(abs(a - b) / abs(b) for a, b in zip(theirs, reference_losses))
            bound = max(bound, AUTOCAST_FACTOR * torch_worst)
            note += f", torch autocast {torch_worst:.1e}"
        ok = worst <= bound
        if precision == "f32":
            # The whole model's parameter vector: a tensor that starts at
            # zero (batch-norm shifts) has no meaningful relative error.
            squares = [(float(np.sum((a - b.detach().numpy()) ** 2)),
                        float(np.sum(b.detach().numpy() ** 2)))
                       for a, b in zip(trainer.parameters(), reference.parameters())]
            difference = (sum(d for d, _ in squares) / sum(n for _, n in squares)) ** 0.5
            ok = ok and difference <= PARAM_BOUND
            note = f", params rel {difference:.1e}"
        failed += not ok
        print(f"{name} {precision}: loss rel {worst:.1e}{note} (export {export_time:.1f} s, "
              f"compile {compile_time:.1f} s) {'PASS' if ok else 'FAIL'}", flush=True)
    return failed


if __name__ == "__main__":
    if sys.argv[1:] == ["--list"]:
        print(" ".join(MODELS))
        sys.exit(0)
    specs = list(MODELS) if sys.argv[1:] == ["all"] else sys.argv[1:]
    failed = 0
    for spec in specs:
        name, _, precision = spec.partition("/")
        failed += run(name, precision.split(",") if precision else ["f32", "f16", "bf16"])
    sys.exit(1 if failed else 0)
