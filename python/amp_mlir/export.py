"""PyTorch module + loss + optimizer -> an FP32 training step in linalg.

The step is traced with make_fx (trace.py), imported and lowered to
linalg-on-tensors by torch-mlir (importer.py), and bridged into the
training-graph contract of docs/training-graph.md by a wrapper function
that calls the forward, seeds the backward with `amp.loss_grad`, marks
every parameter's gradient `amp.grad` and calls the optimizer update
(optim.py); the calls are then inlined into one function.

Signature of the step:
  (inputs..., [lr], params..., optimizer state..., buffers...)
    -> (loss, new params..., new optimizer state..., new buffers...)
params in `model.named_parameters()` order, buffers (batch-norm running
statistics: every floating-point buffer) in `model.named_buffers()` order
and marked `amp.state`. Integer inputs (token ids, class indices) are i32
arguments, boolean ones (masks) i1.
"""
import copy
import dataclasses
import inspect
import re
from typing import List

import torch

from .importer import UnsupportedOp, function_types, import_graphs, link
from .optim import initial_state, optimizer_spec, state_names, state_subset
from .trace import calling_submodule, trace_predict, trace_training_step, trace_update


@dataclasses.dataclass
class StepLayout:
    """What each argument of an exported step is, with its initial value
    (for params, optimizer state and buffers)."""
    names: List[str]
    kinds: List[str]          # "data", "lr", "param", "state", "buffer"
    initial: List[object]     # a torch.Tensor or None (data, lr)


def _abi_type(tensor, what):
    """(the step argument's element type, the traced one) for an input."""
    if tensor.dtype == torch.float32:
        return "f32", "f32"
    if tensor.dtype == torch.int64:
        return "i32", "i64"
    if tensor.dtype == torch.int32:
        return "i32", "i32"
    if tensor.dtype == torch.bool:
        return "i1", "i1"
    raise ValueError(f"{what} has dtype {tensor.dtype}; inputs must be float32, "
                     "int64/int32 (ids, class indices) or bool (masks)")


def _tensor_type(shape, element):
    return "tensor<" + "".join(f"{d}x" for d in shape) + element + ">"


def _model_inputs(inputs, loss_fn, model_inputs):
    if model_inputs is None:
        model_inputs = len(inputs) - (1 if loss_fn is not None else 0)
    if not 0 < model_inputs <= len(inputs):
        raise ValueError(f"model_inputs={model_inputs} does not fit {len(inputs)} inputs")
    return model_inputs


def _parameter_names(function, skip, count):
    """The names of `function`'s positional parameters skip..skip+count
    (None where its signature does not say)."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return [None] * count
    positional = [p.name for p in parameters
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    names = positional[skip:skip + count]
    return names + [None] * (count - len(names))


def sanitize_name(name):
    """`name` in the alphabet of `amp.name` ([A-Za-z0-9_.:/-], at most 255
    characters)."""
    return re.sub(r"[^A-Za-z0-9_.:/-]", "_", name)[:255] or "_"


def _unique_names(names):
    """`names`, sanitized, with a suffix on repeats."""
    seen, result = set(), []
    for name in names:
        name = candidate = sanitize_name(name)
        suffix = 1
        while candidate in seen:
            suffix += 1
            candidate = f"{name}_{suffix}"
        seen.add(candidate)
        result.append(candidate)
    return result


def _input_names(model, loss_fn, count, model_inputs, input_names):
    """The step's data argument names: `input_names` when given, else
    the parameter names of the model's forward and of the loss function
    that the inputs bind to (positionally, as the step calls them), else
    input<N>."""
    if input_names is not None:
        input_names = [str(n) for n in input_names]
        if len(input_names) != count:
            raise ValueError(f"input_names has {len(input_names)} names for {count} inputs")
        bad = [n for n in input_names if sanitize_name(n) != n]
        if bad or len(set(input_names)) != count:
            raise ValueError(f"input_names must be distinct names of [A-Za-z0-9_.:/-], "
                             f"got {input_names}")
        return input_names
    names = _parameter_names(model.forward, 0, model_inputs)
    if count > model_inputs:
        names += _parameter_names(loss_fn, 1, count - model_inputs)
    return _unique_names([n or f"input{i}" for i, n in enumerate(names)])


class _Wrapper:
    """Writes the wrapper function's body: SSA names and lines."""

    def __init__(self):
        self.lines, self.count = [], 0

    def fresh(self):
        self.count += 1
        return f"%w{self.count}"

    def emit(self, text):
        self.lines.append("    " + text)

    def call(self, name, args, types):
        """Calls `name`; returns its result names."""
        inputs, results = types[name]
        value = self.fresh()
        listing = ", ".join(args)
        self.emit(f"{value}{':' + str(len(results)) if len(results) > 1 else ''} = "
                  f"func.call @{name}({listing}) : ({', '.join(inputs)}) -> "
                  f"({', '.join(results)})")
        if len(results) == 1:
            return [value]
        return [f"{value}#{i}" for i in range(len(results))]


def _convert_inputs(w, data, names):
    """The traced types of the data arguments (i32 ids widened to i64)."""
    values = []
    for arg, name in zip(data, names):
        abi, traced = _abi_type(arg.value, f"input {arg.name}")
        if abi == traced:
            values.append(name)
            continue
        shape = tuple(arg.value.shape)
        value = w.fresh()
        w.emit(f"{value} = arith.extsi {name} : {_tensor_type(shape, abi)} to "
               f"{_tensor_type(shape, traced)}")
        values.append(value)
    return values


def _trained_params(model, loss_fn, inputs, model_inputs):
    """Positions of the params that get a gradient: they require one and
    the loss depends on them (one eager step on a copy of the model)."""
    from .trace import _call_model
    model = copy.deepcopy(model)
    params = list(model.parameters())
    wanted = [i for i, p in enumerate(params) if p.requires_grad]
    loss = _call_model(model, {}, [t.clone() for t in inputs], loss_fn, model_inputs)
    if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
        return []
    grads = torch.autograd.grad(loss.sum(), [params[i] for i in wanted], allow_unused=True)
    return [i for i, g in zip(wanted, grads) if g is not None]


def build_training_step(model, loss_fn, optimizer, *inputs, name="train_step",
                        lr_input=False, model_inputs=None, max_grad_norm=None,
                        predict=None, input_names=None):
    """(MLIR text, StepLayout) of one training step; see export_training_step.
    With `predict` (a function name), the module also holds the eval-mode
    forward under that name (see export_predict)."""
    if not inputs:
        raise ValueError("export_training_step needs example inputs")
    spec = optimizer_spec(optimizer, max_grad_norm)
    model_inputs = _model_inputs(inputs, loss_fn, model_inputs)
    inputs = [torch.as_tensor(t) for t in inputs]
    graphs = trace_training_step(model, loss_fn, inputs, model_inputs)
    params = [a.value for a in graphs.params]
    state = initial_state(spec, params)
    # Like torch.optim, a param that does not require grad or gets no
    # gradient (unused) is not updated, nor its optimizer state.
    trained = _trained_params(model, loss_fn, inputs, model_inputs)
    if not trained:
        raise ValueError("no parameter of the model gets a gradient from the loss")
    trained_state = state_subset(spec, len(params), trained)
    update = trace_update(spec, [params[i] for i in trained],
                          [state[j] for j in trained_state], lr_input)
    model_name = type(model).__name__
    to_import = {"forward": graphs.forward, "backward": graphs.backward, "update": update}
    if predict:
        to_import["predict_forward"] = trace_predict(model, inputs[:model_inputs])[0]
    module = import_graphs(to_import, model_name,
                           lambda op: calling_submodule(model, inputs[:model_inputs], op))
    types = function_types(module)

    n_data, n_params, n_state = len(graphs.data), len(params), len(state)
    layout_names = _input_names(model, loss_fn, n_data, model_inputs, input_names)
    layout_kinds = ["data"] * n_data
    if lr_input:
        if "lr" in layout_names:
            raise ValueError("an input is named 'lr', the name of the learning-rate "
                             "argument: pass input_names")
        layout_names.append("lr")
        layout_kinds.append("lr")
    first_param = len(layout_names)
    layout_names += [a.name for a in graphs.params]
    layout_kinds += ["param"] * n_params
    layout_names += state_names(spec, layout_names[first_param:first_param + n_params])
    layout_kinds += ["state"] * n_state
    layout_names += [a.name for a in graphs.buffers]
    layout_kinds += ["buffer"] * len(graphs.buffers)
    layout_names = layout_names[:first_param] + _unique_names(layout_names[first_param:])
    clash = set(layout_names[:first_param]) & set(layout_names[first_param:])
    if clash:
        raise ValueError(f"inputs named like params or state ({', '.join(sorted(clash))}): "
                         "pass input_names")
    initial = [None] * first_param + params + state + [a.value for a in graphs.buffers]

    # The signature.
    arg_names = [f"%arg{i}" for i in range(len(layout_names))]
    arg_text = []
    for i, (arg, kind) in enumerate(zip(arg_names, layout_kinds)):
        named = f'amp.name = "{layout_names[i]}"'
        if kind == "data":
            value = graphs.data[i].value
            text = _tensor_type(tuple(value.shape), _abi_type(value, f"input {i}")[0])
            text += f" {{{named}}}"
        elif kind == "lr":
            text = f"tensor<f32> {{{named}}}"
        else:
            text = _tensor_type(tuple(initial[i].shape), "f32")
            text += f" {{amp.param, {named}}}" if kind == "param" else f" {{amp.state, {named}}}"
        arg_text.append(f"{arg}: {text}")

    w = _Wrapper()
    data_values = _convert_inputs(w, graphs.data, arg_names[:n_data])
    param_args = arg_names[first_param:first_param + n_params]
    state_args = arg_names[first_param + n_params:first_param + n_params + n_state]
    buffer_args = arg_names[first_param + n_params + n_state:]
    forward_inputs = param_args + buffer_args + data_values
    forward = w.call("forward", forward_inputs, types)
    loss, loss_type = forward[0], types["forward"][1][0]
    seed = w.fresh()
    w.emit(f'{seed} = "amp.loss_grad"({loss}) : ({loss_type}) -> {loss_type}')
    seed_type = types["backward"][0][-1]
    if seed_type != loss_type:
        reshaped = w.fresh()
        w.emit(f"{reshaped} = tensor.collapse_shape {seed} [] : {loss_type} into {seed_type}")
        seed = reshaped
    saved = [forward[i] if where == "forward" else forward_inputs[i]
             for where, i in graphs.saved]
    backward = w.call("backward", saved + [seed], types)
    update_inputs, update_types = types["update"]
    grads = []
    for position, i in enumerate(trained):
        where, index = graphs.grads_from[i]
        grad_type = update_inputs[len(trained) + position]
        value = backward[index] if where == "backward" else forward[index]
        marked = w.fresh()
        w.emit(f'{marked} = "amp.grad"({value}) {{param = {first_param + i} : i64}} : '
               f"({grad_type}) -> {grad_type}")
        grads.append(marked)
    lr_args = [arg_names[n_data]] if lr_input else []
    updated = w.call("update", [param_args[i] for i in trained] + grads
                     + [state_args[j] for j in trained_state] + lr_args, types)
    new_buffers = forward[1:1 + len(graphs.buffers)]
    # Every param and state tensor: its update, or itself when not trained.
    new_values = param_args + state_args
    value_types = [arg_text[first_param + i].split(": ", 1)[1].split(" {")[0]
                   for i in range(n_params + n_state)]
    for position, i in enumerate(trained):
        new_values[i] = updated[position]
    for position, j in enumerate(trained_state):
        new_values[n_params + j] = updated[len(trained) + position]

    results = [(loss, loss_type, "{amp.loss}")]
    for i, (value, value_type) in enumerate(zip(new_values, value_types)):
        results.append((value, value_type, f"{{amp.update_of = {first_param + i} : i64}}"))
    buffer_types = types["forward"][1][1:1 + len(graphs.buffers)]
    for i, (value, t) in enumerate(zip(new_buffers, buffer_types)):
        index = first_param + n_params + n_state + i
        results.append((value, t, f"{{amp.update_of = {index} : i64}}"))
    wrapper = (f"\n  func.func @{name}({', '.join(arg_text)})\n      -> ("
               + ", ".join(f"{t} {a}" for _, t, a in results) + ") {\n"
               + "\n".join(w.lines) + "\n    return " + ", ".join(v for v, _, _ in results)
               + " : " + ", ".join(t for _, t, _ in results) + "\n  }")
    keep = {name}
    if predict:
        wrapper += _predict_wrapper(types, "predict_forward", n_params, len(graphs.buffers),
                                    inputs[:model_inputs], predict)
        keep.add(predict)
    text = link(module, wrapper, keep)
    header = (f"// {model_name} training step exported by amp_mlir (torch-mlir) from PyTorch "
              f"{torch.__version__}\n// arguments: {', '.join(layout_names)}\n")
    return header + text, StepLayout(layout_names, layout_kinds, initial)


def export_training_step(model, loss_fn, optimizer, *inputs, name="train_step",
                         lr_input=False, model_inputs=None, max_grad_norm=None, predict=None,
                         input_names=None):
    """MLIR text of one training step of `model` (a torch.nn.Module) on
    example `inputs`: `loss_fn(model(*inputs[:k]), *inputs[k:])` with k =
    `model_inputs` (default: all inputs but the last), or, with `loss_fn`
    None, the loss the model returns itself. `optimizer` is a torch.optim
    instance (SGD, Adam, AdamW, RMSprop) or a spec dict. With `lr_input`,
    the learning rate is a `tensor<f32>` argument after the inputs; with
    `max_grad_norm`, gradients are clipped to that global norm first; with
    `predict="predict"`, the module also holds the eval-mode forward.
    Every argument carries its name (`amp.name`): the inputs are named
    `input_names`, by default after the parameters of the model's forward
    and of the loss that they bind to (`x`, `target`; `input<N>` where a
    signature does not say); params, optimizer state and buffers after
    `model.named_parameters()` / `named_buffers()`."""
    return build_training_step(model, loss_fn, optimizer, *inputs, name=name,
                               lr_input=lr_input, model_inputs=model_inputs,
                               max_grad_norm=max_grad_norm, predict=predict,
                               input_names=input_names)[0]


def _predict_wrapper(types, forward, n_params, n_buffers, inputs, name):
    """The text of predict(inputs..., params..., buffers...) calling the
    imported eval-mode forward `forward`."""
    from .trace import Argument
    w = _Wrapper()
    params = [f"%p{i}" for i in range(n_params)]
    buffers = [f"%b{i}" for i in range(n_buffers)]
    data = [Argument(f"input{i}", "data", t) for i, t in enumerate(inputs)]
    data_names = [f"%x{i}" for i in range(len(inputs))]
    values = _convert_inputs(w, data, data_names)
    out = w.call(forward, params + buffers + values, types)
    forward_inputs, result_types = types[forward]
    arg_text = [f"{n}: {_tensor_type(tuple(t.shape), _abi_type(t, n)[0])}"
                for n, t in zip(data_names, inputs)]
    arg_text += [f"{p}: {t} {{amp.param}}" for p, t in zip(params, forward_inputs)]
    arg_text += [f"{b}: {t} {{amp.state}}"
                 for b, t in zip(buffers, forward_inputs[n_params:])]
    return (f"\n  func.func @{name}({', '.join(arg_text)}) -> ({', '.join(result_types)}) {{\n"
            + "\n".join(w.lines) + f"\n    return {', '.join(out)} : "
            + ", ".join(result_types) + "\n  }")


def export_predict(model, *inputs, name="predict"):
    """MLIR text of the eval-mode forward predict(inputs..., params...,
    buffers...) -> outputs, params and buffers in the training step's
    order (amp-train's test accuracy calls it)."""
    inputs = [torch.as_tensor(t) for t in inputs]
    gm, buffer_names = trace_predict(model, inputs)
    module = import_graphs({"predict_forward": gm}, type(model).__name__,
                           lambda op: calling_submodule(model, inputs, op))
    wrapper = _predict_wrapper(function_types(module), "predict_forward",
                               len(list(model.parameters())), len(buffer_names), inputs, name)
    return link(module, wrapper, {name})
