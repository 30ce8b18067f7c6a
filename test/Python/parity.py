"""The PyTorch front end against PyTorch itself.

A model of examples/torch/models.py (MLP, TinyCNN with average pooling,
TinyTransformer; batch
64, softmax cross-entropy) is exported with amp_mlir (AOTAutograd graphs ->
TOSA + markers), compiled with amp-compile and trained 20 steps from the
same initial weights on the same batches as PyTorch's own eager training,
with the given optimizer (sgd, momentum, adam, adamw).

FP32 must match PyTorch: every loss and the final parameters within 1e-4
relative (measured ~3e-7 for SGD and momentum: both sides use OpenBLAS
sgemm; the order of some sums differs). Adam and AdamW normalize every
gradient element, so an element whose gradient is within a rounding of
zero can change sign and move its weight by up to 2 lr: measured
parameter differences 1.5e-6 (MLP Adam), 7.8e-5 (MLP AdamW, where a ReLU
unit sits at zero), 5.6e-5 (transformer AdamW) with these seeds; the CNN
with AdamW reaches 2e-4 and is tested with momentum instead. FP16/BF16-AMP must track the FP32 loss: matmul inputs are
rounded to 2^-11 / 2^-8 relative and the trajectories separate slowly, so
over 20 steps the losses stay within 5e-3 (f16) and 1e-2 (bf16) relative
(measured 1e-3 and 2e-3 with SGD+momentum).

Usage: parity.py MODEL PRECISION OPTIMIZER
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
from models import MODELS, cross_entropy as loss_fn

model_name, precision, optimizer_name = sys.argv[1], sys.argv[2], sys.argv[3]
torch.manual_seed(0)
model = MODELS[model_name]()


def make_optimizer(params):
    return {
        "sgd": lambda: torch.optim.SGD(params, lr=0.1),
        "momentum": lambda: torch.optim.SGD(params, lr=0.05, momentum=0.9,
                                            weight_decay=1e-4),
        "adam": lambda: torch.optim.Adam(params, lr=1e-3),
        "adamw": lambda: torch.optim.AdamW(params, lr=1e-3, weight_decay=0.01),
    }[optimizer_name]()


reference = copy.deepcopy(model)
reference_optimizer = make_optimizer(reference.parameters())
generator = torch.Generator().manual_seed(1)
batches = [(torch.rand(64, 784, generator=generator),
            torch.nn.functional.one_hot(torch.randint(0, 10, (64,), generator=generator),
                                        10).float()) for _ in range(20)]
trainer = amp_mlir.compile(model, loss_fn, make_optimizer(model.parameters()),
                           *batches[0], precision=precision)

worst_loss = 0.0
for x, y in batches:
    reference_optimizer.zero_grad()
    loss = loss_fn(reference(x), y)
    loss.backward()
    reference_optimizer.step()
    ours = trainer.step(x.numpy(), y.numpy())
    worst_loss = max(worst_loss, abs(ours - loss.item()) / abs(loss.item()))
worst_param = max(
    float(np.linalg.norm(a - b.detach().numpy()) / np.linalg.norm(b.detach().numpy()))
    for a, b in zip(trainer.parameters(), reference.parameters()))
print(f"{model_name} {precision} {optimizer_name}: loss rel {worst_loss:.2e}, params rel {worst_param:.2e}")
bounds = {"f32": 1e-4, "f16": 5e-3, "bf16": 1e-2}
ok = worst_loss <= bounds[precision]
if precision == "f32":
    ok = ok and worst_param <= 1e-4
print("PASS" if ok else "FAIL")
sys.exit(0 if ok else 1)
