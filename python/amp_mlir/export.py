"""PyTorch module + loss + optimizer -> an FP32 training step in TOSA.

AOTAutograd (functorch's aot_function, in torch 1.13 and 2.x) traces the
forward and the backward aten graphs; each aten op is written as TOSA, the
backward is seeded with `amp.loss_grad`, gradients are marked `amp.grad`
and the optimizer update is appended in TOSA, so the result follows the
training-graph contract of docs/training-graph.md.

Signature: (x, y, params..., optimizer state...) -> (loss, new params...,
new state...); params in `model.named_parameters()` order.
"""
import math
import operator

import torch
from torch.fx.passes.shape_prop import ShapeProp

from .tosa import Value, Writer, ttype


class UnsupportedOp(Exception):
    """An aten op (or a form of one) amp_mlir cannot write as TOSA. `aten`
    is the op's name, `submodule` the module whose forward called it."""

    def __init__(self, message, aten=None):
        super().__init__(message)
        self.aten, self.submodule = aten, None


def _calling_submodule(model, x, aten):
    """The innermost submodule (qualified name and class) whose forward calls
    `aten` (a name like 'aten.sigmoid.default') when `model` runs on x
    eagerly, or the model's own forward; None when the forward never calls
    it (an op only the backward uses)."""
    from torch.utils._python_dispatch import TorchDispatchMode

    stack, found, hooks = [], [], []

    def enter(label):
        def hook(module, args):
            stack.append(label)
        return hook

    def leave(module, args, out):
        stack.pop()

    for name, module in model.named_modules():
        label = (f"submodule '{name}' ({type(module).__name__})" if name
                 else f"{type(module).__name__}.forward")
        hooks.append(module.register_forward_pre_hook(enter(label)))
        hooks.append(module.register_forward_hook(leave))

    class Recorder(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if not found and str(func) == aten:
                found.append(stack[-1] if stack else None)
            return func(*args, **(kwargs or {}))

    try:
        with torch.no_grad(), Recorder():
            model(x)
    finally:
        for hook in hooks:
            hook.remove()
    return found[0] if found else None


def _with_submodule(error, model, x):
    """`error` with the submodule that called its op added to the message."""
    if error.aten is None:
        return error
    try:
        where = _calling_submodule(model, x, str(error.aten))
    except Exception:  # the eager rerun is a courtesy; keep the first error
        return error
    if where is None:
        return error
    located = UnsupportedOp(f"{error} (called by {where})", error.aten)
    located.submodule = where
    return located


def _dtype(tensor):
    """The element type of a tensor in our graphs: floats are f32, integers
    (token ids, positions) i32."""
    return "f32" if tensor.dtype.is_floating_point else "i32"


def _shape(node):
    meta = node.meta.get("tensor_meta")
    return tuple(meta.shape) if meta is not None else None


def _locating_unsupported_ops(export):
    """Makes an UnsupportedOp from `export(model, ..., x, ...)` name the
    submodule that called the op."""
    import functools
    import inspect

    signature = inspect.signature(export)

    @functools.wraps(export)
    def wrapper(*args, **kwargs):
        try:
            return export(*args, **kwargs)
        except UnsupportedOp as error:
            bound = signature.bind(*args, **kwargs).arguments
            raise _with_submodule(error, bound["model"], bound["x"]) from None
    return wrapper


class _Emitter:
    """Writes the nodes of aten fx graphs as TOSA."""

    def __init__(self, writer, module_name):
        self.w = writer
        self.module_name = module_name
        self.values = {}

    def run(self, gm, inputs):
        placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
        for node, value in zip(placeholders, inputs):
            self.values[node] = value
        for node in gm.graph.nodes:
            if node.op == "get_attr":
                self.values[node] = self.constant(getattr(gm, node.target))
            elif node.op == "call_function":
                self.values[node] = self.call(node)
            elif node.op == "output":
                return [self.values.get(a) if a is not None else None
                        for a in node.args[0]]

    def arg(self, a):
        if isinstance(a, (list, tuple)):
            return [self.arg(v) for v in a]
        return self.values[a] if isinstance(a, torch.fx.Node) else a

    def constant(self, tensor):
        """A tensor the graph holds (a buffer): its values, known at export."""
        tensor = tensor.detach().cpu()
        return self.w.dense(tensor.flatten().tolist(), tuple(tensor.shape), _dtype(tensor))

    def call(self, node):
        if node.target is operator.getitem:
            container, index = self.arg(node.args[0]), node.args[1]
            return container[index]
        name = str(node.target).replace("aten.", "").replace(".default", "")
        handler = getattr(self, "op_" + name.replace(".", "_"), None)
        if handler is None:
            raise UnsupportedOp(
                f"aten op '{node.target}' (in the graph of module "
                f"'{self.module_name}') has no TOSA lowering in amp_mlir", node.target)
        args = [self.arg(a) for a in node.args]
        try:
            result = handler(node, *args)
        except UnsupportedOp as error:
            error.aten = error.aten or node.target
            raise
        if isinstance(result, (list, tuple)):
            return result
        shape = _shape(node)
        if shape is not None and isinstance(result, Value) and result.shape != shape:
            result = self.w.reshape(result, shape)
        return result

    # Shapes and identities ------------------------------------------------------
    def op_detach(self, node, x):
        return x

    op_clone = op_detach
    op_alias = op_detach

    def op_t(self, node, x):
        return self.w.transpose(x, [1, 0]) if len(x.shape) == 2 else x

    def op_transpose_int(self, node, x, d0, d1):
        perms = list(range(len(x.shape)))
        perms[d0], perms[d1] = perms[d1], perms[d0]
        return self.w.transpose(x, perms)

    def op_permute(self, node, x, perms):
        return self.w.transpose(x, [p % len(x.shape) for p in perms])

    def op_view(self, node, x, shape):
        return self.w.reshape(x, _shape(node))

    op__unsafe_view = op_view
    op_reshape = op_view

    def op__reshape_alias(self, node, x, shape, strides):
        return self.w.reshape(x, _shape(node))

    def op_split_Tensor(self, node, x, size, dim=0):
        dim %= len(x.shape)
        parts = []
        for start in range(0, x.shape[dim], size):
            begin = [0] * len(x.shape)
            begin[dim] = start
            extent = list(x.shape)
            extent[dim] = min(size, x.shape[dim] - start)
            parts.append(self.w.slice(x, begin, extent))
        return parts

    def op_cat(self, node, values, dim=0):
        return self.w.concat(values, dim % len(values[0].shape))

    def op_unsqueeze(self, node, x, dim):
        return self.w.reshape(x, _shape(node))

    op_squeeze_dim = op_unsqueeze

    def op_expand(self, node, x, shape, *rest):
        return self.w.tile(x, _shape(node))

    # Arithmetic -----------------------------------------------------------------
    def _scalar(self, value):
        return self.w.reshape(self.w.const(float(value)), ())

    def _operand(self, v):
        return v if isinstance(v, Value) else self._scalar(v)

    def op_add_Tensor(self, node, a, b, alpha=1):
        b = self._operand(b)
        if alpha != 1:
            b = self.w.scale(b, alpha)
        return self.w.binary("add", self._operand(a), b)

    def op_sub_Tensor(self, node, a, b, alpha=1):
        b = self._operand(b)
        if alpha != 1:
            b = self.w.scale(b, alpha)
        return self.w.binary("sub", self._operand(a), b)

    def op_mul_Tensor(self, node, a, b):
        return self.w.binary("mul", self._operand(a), self._operand(b))

    def op_mul_Scalar(self, node, a, s):
        return self.w.scale(a, float(s))

    def op_div_Scalar(self, node, a, s):
        return self.w.scale(a, 1.0 / float(s))

    def op_div_Tensor(self, node, a, b):
        return self.w.binary("mul", self._operand(a),
                             self.w.unary("reciprocal", self._operand(b)))

    def op_neg(self, node, x):
        return self.w.negate(x)

    def op_relu(self, node, x):
        return self.w.clamp(x, 0.0, 3.4028234663852886e38)

    def op_threshold_backward(self, node, grad, x, threshold):
        cond = self.w.binary("greater", x, self._scalar(threshold), dtype="i1")
        return self.w.select(cond, grad, self._scalar(0.0))

    def op_sigmoid(self, node, x):
        return self.w.unary("sigmoid", x)

    def op_sigmoid_backward(self, node, grad, out):
        """grad * out * (1 - out), from the saved output."""
        slope = self.w.binary("mul", out, self.w.binary("sub", self._scalar(1.0), out))
        return self.w.binary("mul", grad, slope)

    def op_tanh(self, node, x):
        return self.w.unary("tanh", x)

    def op_tanh_backward(self, node, grad, out):
        """grad * (1 - out^2), from the saved output."""
        slope = self.w.binary("sub", self._scalar(1.0), self.w.binary("mul", out, out))
        return self.w.binary("mul", grad, slope)

    # Contractions -------------------------------------------------------------
    def op_mm(self, node, a, b):
        return self.w.matmul(a, b)

    def op_bmm(self, node, a, b):
        return self.w.matmul(a, b)

    def op_addmm(self, node, bias, a, b, beta=1, alpha=1):
        out = self.w.matmul(a, b)
        if alpha != 1:
            out = self.w.scale(out, alpha)
        if beta != 1:
            bias = self.w.scale(bias, beta)
        return self.w.binary("add", out, bias)

    # Embeddings, normalization, GELU -------------------------------------------
    def op_embedding(self, node, weight, indices, *rest):
        # Ids outside the table are clamped to it (PyTorch raises): a gather
        # must never read outside the weight, whatever the data holds.
        count = int(math.prod(indices.shape))
        flat = self.w.clamp(self.w.reshape(indices, (1, count)), 0, weight.shape[0] - 1)
        rows = self.w.gather(self.w.reshape(weight, (1,) + weight.shape), flat)
        return self.w.reshape(rows, _shape(node))

    def op_embedding_dense_backward(self, node, grad, indices, num_weights,
                                    padding_idx=-1, scale_grad_by_freq=False):
        """grad_weight = onehot(ids)^T @ grad: a matmul instead of a
        scatter-add, which TOSA lacks; exact, since each product is 0 or 1
        times a gradient."""
        if scale_grad_by_freq:
            raise UnsupportedOp("aten.embedding_dense_backward with scale_grad_by_freq "
                                f"(in module '{self.module_name}')")
        count = int(math.prod(indices.shape))
        ids = self.w.clamp(self.w.reshape(indices, (count, 1)), 0, num_weights - 1)
        # The padding row gets no gradient: no id matches -1.
        rows = [-1 if i == padding_idx else i for i in range(num_weights)]
        table = self.w.dense(rows, (1, num_weights), "i32")
        onehot = self.w.select(self.w.binary("equal", ids, table, dtype="i1"),
                               self._scalar(1.0), self._scalar(0.0))
        columns = grad.shape[-1]
        return self.w.matmul(self.w.transpose(onehot, [1, 0]),
                             self.w.reshape(grad, (count, columns)))

    def _layer_dims(self, x, normalized_shape):
        return list(range(len(x.shape) - len(normalized_shape), len(x.shape)))

    def op_native_layer_norm(self, node, x, normalized_shape, weight, bias, eps):
        dims = self._layer_dims(x, normalized_shape)
        count = int(math.prod(normalized_shape))
        mean = self.w.scale(self.w.reduce("sum", x, dims, True), 1.0 / count)
        centered = self.w.binary("sub", x, mean)
        var = self.w.scale(self.w.reduce("sum", self.w.binary("mul", centered, centered),
                                         dims, True), 1.0 / count)
        rstd = self.w.unary("rsqrt", self.w.binary("add", var, self._scalar(eps)))
        out = self.w.binary("mul", centered, rstd)
        if weight is not None:
            out = self.w.binary("mul", out, weight)
        if bias is not None:
            out = self.w.binary("add", out, bias)
        shapes = [tuple(m.shape) for m in node.meta["val"]] if "val" in node.meta else None
        mean_shape = shapes[1] if shapes else mean.shape
        return [out, self.w.reshape(mean, mean_shape), self.w.reshape(rstd, mean_shape)]

    def op_native_layer_norm_backward(self, node, grad, x, normalized_shape, mean,
                                      rstd, weight, bias, mask):
        dims = self._layer_dims(x, normalized_shape)
        batch_dims = list(range(len(x.shape) - len(normalized_shape)))
        count = int(math.prod(normalized_shape))
        keep = tuple(x.shape[:len(batch_dims)]) + (1,) * len(normalized_shape)
        mean, rstd = self.w.reshape(mean, keep), self.w.reshape(rstd, keep)
        xhat = self.w.binary("mul", self.w.binary("sub", x, mean), rstd)
        g = self.w.binary("mul", grad, weight) if weight is not None else grad
        mean_g = self.w.scale(self.w.reduce("sum", g, dims, True), 1.0 / count)
        mean_gx = self.w.scale(self.w.reduce("sum", self.w.binary("mul", g, xhat), dims,
                                             True), 1.0 / count)
        grad_in = self.w.binary("mul", rstd, self.w.binary(
            "sub", self.w.binary("sub", g, mean_g), self.w.binary("mul", xhat, mean_gx)))
        grad_w = self.w.reduce("sum", self.w.binary("mul", grad, xhat), batch_dims, False)
        grad_b = self.w.reduce("sum", grad, batch_dims, False)
        return [grad_in if mask[0] else None, grad_w if mask[1] else None,
                grad_b if mask[2] else None]

    def _erf_term(self, x):
        return self.w.unary("erf", self.w.scale(x, 1.0 / math.sqrt(2.0)))

    def op_gelu(self, node, x, approximate="none"):
        if approximate != "none":
            raise UnsupportedOp(f"aten.gelu with approximate='{approximate}' (in module "
                                f"'{self.module_name}'): only the exact GELU is supported")
        cdf = self.w.scale(self.w.binary("add", self._erf_term(x), self._scalar(1.0)), 0.5)
        return self.w.binary("mul", x, cdf)

    def op_gelu_backward(self, node, grad, x, approximate="none"):
        cdf = self.w.scale(self.w.binary("add", self._erf_term(x), self._scalar(1.0)), 0.5)
        pdf = self.w.scale(self.w.unary("exp", self.w.scale(self.w.binary("mul", x, x), -0.5)),
                           1.0 / math.sqrt(2.0 * math.pi))
        return self.w.binary("mul", grad, self.w.binary("add", cdf,
                                                        self.w.binary("mul", x, pdf)))

    # Convolutions and pooling (NCHW in PyTorch, NHWC in TOSA) -------------------
    # Max pooling routes each window's gradient to its maximum; where two
    # values of a window differ by a rounding (our convolution sums in
    # another order than PyTorch's), the two sides may pick different
    # elements, so a max-pool CNN matches PyTorch only up to such flips.
    # Average pooling has no such choice.
    NCHW_TO_NHWC = [0, 2, 3, 1]
    NHWC_TO_NCHW = [0, 3, 1, 2]

    def _check_conv(self, stride, padding, dilation, transposed, groups, backward):
        if transposed or groups != 1 or list(dilation) != [1, 1]:
            raise UnsupportedOp(
                f"aten.convolution{'_backward' if backward else ''} with groups, "
                f"dilation or transposition (in module '{self.module_name}'): only "
                "plain 2-D convolutions are supported")
        if backward and list(stride) != [1, 1]:
            raise UnsupportedOp(
                f"aten.convolution_backward with stride {list(stride)} (in module "
                f"'{self.module_name}'): only stride 1 is supported")

    def op_convolution(self, node, x, w, bias, stride, padding, dilation, transposed,
                       output_padding, groups):
        self._check_conv(stride, padding, dilation, transposed, groups, False)
        if len(x.shape) != 4:
            raise UnsupportedOp(f"aten.convolution on rank {len(x.shape)} (in module "
                                f"'{self.module_name}'): only 2-D is supported")
        if bias is None:
            bias = self.w.reshape(self.w.const(0.0, (w.shape[0],)), (w.shape[0],))
        pad = (padding[0], padding[0], padding[1], padding[1])
        out = self.w.conv2d(self.w.transpose(x, self.NCHW_TO_NHWC),
                            self.w.transpose(w, self.NCHW_TO_NHWC), bias, pad, stride)
        return self.w.transpose(out, self.NHWC_TO_NCHW)

    def op_convolution_backward(self, node, grad, x, w, bias_sizes, stride, padding,
                                dilation, transposed, output_padding, groups, mask):
        self._check_conv(stride, padding, dilation, transposed, groups, True)
        o, i, kh, kw = w.shape
        ph, pw = padding
        grad_nhwc = self.w.transpose(grad, self.NCHW_TO_NHWC)  # [N, H', W', O]
        grad_x = grad_w = grad_b = None
        if mask[0]:
            # Full correlation of the gradient with the flipped kernel.
            flipped = self.w.reverse(self.w.reverse(w, 2), 3)          # [O, I, kh, kw]
            weight = self.w.transpose(flipped, [1, 2, 3, 0])             # [I, kh, kw, O]
            zero = self.w.reshape(self.w.const(0.0, (i,)), (i,))
            pad = (kh - 1 - ph, kh - 1 - ph, kw - 1 - pw, kw - 1 - pw)
            grad_x = self.w.transpose(self.w.conv2d(grad_nhwc, weight, zero, pad),
                                      self.NHWC_TO_NCHW)
        if mask[1]:
            # Input channels as the batch, the batch as channels.
            source = self.w.transpose(x, [1, 2, 3, 0])                   # [I, H, W, N]
            kernel = self.w.transpose(grad, [1, 2, 3, 0])                # [O, H', W', N]
            zero = self.w.reshape(self.w.const(0.0, (o,)), (o,))
            out = self.w.conv2d(source, kernel, zero, (ph, ph, pw, pw))  # [I, kh, kw, O]
            grad_w = self.w.transpose(out, [3, 0, 1, 2])
        if mask[2]:
            grad_b = self.w.reduce("sum", grad, [0, 2, 3], False)
        return [grad_x, grad_w, grad_b]

    def _pool_args(self, kernel, stride, padding, dilation, ceil_mode):
        stride = list(stride) or list(kernel)
        if (list(padding or [0, 0]) != [0, 0] or list(dilation or [1, 1]) != [1, 1]
                or ceil_mode or stride != list(kernel)):
            raise UnsupportedOp(
                f"aten.max_pool2d with padding, dilation, ceil_mode or a stride other "
                f"than the kernel (in module '{self.module_name}')")
        return list(kernel)

    def op_max_pool2d_with_indices(self, node, x, kernel, stride=(), padding=(0, 0),
                                   dilation=(1, 1), ceil_mode=False):
        kernel = self._pool_args(kernel, stride, padding, dilation, ceil_mode)
        out = self.w.transpose(self.w.max_pool2d(self.w.transpose(x, self.NCHW_TO_NHWC),
                                                 kernel, kernel), self.NHWC_TO_NCHW)
        # No indices: the backward finds the maxima again from the input.
        return [out, out]

    def _upsample(self, x, kernel):
        n, c, h, w = x.shape
        six = self.w.reshape(x, (n, c, h, 1, w, 1))
        tiled = self.w.tile(six, (n, c, h, kernel[0], w, kernel[1]))
        return self.w.reshape(tiled, (n, c, h * kernel[0], w * kernel[1]))

    def op_avg_pool2d(self, node, x, kernel, stride=(), padding=(0, 0), ceil_mode=False,
                      count_include_pad=True, divisor_override=None):
        kernel = self._pool_args(kernel, stride, padding, (1, 1), ceil_mode)
        if divisor_override:
            raise UnsupportedOp(f"aten.avg_pool2d with divisor_override (in module "
                                f"'{self.module_name}')")
        out = self.w.avg_pool2d(self.w.transpose(x, self.NCHW_TO_NHWC), kernel)
        return self.w.transpose(out, self.NHWC_TO_NCHW)

    def op_avg_pool2d_backward(self, node, grad, x, kernel, stride, padding, ceil_mode,
                               count_include_pad, divisor_override):
        kernel = self._pool_args(kernel, stride, padding, (1, 1), ceil_mode)
        return self.w.scale(self._upsample(grad, kernel), 1.0 / (kernel[0] * kernel[1]))

    def op_max_pool2d_with_indices_backward(self, node, grad, x, kernel, stride, padding,
                                            dilation, ceil_mode, indices):
        kernel = self._pool_args(kernel, stride, padding, dilation, ceil_mode)
        pooled = self.w.transpose(self.w.max_pool2d(self.w.transpose(x, self.NCHW_TO_NHWC),
                                                    kernel, kernel), self.NHWC_TO_NCHW)
        is_max = self.w.binary("equal", x, self._upsample(pooled, kernel), dtype="i1")
        return self.w.select(is_max, self._upsample(grad, kernel), self._scalar(0.0))

    # Reductions and softmax -----------------------------------------------------
    def op_sum_dim_IntList(self, node, x, dims, keepdim=False, *rest):
        return self.w.reduce("sum", x, dims, keepdim)

    def op_sum(self, node, x, *rest):
        return self.w.reduce("sum", x, list(range(len(x.shape))), False)

    def op_mean(self, node, x, *rest):
        count = 1
        for d in x.shape:
            count *= d
        return self.w.scale(self.op_sum(node, x), 1.0 / count)

    def op_mean_dim(self, node, x, dims, keepdim=False, *rest):
        count = 1
        for d in dims:
            count *= x.shape[d]
        return self.w.scale(self.w.reduce("sum", x, dims, keepdim), 1.0 / count)

    def op__log_softmax(self, node, x, dim, half_to_float=False):
        m = self.w.reduce("max", x, [dim], True)
        z = self.w.binary("sub", x, m)
        s = self.w.reduce("sum", self.w.unary("exp", z), [dim], True)
        return self.w.binary("sub", z, self.w.unary("log", s))

    def op__log_softmax_backward_data(self, node, grad, output, dim, *rest):
        total = self.w.reduce("sum", grad, [dim], True)
        return self.w.binary("sub", grad,
                             self.w.binary("mul", self.w.unary("exp", output), total))

    def op__softmax(self, node, x, dim, half_to_float=False):
        m = self.w.reduce("max", x, [dim], True)
        e = self.w.unary("exp", self.w.binary("sub", x, m))
        s = self.w.reduce("sum", e, [dim], True)
        return self.w.binary("mul", e, self.w.unary("reciprocal", s))

    def op__softmax_backward_data(self, node, grad, output, dim, *rest):
        gy = self.w.binary("mul", grad, output)
        total = self.w.reduce("sum", gy, [dim], True)
        return self.w.binary("sub", gy, self.w.binary("mul", output, total))


class _Functional:
    """`model` as a function of its parameters and buffers. Buffers are
    traced as inputs (torch 2.x's fake-tensor tracing refuses real tensors
    held by the module) and written as constants: their values are known at
    export and a training step does not change them."""

    def __init__(self, model):
        try:
            from torch.func import functional_call
        except ImportError:  # torch 1.13
            from torch.nn.utils.stateless import functional_call
        self.model = model
        self.call = functional_call
        self.names = [n for n, _ in model.named_parameters()]
        self.buffer_names = [n for n, _ in model.named_buffers()]
        self.buffers = [b.detach().clone() for _, b in model.named_buffers()]

    def __call__(self, params, buffers, x):
        tensors = dict(zip(self.names, params))
        tensors.update(zip(self.buffer_names, buffers))
        return self.call(self.model, tensors, (x,))

    def split(self, args):
        """(params, buffers, rest) of a flat argument list."""
        n, b = len(self.names), len(self.buffers)
        return args[:n], args[n:n + b], args[n + b:]


def _aot_graphs(fn, args, backward=True):
    """The forward (and backward) aten graphs AOTAutograd traces for fn(*args)."""
    from functorch.compile import aot_function, make_boxed_func

    graphs = {}

    def capture(kind):
        def compiler(gm, inputs):
            graphs[kind] = gm
            return make_boxed_func(gm.forward)
        return compiler

    if backward:
        aot_function(fn, capture("forward"), capture("backward"))(*args).backward()
        return graphs["forward"], graphs["backward"]
    with torch.no_grad():
        aot_function(fn, capture("forward"))(*args)
    return graphs["forward"]


def _trace(model, loss_fn, x, y):
    """The forward and backward aten graphs of loss_fn(model(x), y)."""
    f = _Functional(model)
    params = [p.detach().clone().requires_grad_() for _, p in model.named_parameters()]

    def step(*args):
        ps, bs, (xs, ys) = f.split(args)
        return loss_fn(f(ps, bs, xs), ys)

    fw, bw = _aot_graphs(step, params + f.buffers + [x, y])
    return f, params, fw, bw


def _optimizer_update(w, optimizer, params, grads, state, lr_value=None):
    """Appends the update; returns (new params, new state values). With
    `lr_value` (a rank-0 input) the learning rate comes from it."""
    kind = optimizer["kind"]
    lr = optimizer.get("lr", 1e-3)

    def times_lr(x):
        return w.binary("mul", x, lr_value) if lr_value is not None else w.scale(x, lr)

    wd = optimizer.get("weight_decay", 0.0)
    new_params, new_state = [], []
    if kind == "sgd":
        momentum = optimizer.get("momentum", 0.0)
        for i, (p, g) in enumerate(zip(params, grads)):
            if wd:
                g = w.binary("add", g, w.scale(p, wd))
            if momentum:
                buf = w.binary("add", w.scale(state[i], momentum), g)
                new_state.append(buf)
                g = buf
            new_params.append(w.binary("sub", p, times_lr(g)))
        return new_params, new_state
    if kind in ("adam", "adamw"):
        b1, b2 = optimizer.get("betas", (0.9, 0.999))
        eps = optimizer.get("eps", 1e-8)
        n = len(params)
        step = w.binary("add", state[2 * n], w.const(1.0, (1,)))
        one = w.const(1.0, (1,))
        bc1 = w.binary("sub", one, w.binary("pow", w.const(b1, (1,)), step))
        bc2 = w.binary("sub", one, w.binary("pow", w.const(b2, (1,)), step))
        step_size = times_lr(w.unary("reciprocal", bc1))
        sqrt_bc2 = w.binary("pow", bc2, w.const(0.5, (1,)))
        moments, squares = [], []
        for i, (p, g) in enumerate(zip(params, grads)):
            if kind == "adam" and wd:
                g = w.binary("add", g, w.scale(p, wd))
            if kind == "adamw" and wd:
                p = (w.binary("sub", p, times_lr(w.scale(p, wd))) if lr_value is not None
                     else w.scale(p, 1.0 - lr * wd))
            m = w.binary("add", w.scale(state[i], b1), w.scale(g, 1.0 - b1))
            v = w.binary("add", w.scale(state[n + i], b2),
                         w.scale(w.binary("mul", g, g), 1.0 - b2))
            denom = w.binary("add", w.binary("mul", w.binary("pow", v, w.const(0.5, (1,))),
                                             w.unary("reciprocal", sqrt_bc2)),
                             w.const(eps, (1,)))
            update = w.binary("mul", w.binary("mul", m, w.unary("reciprocal", denom)),
                              step_size)
            new_params.append(w.binary("sub", p, update))
            moments.append(m)
            squares.append(v)
        return new_params, moments + squares + [step]
    raise ValueError(f"unknown optimizer kind '{kind}' (sgd, adam, adamw)")


def optimizer_spec(optimizer):
    """Reads a torch.optim optimizer's kind and hyperparameters."""
    group = optimizer.param_groups[0]
    name = type(optimizer).__name__.lower()
    if name not in ("sgd", "adam", "adamw"):
        raise ValueError(f"optimizer {type(optimizer).__name__} is not supported "
                         "(SGD, Adam, AdamW)")
    if len(optimizer.param_groups) != 1:
        raise ValueError("only one parameter group is supported")
    if name == "sgd" and (group.get("nesterov") or group.get("dampening")):
        raise ValueError("SGD with nesterov or dampening is not supported")
    if name in ("adam", "adamw") and group.get("amsgrad"):
        raise ValueError("amsgrad is not supported")
    return {"kind": name, **{k: group[k] for k in
                             ("lr", "momentum", "weight_decay", "betas", "eps")
                             if k in group}}


def state_shapes(optimizer, param_shapes):
    kind = optimizer["kind"]
    if kind == "sgd":
        return list(param_shapes) if optimizer.get("momentum") else []
    return list(param_shapes) * 2 + [(1,)]


@_locating_unsupported_ops
def export_predict(model, x, name="predict"):
    """MLIR text of the inference function predict(x, params...) -> output,
    params in the training step's order, for amp-train's test accuracy."""
    f = _Functional(model)
    params = [p.detach().clone() for _, p in model.named_parameters()]

    def forward(*args):
        ps, bs, (xs,) = f.split(args)
        return f(ps, bs, xs)

    gm = _aot_graphs(forward, params + f.buffers + [x], backward=False)
    ShapeProp(gm).propagate(*params, *f.buffers, x)
    w = Writer()
    emitter = _Emitter(w, type(model).__name__)
    x_v = Value("%x", x.shape, _dtype(x))
    p_vals = [Value(f"%p{i}", tuple(p.shape)) for i, p in enumerate(params)]
    b_vals = [emitter.constant(b) for b in f.buffers]
    out = emitter.run(gm, p_vals + b_vals + [x_v])[0]
    args = [f"%x: {x_v.type}"] + [f"%p{i}: {v.type} {{amp.param}}"
                                   for i, v in enumerate(p_vals)]
    return "\n".join([f"func.func @{name}({', '.join(args)}) -> {out.type} {{", w.text(),
                      f"  return {out.name} : {out.type}", "}", ""])


@_locating_unsupported_ops
def export_training_step(model, loss_fn, optimizer, x, y, name="train_step",
                         lr_input=False):
    """MLIR text of one training step of `model` (a torch.nn.Module), with
    `loss_fn(model(x), y)` and `optimizer` (a torch.optim instance or a spec
    dict), for example inputs x and y. With `lr_input`, the learning rate is
    a third data argument `%lr: tensor<f32>` instead of a constant."""
    spec = optimizer if isinstance(optimizer, dict) else optimizer_spec(optimizer)
    f, params, fw, bw = _trace(model, loss_fn, x, y)
    names = f.names
    ShapeProp(fw).propagate(*params, *f.buffers, x, y)
    w = Writer()
    x_v, y_v = Value("%x", x.shape, _dtype(x)), Value("%y", y.shape)
    p_vals = [Value(f"%p{i}", tuple(p.shape)) for i, p in enumerate(params)]
    shapes = state_shapes(spec, [tuple(p.shape) for p in params])
    s_vals = [Value(f"%s{i}", s) for i, s in enumerate(shapes)]
    module_name = type(model).__name__
    emitter = _Emitter(w, module_name)
    b_vals = [emitter.constant(b) for b in f.buffers]
    fw_out = emitter.run(fw, p_vals + b_vals + [x_v, y_v])
    loss, saved = fw_out[0], fw_out[1:]
    if loss.shape not in ((), (1,)):
        raise ValueError(f"the loss must be a scalar, got shape {loss.shape}")
    seed = w.fresh(loss.shape)
    w.emit(f"{seed.name} = amp.loss_grad {loss.name} : {loss.type}")
    fw_results = fw(*params, *f.buffers, x, y)
    ShapeProp(bw).propagate(*[t.detach() if isinstance(t, torch.Tensor) else t
                              for t in fw_results[1:]], torch.ones(()))
    grads = emitter.run(bw, saved + [seed])[:len(params)]
    first = 3 if lr_input else 2  # index of the first param argument
    lr_value = Value("%lr", ()) if lr_input else None
    marked = []
    for i, g in enumerate(grads):
        if g is None:
            raise ValueError(f"parameter '{names[i]}' gets no gradient")
        out = w.fresh(g.shape)
        w.emit(f"{out.name} = amp.grad {g.name} {{param = {i + first} : i64}} : {g.type}")
        marked.append(out)
    new_params, new_state = _optimizer_update(w, spec, p_vals, marked, s_vals, lr_value)

    arg_text = [f"%x: {x_v.type}", f"%y: {y_v.type}"]
    if lr_input:
        arg_text.append(f"%lr: {lr_value.type}")
    arg_text += [f"%p{i}: {v.type} {{amp.param}}" for i, v in enumerate(p_vals)]
    arg_text += [f"%s{i}: {v.type} {{amp.state}}" for i, v in enumerate(s_vals)]
    results = [(loss, "{amp.loss}")]
    results += [(v, f"{{amp.update_of = {i + first} : i64}}")
                for i, v in enumerate(new_params)]
    results += [(v, f"{{amp.update_of = {i + first + len(p_vals)} : i64}}")
                for i, v in enumerate(new_state)]
    header = (f"// {module_name} training step exported by amp_mlir from PyTorch "
              f"{torch.__version__}\n// params: {', '.join(names)}\n"
              f"func.func @{name}({', '.join(arg_text)})\n    -> ("
              + ", ".join(f"{v.type} {a}" for v, a in results) + ") {")
    ret = ("  return " + ", ".join(v.name for v, _ in results) + " : "
           + ", ".join(v.type for v, _ in results))
    return "\n".join([header, w.text(), ret, "}", ""])
