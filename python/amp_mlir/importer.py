"""aten FX graphs -> linalg-on-tensors through torch-mlir's FX importer.

All graphs of a step go into one module (so they share its attribute
aliases and can be inlined into one function); torch-mlir's
`torchdynamo-export-to-torch-backend-pipeline` and its linalg backend
lower them. An op torch-mlir cannot lower becomes an UnsupportedOp naming
the aten op, the submodule that called it and the line of the user's
model, taken from the FX node's metadata.
"""
import re

from torch_mlir import ir, passmanager
from torch_mlir.dialects import torch as torch_d
from torch_mlir.extras.fx_importer import FxImporter


class UnsupportedOp(Exception):
    """An aten op (or a form of one) amp_mlir cannot compile. `aten` is
    the op's name, `submodule` the module whose forward called it, `source`
    the user's source line ("file:line") when the trace has it."""

    def __init__(self, message, aten=None, submodule=None, source=None):
        super().__init__(message)
        self.aten, self.submodule, self.source = aten, submodule, source


def _source_line(node):
    """The innermost frame of the traced code outside torch and amp_mlir
    ("file:line"), from the stack trace make_fx recorded for `node`."""
    trace = node.meta.get("stack_trace") or ""
    frames = re.findall(r'File "([^"]+)", line (\d+)', trace)
    user = [f for f in frames if "/torch/" not in f[0] and "/amp_mlir/" not in f[0]]
    return f"{user[-1][0]}:{user[-1][1]}" if user else None


def _base(name):
    """'aten.sort.stable' -> 'sort'."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else name


def _located(target, graphs, model_name, why, locate=None):
    """The UnsupportedOp for aten op `target` ('aten.name' or
    'aten.name.overload'), located at the first FX node calling it: the
    user's source line from the node's stack trace and, through
    `locate(op base name)`, the submodule whose forward called it."""
    for graph in graphs:
        for node in graph.graph.nodes:
            name = str(node.target)
            if node.op == "call_function" and (name == target or name.startswith(target + ".")):
                source = _source_line(node)
                submodule = locate(_base(name)) if locate else None
                where = ", ".join(w for w in (
                    f"called by {submodule}" if submodule else None,
                    f"at {source}" if source else None) if w)
                return UnsupportedOp(
                    f"aten op '{name}' (in the step of module '{model_name}') {why}"
                    f"{' (' + where + ')' if where else ''}", name, submodule, source)
    submodule = locate(_base(target)) if locate else None
    return UnsupportedOp(f"op '{target}' (in the step of module '{model_name}') {why}"
                         f"{' (called by ' + submodule + ')' if submodule else ''}",
                         target, submodule)


def _unlowered_ops(module):
    """aten ops left in `module` (torch backend IR) after torch-mlir's
    conversions to linalg, each of which runs as a partial conversion."""
    copy = ir.Module.parse(str(module), module.context)
    if _run(copy, "builtin.module(func.func(convert-torch-to-tmtensor, convert-torch-to-linalg, "
                  "convert-torch-to-scf, convert-torch-to-arith, convert-torch-to-tensor))"):
        return []
    left = []
    for name in re.findall(r"torch\.(aten\.[A-Za-z0-9_]+)", str(copy)):
        if name not in left:
            left.append(name)
    return left


# torch-mlir's pipelines: FX import -> torch backend IR -> linalg-on-tensors
# (what torch_mlir.fx.stateless_fx_import runs for output_type "linalg").
_TO_TORCH_BACKEND = ("builtin.module(func.func(torch-match-quantized-custom-ops), "
                     "torchdynamo-export-to-torch-backend-pipeline{ extra-library=})")
_TO_LINALG = ("builtin.module(torch-backend-to-linalg-on-tensors-backend-pipeline"
              "{allow-non-finites=True})")


def _run(module, pipeline):
    """Runs `pipeline` on `module`; returns the error diagnostics ([] on
    success). Diagnostics are collected, not printed."""
    errors = []

    def collect(diagnostic):
        if diagnostic.severity == ir.DiagnosticSeverity.ERROR:
            errors.append(diagnostic.message)
        return True

    handler = module.context.attach_diagnostic_handler(collect)
    try:
        passmanager.PassManager.parse(pipeline, module.context).run(module.operation)
    except ir.MLIRError as error:
        errors += [d.message for d in error.error_diagnostics] or [str(error)]
    finally:
        handler.detach()
    return errors or []


def import_graphs(graphs, model_name, locate=None):
    """{function name: GraphModule} -> a torch_mlir ir.Module in
    linalg-on-tensors, one private function per graph. An op that cannot
    be lowered is an UnsupportedOp; `locate(op name)` names the submodule
    that calls it, when it can."""
    context = ir.Context()
    torch_d.register_dialect(context)
    importer = FxImporter(context=context)
    for name, gm in graphs.items():
        importer.import_stateless_graph(gm.graph, func_name=name)
    module = importer.module
    errors = _run(module, _TO_TORCH_BACKEND)
    if errors:
        ops = re.findall(r"torch\.(aten\.[A-Za-z0-9_]+)", "\n".join(errors))
        if ops:
            raise _located(ops[0], graphs.values(), model_name,
                           "has no torch-mlir lowering", locate)
        raise UnsupportedOp(f"torch-mlir cannot import the step of '{model_name}': {errors[0]}")
    torch_ir = str(module)
    errors = _run(module, _TO_LINALG)
    if errors:
        left = _unlowered_ops(ir.Module.parse(torch_ir, context))
        if left:
            raise _located(left[0], graphs.values(), model_name,
                           "has no torch-mlir lowering to linalg", locate)
        raise UnsupportedOp(f"torch-mlir cannot lower the step of '{model_name}' to linalg: "
                            f"{errors[0]}")
    # torch-mlir lowers scatters, sorts and scans to its own tm_tensor
    # dialect, which MLIR cannot compile.
    scatter = re.search(r"tm_tensor\.([a-z_]+)", str(module))
    if scatter:
        why = (f"lowers to tm_tensor.{scatter.group(1)} (torch-mlir's scatter, sort and scan "
               "dialect), which amp-mlir cannot compile")
        users = _tm_tensor_users(graphs.values(), scatter.group(1))
        if users:
            raise _located(users[0], graphs.values(), model_name, why, locate)
        raise UnsupportedOp(f"an op of the step of '{model_name}' {why}")
    return module


# The aten ops torch-mlir lowers to each tm_tensor op, most telling first.
_TM_TENSOR_OPS = {
    "sort": ("sort", "argsort", "topk", "kthvalue", "msort"),
    "scan": ("cumsum", "cumprod", "logcumsumexp"),
    "scatter": ("index_put", "_unsafe_index_put", "index_add", "index_reduce", "scatter_add",
                "scatter_reduce", "scatter", "bincount"),
    "attention": ("_scaled_dot_product",),
}


def _tm_tensor_users(graphs, kind):
    """aten ops of the graphs that torch-mlir lowers to tm_tensor.`kind`."""
    graphs = list(graphs)
    names = [str(n.target) for g in graphs for n in g.graph.nodes if n.op == "call_function"]
    found = []
    for prefix in _TM_TENSOR_OPS.get(kind, ()):
        for name in names:
            if _base(name).startswith(prefix) and name not in found:
                found.append(name)
    return found


def _first_error(message):
    lines = [line.strip() for line in message.splitlines() if "error" in line]
    return lines[0] if lines else message.strip().splitlines()[0]


def function_types(module):
    """{name: ([argument types], [result types])} as MLIR type text."""
    types = {}
    for op in module.body.operations:
        if op.operation.name == "func.func":
            ftype = ir.TypeAttr(op.attributes["function_type"]).value
            ftype = ir.FunctionType(ftype)
            name = ir.StringAttr(op.attributes["sym_name"]).value
            types[name] = ([str(t) for t in ftype.inputs], [str(t) for t in ftype.results])
    return types


def link(module, wrapper_text, keep):
    """`module`'s functions plus `wrapper_text` (functions calling them,
    with amp ops in generic form), inlined into the functions named in
    `keep`; returns the MLIR text."""
    context = module.context
    context.allow_unregistered_dialects = True
    text = str(module)
    # The module's closing brace comes before any `{-# dialect_resources #-}`.
    resources = text.find("\n{-#")
    body, tail = (text[:resources], text[resources:]) if resources >= 0 else (text, "")
    body = body.rstrip()
    assert body.endswith("}")
    text = body[:-1] + wrapper_text + "\n}\n" + tail
    linked = ir.Module.parse(text, context)
    for op in linked.body.operations:
        if op.operation.name == "func.func":
            name = ir.StringAttr(op.attributes["sym_name"]).value
            if name not in keep:
                op.attributes["sym_visibility"] = ir.StringAttr.get("private", context)
    passmanager.PassManager.parse(
        "builtin.module(inline, symbol-dce, cse)", context).run(linked.operation)
    return str(linked)
