"""Every optimizer the front end writes (optim.py) against torch.optim:
a small MLP trained five steps at f32 from the same weights on the same
batches, with PyTorch's eager step (and torch.nn.utils.clip_grad_norm_ for
max_grad_norm). One update is the same arithmetic in the same order, so
parameters and optimizer state match to f32 rounding of the gradients:
within 1e-5 relative (measured <= 1e-6). The optimizer state is read
through Trainer.state() and compared with torch.optim's own state."""
import copy
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import numpy as np
import torch

import amp_mlir

BOUND = 1e-5
CASES = {
    "sgd": (lambda p: torch.optim.SGD(p, lr=0.1), None),
    "sgd-momentum-wd": (lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9,
                                                   weight_decay=1e-3), None),
    "sgd-nesterov": (lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.9, nesterov=True), None),
    "adam-wd": (lambda p: torch.optim.Adam(p, lr=1e-2, weight_decay=1e-2), None),
    "adamw": (lambda p: torch.optim.AdamW(p, lr=1e-2, betas=(0.8, 0.99)), None),
    "rmsprop": (lambda p: torch.optim.RMSprop(p, lr=1e-2), None),
    "rmsprop-centered-momentum": (lambda p: torch.optim.RMSprop(
        p, lr=1e-2, momentum=0.5, centered=True, weight_decay=1e-3), None),
    "sgd-clipped": (lambda p: torch.optim.SGD(p, lr=0.1), 0.05),
}
# torch.optim's state names for ours (optim.state_names).
TORCH_STATE = {"momentum_buffer": "momentum_buffer", "exp_avg": "exp_avg",
               "exp_avg_sq": "exp_avg_sq", "square_avg": "square_avg",
               "grad_avg": "grad_avg"}


def relative(a, b):
    b = np.asarray(b)
    return float(np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-12))


failed = 0
for name, (make, max_norm) in CASES.items():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(6, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
    reference = copy.deepcopy(model)
    generator = torch.Generator().manual_seed(1)
    batches = [(torch.randn(8, 6, generator=generator),
                torch.randint(0, 3, (8,), generator=generator)) for _ in range(5)]
    loss_fn = torch.nn.functional.cross_entropy
    trainer = amp_mlir.compile(model, loss_fn, make(model.parameters()), *batches[0],
                               max_grad_norm=max_norm)
    optimizer = make(reference.parameters())
    clipped = False
    for x, y in batches:
        optimizer.zero_grad()
        loss_fn(reference(x), y).backward()
        if max_norm is not None:
            norm = torch.nn.utils.clip_grad_norm_(reference.parameters(), max_norm)
            clipped |= float(norm) > max_norm  # the case must clip for real
        optimizer.step()
        trainer.step(x, y)
    worst = max(relative(a, b.detach().numpy())
                for a, b in zip(trainer.parameters(), reference.parameters()))
    params = list(reference.parameters())
    names = amp_mlir.state_names(amp_mlir.optimizer_spec(optimizer),
                                 [str(i) for i in range(len(params))])
    state_worst = 0.0
    for state_name, value in zip(names, trainer.state()):
        kind, _, index = state_name.rpartition(".")
        if kind == "":  # Adam's step count
            expected = float(optimizer.state[params[0]]["step"])
            state_worst = max(state_worst, abs(float(value[0]) - expected))
            continue
        expected = optimizer.state[params[int(index)]][TORCH_STATE[kind]].numpy()
        state_worst = max(state_worst, relative(value, expected))
    ok = worst <= BOUND and state_worst <= BOUND and (max_norm is None or clipped)
    failed += not ok
    print(f"{name}: params rel {worst:.1e}, state rel {state_worst:.1e} "
          f"{'PASS' if ok else 'FAIL'}", flush=True)
sys.exit(1 if failed else 0)
