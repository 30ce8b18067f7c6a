"""The optimizer update of an exported step, written with torch ops.

`optimizer_spec` reads a torch.optim optimizer (or takes a spec dict);
`update` is the same arithmetic as torch.optim's single-tensor code path
(`foreach=False`), traced and imported like the model, so the update that
amp-mlir compiles is PyTorch's own update, written once. Everything after
the gradients is the optimizer in the training-graph contract: it always
runs in f32 on unscaled gradients.

Optimizer state per kind, in the step's argument order:
  sgd       momentum > 0: one momentum buffer per param
  adam(w)   exp_avg per param, exp_avg_sq per param, the step count [1]
  rmsprop   square_avg per param, then a momentum buffer per param when
            momentum > 0, then grad_avg per param when centered
"""
import torch

KINDS = ("sgd", "adam", "adamw", "rmsprop")
_DEFAULTS = {
    "sgd": {"lr": 1e-3, "momentum": 0.0, "nesterov": False,
            "weight_decay": 0.0},
    "adam": {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0.0},
    "adamw": {"lr": 1e-3, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 1e-2},
    "rmsprop": {"lr": 1e-2, "alpha": 0.99, "eps": 1e-8, "weight_decay": 0.0,
                "momentum": 0.0, "centered": False},
}


def optimizer_spec(optimizer, max_grad_norm=None):
    """{'kind': ..., hyperparameters...} of a torch.optim optimizer or of a
    spec dict (missing hyperparameters take torch.optim's defaults). With
    `max_grad_norm`, gradients are first clipped to that global L2 norm, as
    torch.nn.utils.clip_grad_norm_ does."""
    if isinstance(optimizer, dict):
        kind = str(optimizer.get("kind", "")).lower()
        given = dict(optimizer)
    else:
        kind = type(optimizer).__name__.lower()
        if len(optimizer.param_groups) != 1:
            raise ValueError("only one parameter group is supported, got "
                             f"{len(optimizer.param_groups)}")
        given = dict(optimizer.param_groups[0])
    if kind not in KINDS:
        raise ValueError(f"optimizer '{kind}' is not supported (SGD, Adam, AdamW, RMSprop)")
    if given.get("amsgrad"):
        raise ValueError("Adam(amsgrad=True) is not supported")
    if given.get("maximize"):
        raise ValueError("maximize=True is not supported")
    if kind == "sgd" and given.get("dampening", 0.0):
        # torch.optim starts the momentum buffer at the first gradient, not
        # at (1 - dampening) times it: that needs a step count we do not keep.
        raise ValueError("SGD with dampening is not supported")
    if kind == "sgd" and given.get("nesterov") and given.get("momentum", 0.0) <= 0:
        raise ValueError("SGD with nesterov needs momentum > 0")
    spec = {"kind": kind}
    for key, default in _DEFAULTS[kind].items():
        value = given.get(key, default)
        if isinstance(value, torch.Tensor):
            value = value.item()
        spec[key] = tuple(float(v) for v in value) if key == "betas" else (
            bool(value) if isinstance(default, bool) else float(value))
    if max_grad_norm is not None:
        if not max_grad_norm > 0:
            raise ValueError(f"max_grad_norm must be positive, got {max_grad_norm}")
        spec["max_grad_norm"] = float(max_grad_norm)
    elif isinstance(optimizer, dict) and optimizer.get("max_grad_norm") is not None:
        spec["max_grad_norm"] = float(optimizer["max_grad_norm"])
    return spec


def state_names(spec, param_names):
    """Names of the optimizer state tensors, in argument order."""
    kind = spec["kind"]
    per = lambda prefix: [f"{prefix}.{n}" for n in param_names]
    if kind == "sgd":
        return per("momentum_buffer") if spec["momentum"] else []
    if kind in ("adam", "adamw"):
        return per("exp_avg") + per("exp_avg_sq") + ["step"]
    names = per("square_avg")
    if spec["momentum"]:
        names += per("momentum_buffer")
    if spec["centered"]:
        names += per("grad_avg")
    return names


def state_shapes(spec, param_shapes):
    kind = spec["kind"]
    shapes = [tuple(s) for s in param_shapes]
    if kind == "sgd":
        return shapes if spec["momentum"] else []
    if kind in ("adam", "adamw"):
        return shapes * 2 + [(1,)]
    return shapes * (1 + bool(spec["momentum"]) + bool(spec["centered"]))


def state_groups(spec, count):
    """The optimizer state of `count` params in argument order, as groups:
    a list of `count` indices (one state tensor per param) or a single
    index (shared, Adam's step count)."""
    groups, next_index = [], 0
    for kind in [g for g in _GROUPS[spec["kind"]] if g[1] is None or spec[g[1]]]:
        if kind[0] == "per-param":
            groups.append(list(range(next_index, next_index + count)))
            next_index += count
        else:
            groups.append(next_index)
            next_index += 1
    return groups


# Per kind: (group shape, the spec flag that enables it).
_GROUPS = {
    "sgd": [("per-param", "momentum")],
    "adam": [("per-param", None), ("per-param", None), ("shared", None)],
    "adamw": [("per-param", None), ("per-param", None), ("shared", None)],
    "rmsprop": [("per-param", None), ("per-param", "momentum"), ("per-param", "centered")],
}


def state_subset(spec, count, params):
    """Indices of the state tensors of the params at `params` (positions
    among `count`), in the order `update` takes them for those params."""
    subset = []
    for group in state_groups(spec, count):
        subset += [group[i] for i in params] if isinstance(group, list) else [group]
    return subset


def initial_state(spec, params):
    """The state torch.optim starts from (zeros; Adam's step count 0)."""
    return [torch.zeros(s) for s in state_shapes(spec, [p.shape for p in params])]


def _clip(grads, max_norm):
    norm = torch.sqrt(sum((g * g).sum() for g in grads))
    coefficient = torch.clamp(max_norm / (norm + 1e-6), max=1.0)
    return [g * coefficient for g in grads]


def update(spec, params, grads, state, lr=None):
    """(new params, new state) after one step; `lr` a 0-d tensor when the
    learning rate is a step input, else spec['lr']."""
    lr = spec["lr"] if lr is None else lr
    kind, wd = spec["kind"], spec["weight_decay"]
    grads = list(grads)
    if "max_grad_norm" in spec:
        grads = _clip(grads, spec["max_grad_norm"])
    n = len(params)
    if kind == "sgd":
        new_params, new_state = [], []
        for i, (p, g) in enumerate(zip(params, grads)):
            if wd:
                g = g + wd * p
            if spec["momentum"]:
                # From a zero buffer this is torch.optim's first step too
                # (dampening, which would break that, is refused).
                buf = spec["momentum"] * state[i] + g
                new_state.append(buf)
                g = g + spec["momentum"] * buf if spec["nesterov"] else buf
            new_params.append(p - lr * g)
        return new_params, new_state
    if kind in ("adam", "adamw"):
        b1, b2 = spec["betas"]
        step = state[2 * n] + 1.0
        bias1 = 1.0 - torch.pow(b1, step)
        bias2 = 1.0 - torch.pow(b2, step)
        new_params, moments, squares = [], [], []
        for i, (p, g) in enumerate(zip(params, grads)):
            if kind == "adamw" and wd:
                p = p * (1.0 - lr * wd)
            elif wd:
                g = g + wd * p
            m = b1 * state[i] + (1.0 - b1) * g
            v = b2 * state[n + i] + (1.0 - b2) * g * g
            denom = torch.sqrt(v) / torch.sqrt(bias2) + spec["eps"]
            new_params.append(p - (lr / bias1) * (m / denom))
            moments.append(m)
            squares.append(v)
        return new_params, moments + squares + [step]
    # RMSprop
    alpha, eps, momentum = spec["alpha"], spec["eps"], spec["momentum"]
    squares = state[:n]
    buffers = state[n:2 * n] if momentum else []
    averages = state[n + n * bool(momentum):] if spec["centered"] else []
    new_params, new_squares, new_buffers, new_averages = [], [], [], []
    for i, (p, g) in enumerate(zip(params, grads)):
        if wd:
            g = g + wd * p
        square = alpha * squares[i] + (1.0 - alpha) * g * g
        new_squares.append(square)
        if spec["centered"]:
            average = averages[i] + (1.0 - alpha) * (g - averages[i])
            new_averages.append(average)
            avg = torch.sqrt(square - average * average) + eps
        else:
            avg = torch.sqrt(square) + eps
        if momentum:
            buf = momentum * buffers[i] + g / avg
            new_buffers.append(buf)
            new_params.append(p - lr * buf)
        else:
            new_params.append(p - lr * (g / avg))
    return new_params, new_squares + new_buffers + new_averages
