"""A PyTorch model's training step as aten FX graphs.

The step is traced once, forward and backward together: `torch.func.vjp`
of the loss with the backward seed passed in as an input (so the seed can
be marked `amp.loss_grad`), buffers mutated by the forward (batch-norm
running statistics) returned as outputs, everything functionalized and
decomposed by `make_fx`. The joint graph is then split at the seed: the
forward is every node that does not depend on it, the backward the rest.
The optimizer update is traced on its own (see optim.py).
"""
import contextlib
import copy as copy_module
import dataclasses
import warnings
from typing import List

import torch
import torch.fx as fx
import torch.fx.traceback as fx_traceback
from torch.fx.experimental.proxy_tensor import make_fx
from torch.func import functional_call, functionalize, vjp

from .decompositions import decomposition_table, mutation_table


@dataclasses.dataclass
class Argument:
    """One input of the step: a param, a buffer or a data tensor."""
    name: str
    kind: str  # "param", "buffer", "data", "lr"
    value: torch.Tensor


@dataclasses.dataclass
class TrainingGraphs:
    params: List[Argument]
    buffers: List[Argument]
    data: List[Argument]
    forward: fx.GraphModule   # (params, buffers, data) -> (loss, new buffers, saved...)
    backward: fx.GraphModule  # (saved..., seed) -> (grads...)
    saved: List[object]       # per backward input but the seed: ("forward", i) or ("input", i)
    grads_from: List[object]  # per grad: ("backward", i), ("forward", i) or ("zero", None)
    loss_shape: tuple


def _float_buffers(model):
    """(name, tensor) of the buffers the step carries as state: floating
    ones (running statistics). Integer buffers (batch norm's
    num_batches_tracked) are constants of the trace."""
    buffers, constants = [], {}
    for name, b in model.named_buffers():
        (buffers.append((name, b)) if b.is_floating_point() else
         constants.__setitem__(name, b))
    return buffers, constants


def _call_model(model, tensors, inputs, loss_fn, model_inputs):
    out = functional_call(model, tensors, tuple(inputs[:model_inputs]))
    if loss_fn is not None:
        return loss_fn(out, *inputs[model_inputs:])
    # A model that computes its own loss (Hugging Face models given labels).
    if hasattr(out, "loss"):
        return out.loss
    if isinstance(out, (tuple, list)):
        return out[0]
    return out


def _constant_only(node):
    if node.op == "get_attr":
        return True
    if node.op == "placeholder":
        return False
    return all(_constant_only(a) for a in node.all_input_nodes)


def _drop_dead_constant_mutations(graph):
    """Functionalization keeps in-place ops on tensors it does not own:
    the integer buffers' updates (num_batches_tracked += 1) on constants.
    Their results are unused; torch-mlir cannot lower them."""
    for node in reversed(list(graph.nodes)):
        schema = getattr(node.target, "_schema", None)
        if (node.op == "call_function" and schema is not None and schema.name.endswith("_")
                and not node.users and node.args and isinstance(node.args[0], fx.Node)
                and _constant_only(node.args[0])):
            graph.erase_node(node)
    graph.eliminate_dead_code()


def _subgraph(root, nodes, inputs, outputs):
    """A GraphModule of `nodes` (in order) taking `inputs`, returning `outputs`."""
    graph, env = fx.Graph(), {}
    for node in inputs:
        placeholder = graph.placeholder(node.name)
        placeholder.meta = dict(node.meta)
        env[node] = placeholder

    def lookup(a):
        if a not in env:  # constants are copied where they are used
            env[a] = graph.node_copy(a)
        return env[a]

    for node in nodes:
        env[node] = graph.node_copy(node, lookup)
    graph.output(tuple(env[o] for o in outputs))
    return fx.GraphModule(root, graph)


@contextlib.contextmanager
def _composite_kernels():
    """Ops whose CPU kernels are fused black boxes (attention through
    flash attention, RNNs through oneDNN) take their composite path while
    tracing, so that autograd records their math and its backward."""
    from torch.nn.attention import SDPBackend, sdpa_kernel
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # mkldnn.flags warns about TF32 settings
        with sdpa_kernel(SDPBackend.MATH), torch.backends.mkldnn.flags(enabled=False), \
                _as_if_compiling():
            yield


@contextlib.contextmanager
def _as_if_compiling():
    """Libraries that look at tensor values to skip work (Hugging Face
    models check whether an attention mask is all ones) do not when
    torch.compiler.is_compiling() says a graph is being captured, which is
    what make_fx does here; a data-dependent branch cannot be traced."""
    original = torch.compiler.is_compiling
    torch.compiler.is_compiling = lambda: True
    try:
        yield
    finally:
        torch.compiler.is_compiling = original


def _functional_trace(fn, example):
    """make_fx of fn, functionalized and decomposed. Two traces: the first
    writes the hidden mutations (batch-norm statistics) as copy_ ops, the
    second functionalizes them (AOTAutograd orders it the same way)."""
    with _composite_kernels():
        first = make_fx(fn, decomposition_table=mutation_table(),
                        record_stack_traces=True)(*example)

    def replay(*args):  # node by node, so each new node keeps its origin's metadata
        return fx.Interpreter(first).run(*args)

    with fx_traceback.preserve_node_meta():
        return make_fx(functionalize(replay, remove="mutations"),
                       decomposition_table=decomposition_table())(*example)


def trace_training_step(model, loss_fn, inputs, model_inputs):
    """The forward and backward graphs of one step of `model` on `inputs`
    (the first `model_inputs` go to the model, the rest to `loss_fn`)."""
    params = [Argument(n, "param", p.detach()) for n, p in model.named_parameters()]
    float_buffers, constants = _float_buffers(model)
    buffers = [Argument(n, "buffer", b.detach().clone()) for n, b in float_buffers]
    data = [Argument(f"input{i}", "data", t.detach()) for i, t in enumerate(inputs)]
    n_params, n_buffers, n_data = len(params), len(buffers), len(data)
    loss_shapes = []

    def joint(*flat):
        ps = flat[:n_params]
        bs = flat[n_params:n_params + n_buffers]
        xs = flat[n_params + n_buffers:-1]
        seed = flat[-1]

        def forward(*ps):
            tensors = {a.name: t for a, t in zip(params, ps)}
            # Clones: the forward updates them in place (running
            # statistics); functionalized, their last values are outputs.
            tensors.update({a.name: t.clone() for a, t in zip(buffers, bs)})
            tensors.update({n: c.clone() for n, c in constants.items()})
            loss = _call_model(model, tensors, xs, loss_fn, model_inputs)
            return loss, [tensors[a.name] for a in buffers]

        loss, backward, new_buffers = vjp(forward, *ps, has_aux=True)
        if not isinstance(loss, torch.Tensor) or loss.numel() != 1 or not loss.is_floating_point():
            got = (f"shape {tuple(loss.shape)}" if isinstance(loss, torch.Tensor)
                   else type(loss).__name__)
            raise ValueError(f"the loss must be a scalar float, got {got}")
        loss_shapes.append(tuple(loss.shape))
        grads = backward(seed.reshape(loss.shape))
        return (loss, *grads, *new_buffers)

    seed = torch.ones(())
    example = ([a.value for a in params] + [a.value for a in buffers]
               + [a.value for a in data] + [seed])
    gm = _functional_trace(joint, example)
    _drop_dead_constant_mutations(gm.graph)
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    seed_node = placeholders[-1]
    outputs = list(next(n for n in graph.nodes if n.op == "output").args[0])
    loss, grads = outputs[0], outputs[1:1 + n_params]
    new_buffers = outputs[1 + n_params:]

    backward_nodes = {seed_node}
    for node in graph.nodes:
        if node.op == "call_function" and any(a in backward_nodes for a in node.all_input_nodes):
            backward_nodes.add(node)
    computed = [n for n in graph.nodes if n.op == "call_function"]
    forward_part = [n for n in computed if n not in backward_nodes]
    backward_part = [n for n in computed if n in backward_nodes]
    # What the backward reads from the forward: computed values and inputs.
    saved = []
    for node in backward_part:
        for a in node.all_input_nodes:
            if a not in backward_nodes and a.op != "get_attr" and a not in saved:
                saved.append(a)
    forward_outputs = [loss] + new_buffers
    for node in saved:
        if node.op != "placeholder" and node not in forward_outputs:
            forward_outputs.append(node)
    grads_from = []
    for g in grads:
        if g is None:
            grads_from.append(("zero", None))
        elif g in backward_nodes:
            grads_from.append(("backward", None))
        else:
            if g not in forward_outputs and g.op != "placeholder":
                forward_outputs.append(g)
            grads_from.append(("forward", forward_outputs.index(g)))
    backward_grads = [g for g, (kind, _) in zip(grads, grads_from) if kind == "backward"]
    for i, (kind, _) in enumerate(grads_from):
        if kind == "backward":
            grads_from[i] = ("backward", backward_grads.index(grads[i]))
    forward = _subgraph(gm, forward_part, placeholders[:-1], forward_outputs)
    backward = _subgraph(gm, backward_part, saved + [seed_node], backward_grads)
    saved_from = [("input", placeholders.index(s)) if s.op == "placeholder"
                  else ("forward", forward_outputs.index(s)) for s in saved]
    return TrainingGraphs(params, buffers, data, forward, backward, saved_from, grads_from,
                          loss_shapes[0])


def trace_update(spec, params, state, lr_input):
    """The optimizer update (params, grads, state[, lr]) -> (new params,
    new state) as an aten graph."""
    from .optim import update
    n, s = len(params), len(state)

    def step(*flat):
        ps, gs, st = flat[:n], flat[n:2 * n], flat[2 * n:2 * n + s]
        lr = flat[-1] if lr_input else None
        new_params, new_state = update(spec, ps, gs, st, lr)
        return (*new_params, *new_state)

    example = list(params) + [torch.zeros_like(p) for p in params] + list(state)
    if lr_input:
        example.append(torch.tensor(spec["lr"], dtype=torch.float32))
    return make_fx(step, decomposition_table=decomposition_table())(*example)


def trace_predict(model, inputs):
    """The eval-mode forward (params, buffers, inputs) -> output."""
    params = [p.detach() for _, p in model.named_parameters()]
    names = [n for n, _ in model.named_parameters()]
    float_buffers, constants = _float_buffers(model)
    n_params, n_buffers = len(params), len(float_buffers)

    def forward(*flat):
        tensors = dict(zip(names, flat[:n_params]))
        tensors.update({n: t for (n, _), t in zip(float_buffers,
                                                  flat[n_params:n_params + n_buffers])})
        tensors.update({n: c.clone() for n, c in constants.items()})
        return functional_call(model, tensors, tuple(flat[n_params + n_buffers:]))

    was_training = model.training
    model.eval()
    try:
        example = params + [b.detach().clone() for _, b in float_buffers] + list(inputs)
        gm = _functional_trace(forward, example)
    finally:
        model.train(was_training)
    _drop_dead_constant_mutations(gm.graph)
    return gm, [n for n, _ in float_buffers]


def calling_submodule(model, inputs, op):
    """The innermost submodule (qualified name and class) whose forward
    calls aten op `op` (a base name such as 'sort') when `model` runs
    eagerly on `inputs`, or the model's own forward; None when the forward
    never calls it (an op only the backward uses)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    stack, found, hooks = [], [], []

    def enter(label):
        def hook(module, args):
            stack.append(label)
        return hook

    def leave(module, args, out):
        stack.pop()

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = str(func).split(".")
            if not found and len(name) > 1 and name[1] == op:
                found.append(stack[-1] if stack else None)
            return func(*args, **(kwargs or {}))

    copy = copy_module.deepcopy(model)  # an eager run must not move batch-norm statistics
    for name, module in copy.named_modules():
        label = (f"submodule '{name}' ({type(module).__name__})" if name
                 else f"{type(module).__name__}.forward")
        hooks.append(module.register_forward_pre_hook(enter(label)))
        hooks.append(module.register_forward_hook(leave))
    try:
        with torch.no_grad(), _composite_kernels(), Recorder():
            copy(*inputs)
    except Exception:  # locating is a courtesy; the caller keeps its error
        return None
    return found[0] if found else None
