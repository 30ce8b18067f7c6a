"""A small writer of TOSA text (MLIR 22 syntax) with fresh SSA names.

Shapes are Python tuples; every value is an f32 tensor unless said
otherwise. Binary ops broadcast by rank as TOSA requires (the lower-rank
operand is reshaped with leading 1s first).
"""


def _float(value):
    """An MLIR float literal: always with a '.', infinities as bits."""
    value = float(value)
    if value in (float("inf"), float("-inf")):
        return "0x7F800000" if value > 0 else "0xFF800000"
    return "%.9e" % value


def ttype(shape, dtype="f32"):
    dims = "x".join(str(d) for d in shape)
    return f"tensor<{dims}x{dtype}>" if shape else f"tensor<{dtype}>"


class Value:
    def __init__(self, name, shape, dtype="f32"):
        self.name, self.shape, self.dtype = name, tuple(shape), dtype

    @property
    def type(self):
        return ttype(self.shape, self.dtype)


class Writer:
    def __init__(self):
        self.lines = []
        self.count = 0
        self.consts = {}

    def fresh(self, shape, dtype="f32"):
        self.count += 1
        return Value(f"%v{self.count}", shape, dtype)

    def emit(self, text):
        self.lines.append("  " + text)

    # Constants ------------------------------------------------------------
    def const(self, value, shape=(1,), dtype="f32"):
        key = (value, tuple(shape), dtype)
        if key not in self.consts:
            out = self.fresh(shape, dtype)
            literal = _float(value) if dtype == "f32" else str(int(value))
            self.emit(f'{out.name} = "tosa.const"() <{{values = dense<{literal}> : '
                      f'{out.type}}}> : () -> {out.type}')
            self.consts[key] = out
        return self.consts[key]

    def shape_const(self, dims):
        out = self.fresh((), "shape")
        values = ", ".join(str(d) for d in dims) if dims else ""
        rank = len(dims)
        self.emit(f"{out.name} = tosa.const_shape {{values = dense<[{values}]> : "
                  f"tensor<{rank}xindex>}} : () -> !tosa.shape<{rank}>")
        return out, rank

    def dense(self, values, shape, dtype):
        """A constant with explicit values (row-major)."""
        out = self.fresh(shape, dtype)
        if dtype == "f32":
            literal = ", ".join(_float(v) for v in values)
        else:
            literal = ", ".join(str(int(v)) for v in values)
        self.emit(f'{out.name} = "tosa.const"() <{{values = dense<[{literal}]> : '
                  f'{ttype((len(values),), dtype)}}}> : () -> {ttype((len(values),), dtype)}')
        out.shape = (len(values),)
        return self.reshape(out, shape)

    # Shape ops ------------------------------------------------------------
    def reshape(self, x, shape):
        shape = tuple(shape)
        if shape == x.shape:
            return x
        s, rank = self.shape_const(shape)
        out = self.fresh(shape, x.dtype)
        self.emit(f"{out.name} = tosa.reshape {x.name}, {s.name} : "
                  f"({x.type}, !tosa.shape<{rank}>) -> {out.type}")
        return out

    def transpose(self, x, perms):
        shape = tuple(x.shape[p] for p in perms)
        out = self.fresh(shape, x.dtype)
        self.emit(f"{out.name} = tosa.transpose {x.name} {{perms = array<i32: "
                  f"{', '.join(str(p) for p in perms)}>}} : ({x.type}) -> {out.type}")
        return out

    def slice(self, x, start, size):
        st, rank = self.shape_const(start)
        sz, _ = self.shape_const(size)
        out = self.fresh(size, x.dtype)
        self.emit(f"{out.name} = tosa.slice {x.name}, {st.name}, {sz.name} : "
                  f"({x.type}, !tosa.shape<{rank}>, !tosa.shape<{rank}>) -> {out.type}")
        return out

    def concat(self, values, axis):
        shape = list(values[0].shape)
        shape[axis] = sum(v.shape[axis] for v in values)
        out = self.fresh(shape, values[0].dtype)
        self.emit(f"{out.name} = tosa.concat {', '.join(v.name for v in values)} "
                  f"{{axis = {axis} : i32}} : ({', '.join(v.type for v in values)}) "
                  f"-> {out.type}")
        return out

    def gather(self, values, indices):
        """values [N, K, C], indices [N, W] (i32) -> [N, W, C]."""
        shape = (values.shape[0], indices.shape[1], values.shape[2])
        out = self.fresh(shape)
        self.emit(f"{out.name} = tosa.gather {values.name}, {indices.name} : "
                  f"({values.type}, {indices.type}) -> {out.type}")
        return out

    def tile(self, x, shape):
        x = self.reshape(x, (1,) * (len(shape) - len(x.shape)) + x.shape)
        multiples = [t // s for t, s in zip(shape, x.shape)]
        if all(m == 1 for m in multiples):
            return x
        s, rank = self.shape_const(multiples)
        out = self.fresh(shape, x.dtype)
        self.emit(f"{out.name} = tosa.tile {x.name}, {s.name} : "
                  f"({x.type}, !tosa.shape<{rank}>) -> {out.type}")
        return out

    # Elementwise ------------------------------------------------------------
    def _same_rank(self, a, b):
        rank = max(len(a.shape), len(b.shape))
        a = self.reshape(a, (1,) * (rank - len(a.shape)) + a.shape)
        b = self.reshape(b, (1,) * (rank - len(b.shape)) + b.shape)
        shape = tuple(max(x, y) for x, y in zip(a.shape, b.shape))
        return a, b, shape

    def binary(self, op, a, b, dtype=None):
        a, b, shape = self._same_rank(a, b)
        out = self.fresh(shape, dtype or a.dtype)
        extra = ""
        types = f"{a.type}, {b.type}"
        if op == "mul":
            shift = self.const(0, (1,), "i8")
            extra = f", {shift.name}"
            types += ", tensor<1xi8>"
        self.emit(f"{out.name} = tosa.{op} {a.name}, {b.name}{extra} : ({types}) -> {out.type}")
        return out

    def unary(self, op, x):
        out = self.fresh(x.shape, x.dtype)
        self.emit(f"{out.name} = tosa.{op} {x.name} : ({x.type}) -> {out.type}")
        return out

    def negate(self, x):
        zp = self.const(0.0)
        out = self.fresh(x.shape)
        self.emit(f"{out.name} = tosa.negate {x.name}, {zp.name}, {zp.name} : "
                  f"({x.type}, tensor<1xf32>, tensor<1xf32>) -> {out.type}")
        return out

    def scale(self, x, factor):
        return self.binary("mul", x, self.const(factor, (1,) * max(len(x.shape), 1))
                           if x.shape else self.reshape(self.const(factor), ()))

    def clamp(self, x, low, high):
        if x.dtype != "f32":  # TOSA's profiles allow an i32 clamp only as min/max
            bound = (1,) * len(x.shape)
            return self.binary("minimum",
                               self.binary("maximum", x, self.const(low, bound, x.dtype)),
                               self.const(high, bound, x.dtype))
        out = self.fresh(x.shape)
        self.emit(f"{out.name} = tosa.clamp {x.name} {{min_val = {_float(low)} : f32, "
                  f"max_val = {_float(high)} : f32}} : ({x.type}) -> {out.type}")
        return out

    def select(self, cond, a, b):
        rank = max(len(cond.shape), len(a.shape), len(b.shape))
        cond, a, b = (self.reshape(v, (1,) * (rank - len(v.shape)) + v.shape)
                      for v in (cond, a, b))
        shape = tuple(max(dims) for dims in zip(cond.shape, a.shape, b.shape))
        out = self.fresh(shape)
        self.emit(f"{out.name} = tosa.select {cond.name}, {a.name}, {b.name} : "
                  f"({cond.type}, {a.type}, {b.type}) -> {out.type}")
        return out

    # Reductions -------------------------------------------------------------
    def reduce(self, op, x, dims, keepdim):
        out = x
        for d in sorted(d % len(x.shape) for d in dims):
            shape = list(out.shape)
            shape[d] = 1
            r = self.fresh(shape)
            self.emit(f"{r.name} = tosa.reduce_{op} {out.name} {{axis = {d} : i32}} : "
                      f"({out.type}) -> {r.type}")
            out = r
        if not keepdim:
            dropped = {d % len(x.shape) for d in dims}
            out = self.reshape(out, [s for i, s in enumerate(x.shape) if i not in dropped])
        return out

    # Contractions -------------------------------------------------------------
    def matmul(self, a, b):
        """a [.., M, K] x b [.., K, N] for rank 2 or 3 (batch first)."""
        batched = len(a.shape) == 3
        a3 = a if batched else self.reshape(a, (1,) + a.shape)
        b3 = b if batched else self.reshape(b, (1,) + b.shape)
        zp = self.const(0.0)
        shape = (a3.shape[0], a3.shape[1], b3.shape[2])
        out = self.fresh(shape)
        self.emit(f"{out.name} = tosa.matmul {a3.name}, {b3.name}, {zp.name}, {zp.name} : "
                  f"({a3.type}, {b3.type}, tensor<1xf32>, tensor<1xf32>) -> {out.type}")
        return out if batched else self.reshape(out, shape[1:])

    def conv2d(self, x, w, bias, pad, stride=(1, 1)):
        """x [N, H, W, C] (NHWC), w [O, kh, kw, C], bias [O]; pad (t, b, l, r)."""
        n, h, wd, _ = x.shape
        o, kh, kw, _ = w.shape
        oh = (h + pad[0] + pad[1] - kh) // stride[0] + 1
        ow = (wd + pad[2] + pad[3] - kw) // stride[1] + 1
        zp = self.const(0.0)
        out = self.fresh((n, oh, ow, o))
        self.emit(f"{out.name} = tosa.conv2d {x.name}, {w.name}, {bias.name}, {zp.name}, "
                  f"{zp.name} {{acc_type = f32, dilation = array<i64: 1, 1>, pad = "
                  f"array<i64: {', '.join(str(p) for p in pad)}>, stride = array<i64: "
                  f"{stride[0]}, {stride[1]}>}} : ({x.type}, {w.type}, {bias.type}, "
                  f"tensor<1xf32>, tensor<1xf32>) -> {out.type}")
        return out

    def max_pool2d(self, x, kernel, stride):
        """x [N, H, W, C]."""
        n, h, w, c = x.shape
        out = self.fresh((n, (h - kernel[0]) // stride[0] + 1,
                          (w - kernel[1]) // stride[1] + 1, c))
        self.emit(f"{out.name} = tosa.max_pool2d {x.name} {{kernel = array<i64: "
                  f"{kernel[0]}, {kernel[1]}>, pad = array<i64: 0, 0, 0, 0>, stride = "
                  f"array<i64: {stride[0]}, {stride[1]}>}} : ({x.type}) -> {out.type}")
        return out

    def avg_pool2d(self, x, kernel):
        """x [N, H, W, C], stride = kernel, f32 accumulation."""
        n, h, w, c = x.shape
        zp = self.const(0.0)
        out = self.fresh((n, h // kernel[0], w // kernel[1], c))
        self.emit(f"{out.name} = tosa.avg_pool2d {x.name}, {zp.name}, {zp.name} {{acc_type = "
                  f"f32, kernel = array<i64: {kernel[0]}, {kernel[1]}>, pad = array<i64: 0, "
                  f"0, 0, 0>, stride = array<i64: {kernel[0]}, {kernel[1]}>}} : ({x.type}, "
                  f"tensor<1xf32>, tensor<1xf32>) -> {out.type}")
        return out

    def reverse(self, x, axis):
        out = self.fresh(x.shape, x.dtype)
        self.emit(f"{out.name} = tosa.reverse {x.name} {{axis = {axis} : i32}} : "
                  f"({x.type}) -> {out.type}")
        return out

    def text(self):
        return "\n".join(self.lines)
