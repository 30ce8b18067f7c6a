"""The PyTorch front end against PyTorch itself.

A model of examples/torch/models.py (MLP, GatedMLP, TinyCNN with average or max
pooling, TinyTransformer on image rows or on token ids; batch 64,
softmax cross-entropy) is exported with amp_mlir (AOTAutograd graphs ->
TOSA + markers), compiled with amp-compile and trained 20 steps from the
same initial weights on the same batches as PyTorch's own eager training,
with the given optimizer (sgd, momentum, adam, adamw).

FP32 must match PyTorch: every loss within 1e-4 relative, the parameters
within 1e-6 after the first step and 1e-4 after the last (the CNN: see
PARAM_BOUNDS) (measured ~3e-7 for SGD and momentum; our contractions run
on oneDNN, PyTorch's on MKL/oneDNN, so the order of some sums differs). Adam and AdamW normalize every
gradient element, so where a ReLU input sits within a rounding of zero the
two sides can mask a gradient differently and Adam turns that into an
lr-sized move: measured parameter differences 1.7e-6 (MLP Adam), 7.8e-5
(MLP AdamW, a ReLU unit at zero), 5.4e-6 (transformer AdamW; with a key
bias, whose gradient is exactly zero and so pure rounding noise, it was
7.6e-5); the CNN with AdamW reaches 2.3e-4 (a conv2 channel that is
nearly dead) and is tested with momentum instead. The same holds for
torch 1.13 and 2.x. FP16/BF16-AMP must track the FP32 loss: matmul inputs
are rounded to 2^-11 / 2^-8 relative and the trajectories separate slowly,
so over 20 steps the losses stay within 5e-3 (f16) and 1e-2 (bf16)
relative (measured 4e-4 and 5e-3).

Usage: parity.py MODEL/PRECISION/OPTIMIZER[/TARGET]...  |  parity.py all
(TARGET: an amp-compile --target, cpu by default)
"""
import copy
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "python"))
sys.path.insert(0, os.path.join(here, "..", "..", "examples", "torch"))

import numpy as np
import torch

import amp_mlir
from models import MODELS, cross_entropy as loss_fn, random_input

# The matrix the lit tests run (test/Python/Inputs/parity-matrix.check).
MATRIX = ["mlp/f32/sgd", "mlp/f32/momentum", "mlp/f32/adam", "mlp/f32/adamw",
          "mlp/f16/momentum", "mlp/bf16/adamw", "gated/f32/momentum", "gated/f16/adam",
          "transformer/f32/adamw", "transformer/f16/adamw",
          "cnn/f32/momentum", "cnn/f16/momentum",
          "cnn-maxpool/f32/momentum", "cnn-maxpool/f16/momentum",
          "tokens/f32/adamw", "tokens/bf16/adamw",
          # The CUDA path's kernel mapping, run as host loops (see
          # test/Integration/CPU/cuda-emulated.test).
          "gated/f32/momentum/cuda-emulated", "cnn-maxpool/f32/momentum/cuda-emulated"]
BOUNDS = {"f32": 1e-4, "f16": 5e-3, "bf16": 1e-2}
# FP32 parameters after the first SGD or momentum step: one step is exact up
# to f32 summation order (measured <= 5e-8 on every model). Adam and AdamW
# normalize near-zero gradients into lr-sized moves (see above).
FIRST_STEP_PARAM_BOUND = 1e-6
# After 20 steps: 1e-4, except the CNN. Its convolutions run on oneDNN, whose
# blocked sums differ from PyTorch's in the last bits; ReLU units within a
# rounding of zero then switch differently and momentum carries the
# difference: 3.6e-8 after step 1, 9.2e-4 after 20 (conv2's bias), the loss
# still within 5e-6 every step. (With scalar loops, whose order happened to
# be closer to PyTorch's, it was 5e-7.)
PARAM_BOUNDS = {"cnn": 2e-3}


def make_optimizer(name, params):
    return {
        "sgd": lambda: torch.optim.SGD(params, lr=0.1),
        "momentum": lambda: torch.optim.SGD(params, lr=0.05, momentum=0.9,
                                            weight_decay=1e-4),
        "adam": lambda: torch.optim.Adam(params, lr=1e-3),
        "adamw": lambda: torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01),
    }[name]()


# Max pooling sends each window's gradient to its largest element, so a
# window whose two largest values are within a rounding of each other can
# pick another element than PyTorch (our convolution sums in another order)
# and move a gradient by ~1e-3 relative: such near ties are common (batch
# 64: ~5 windows in 10^5 within 1e-5 per step). Its comparison uses data
# where PyTorch's own windows never come within 1e-6 in 20 steps (found by
# search: batch 8, data seed 6) and checks that condition as it trains.
DATA = {"cnn-maxpool": {"batch": 8, "seed": 6}}
MIN_POOL_GAP = 1e-6


def record_pool_gaps(model, gaps):
    """Wraps the model's max pooling to record each window's top-2 gap."""
    pool = model.pool

    def recording_pool(h, k):
        n, c, height, width = h.shape
        windows = h.detach().unfold(2, k, k).unfold(3, k, k).reshape(
            n, c, height // k, width // k, k * k)
        top = windows.topk(2, dim=-1).values
        positive = top[..., 0] > 0  # ReLU zeros tie, but their gradient is 0
        gaps.append(float((top[..., 0] - top[..., 1])[positive].min()))
        return pool(h, k)
    model.pool = recording_pool


def compare(model_name, precision, optimizer_name, target="cpu"):
    """Trains both sides 20 steps; returns (worst loss rel, worst param rel,
    smallest max-pool gap or None)."""
    torch.manual_seed(0)
    model = MODELS[model_name]()
    reference = copy.deepcopy(model)
    gaps = []
    if model_name in DATA:
        record_pool_gaps(reference, gaps)
    data = DATA.get(model_name, {"batch": 64, "seed": 1})
    reference_optimizer = make_optimizer(optimizer_name, reference.parameters())
    generator = torch.Generator().manual_seed(data["seed"])
    batch = data["batch"]
    batches = [(random_input(model, batch, generator),
                torch.nn.functional.one_hot(torch.randint(0, 10, (batch,), generator=generator),
                                            10).float()) for _ in range(20)]
    trainer = amp_mlir.compile(model, loss_fn,
                               make_optimizer(optimizer_name, model.parameters()),
                               *batches[0], precision=precision, target=target)
    def param_difference():
        return max(
            float(np.linalg.norm(a - b.detach().numpy()) / np.linalg.norm(b.detach().numpy()))
            for a, b in zip(trainer.parameters(), reference.parameters()))

    worst_loss, first_step_param = 0.0, None
    for x, y in batches:
        reference_optimizer.zero_grad()
        loss = loss_fn(reference(x), y)
        loss.backward()
        reference_optimizer.step()
        ours = trainer.step(x.numpy(), y.numpy())
        worst_loss = max(worst_loss, abs(ours - loss.item()) / abs(loss.item()))
        if first_step_param is None:
            first_step_param = param_difference()
    return worst_loss, first_step_param, param_difference(), min(gaps) if gaps else None


failed = 0
for spec in (MATRIX if sys.argv[1:] == ["all"] else sys.argv[1:]):
    model_name, precision, optimizer_name, *target = spec.split("/")
    target = target[0] if target else "cpu"
    worst_loss, first_param, worst_param, gap = compare(model_name, precision,
                                                       optimizer_name, target)
    ok = worst_loss <= BOUNDS[precision]
    if precision == "f32":
        if optimizer_name in ("sgd", "momentum"):
            ok = ok and first_param <= FIRST_STEP_PARAM_BOUND
        ok = ok and worst_param <= PARAM_BOUNDS.get(model_name, 1e-4)
    note = ""
    if gap is not None:
        note = f", min pool gap {gap:.1e}"
        if gap < MIN_POOL_GAP and precision == "f32":
            ok, note = False, note + " (a near tie: this data cannot test max pooling)"
    failed += not ok
    where = "" if target == "cpu" else f" ({target})"
    print(f"{model_name} {precision} {optimizer_name}{where}: loss rel {worst_loss:.2e}, "
          f"params rel {worst_param:.2e} (after step 1: {first_param:.1e}){note} {'PASS' if ok else 'FAIL'}", flush=True)
sys.exit(1 if failed else 0)
