"""Our decompositions (python/amp_mlir/decompositions.py) against the aten
ops they replace, run eagerly on random data over the configurations
real models use. They add the same terms in another order, so they match
to f32 rounding: every result within 1e-5 relative (measured <= 1e-6)."""
import itertools
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "python"))

import torch

from amp_mlir import decompositions as d

aten = torch.ops.aten
torch.manual_seed(0)
BOUND = 1e-5
failed = 0


def check(what, ours, theirs):
    global failed
    pairs = [(a, b) for a, b in zip(ours, theirs) if b is not None]
    worst = max(float((a - b).abs().max() / b.abs().max().clamp(min=1e-30)) for a, b in pairs)
    ok = worst <= BOUND
    failed += not ok
    print(f"{what}: {worst:.1e} {'PASS' if ok else 'FAIL'}")


# Grouped and depthwise convolution backward: strides, padding, dilation.
for groups, cin, cout, k, stride, pad, dil in [
        (4, 4, 4, 3, 1, 1, 1), (4, 4, 4, 3, 2, 1, 1), (8, 8, 8, 7, 1, 3, 1),
        (2, 4, 8, 3, 1, 1, 1), (2, 8, 4, 3, 2, 0, 1), (4, 8, 8, 3, 1, 2, 2),
        (16, 16, 16, 5, 2, 2, 1), (4, 8, 16, 1, 1, 0, 1),
        (1, 3, 8, 7, 2, 3, 1), (1, 8, 16, 3, 2, 1, 1), (1, 8, 8, 3, 1, 1, 1),
        (1, 8, 16, 1, 2, 0, 1), (1, 4, 4, 3, 1, 2, 2)]:
    x = torch.randn(2, cin, 11, 11)
    w = torch.randn(cout, cin // groups, k, k)
    out = aten.convolution(x, w, None, [stride] * 2, [pad] * 2, [dil] * 2, False, [0, 0], groups)
    g = torch.randn_like(out)
    args = (g, x, w, [cout], [stride] * 2, [pad] * 2, [dil] * 2, False, [0, 0], groups,
            [True, True, True])
    check(f"convolution_backward groups={groups} {cin}->{cout} k={k} s={stride} p={pad} "
          f"d={dil}", d._convolution_backward(*args), aten.convolution_backward(*args))

# Max pooling backward: ResNet's padded 3x3/2, overlapping and plain windows.
for k, stride, pad, ceil in [(3, 2, 1, False), (2, 2, 0, False), (3, 1, 1, False),
                             (3, 2, 0, True)]:
    x = torch.randn(2, 3, 9, 9)
    out, indices = aten.max_pool2d_with_indices(x, [k, k], [stride] * 2, [pad] * 2, [1, 1], ceil)
    g = torch.randn_like(out)
    args = (g, x, [k, k], [stride] * 2, [pad] * 2, [1, 1], ceil, indices)
    check(f"max_pool2d_with_indices_backward k={k} s={stride} p={pad} ceil={ceil}",
          [d._max_pool2d_with_indices_backward(*args)],
          [aten.max_pool2d_with_indices_backward(*args)])

# Average pooling backward, with and without padding counted.
for k, stride, pad, ceil, include in itertools.product([2, 3], [1, 2], [0, 1], [False, True],
                                                       [True, False]):
    if pad > k // 2:
        continue
    x = torch.randn(2, 3, 9, 9)
    out = aten.avg_pool2d(x, [k, k], [stride] * 2, [pad] * 2, ceil, include)
    g = torch.randn_like(out)
    args = (g, x, [k, k], [stride] * 2, [pad] * 2, ceil, include, None)
    check(f"avg_pool2d_backward k={k} s={stride} p={pad} ceil={ceil} count_pad={include}",
          [d._avg_pool2d_backward(*args)], [aten.avg_pool2d_backward(*args)])

# Embedding backward (with a padding row) and one-hot scatter.
ids = torch.randint(0, 10, (4, 6))
g = torch.randn(4, 6, 5)
for padding_idx in (-1, 3):
    args = (g, ids, 10, padding_idx, False)
    check(f"embedding_dense_backward padding_idx={padding_idx}",
          [d._embedding_dense_backward(*args)], [aten.embedding_dense_backward(*args)])
for dim, dtype in ((1, torch.int64), (0, torch.float32), (-1, torch.float32)):
    values = torch.randint(0, 3, (4, 9)) if dtype == torch.int64 else torch.randn(4, 9)
    check(f"cumsum dim={dim} {dtype}", [d._cumsum(values, dim).double()],
          [aten.cumsum(values, dim).double()])
base = torch.randn(5, 7)
index = torch.randint(0, 7, (5, 1))
check("scatter.value dim=1", [d._scatter_value(base, 1, index, -1.0)],
      [aten.scatter.value(base, 1, index, -1.0)])
for dim, width in ((1, 1), (1, 3), (0, 2)):
    base = torch.randn(5, 7)
    index = torch.randint(0, base.shape[dim], (5, width) if dim == 1 else (width, 7))
    src = torch.randn(index.shape)
    check(f"scatter_add dim={dim} width={width}", [d._scatter_add(base, dim, index, src)],
          [aten.scatter_add(base, dim, index, src)])
# index_put with accumulation (an index's backward): duplicate and
# negative positions, a 1-D target, values broadcast over the index.
for shape, index_shape, value_shape in (((49, 4), (256,), (256, 4)), ((7,), (3, 5), (3, 5)),
                                        ((6, 2, 3), (4,), (3,)), ((5, 3), (2, 2), (2, 2, 3))):
    base = torch.randn(shape)
    index = torch.randint(-shape[0], shape[0], index_shape)
    values = torch.randn(value_shape)
    check(f"index_put accumulate {tuple(shape)}[{tuple(index_shape)}]",
          [d._index_put(base, [index], values, True)],
          [aten.index_put(base, [index], values, True)])
# Bilinear upsampling backward: up and down, integer and fractional
# factors, corners aligned or not, scales given or sizes only.
for size, out, corners, scales in (((5, 7), (10, 14), False, (2.0, 2.0)),
                                   ((5, 7), (10, 14), True, (None, None)),
                                   ((6, 6), (9, 15), False, (None, None)),
                                   ((8, 9), (4, 3), False, (0.5, None)),
                                   ((4, 4), (7, 7), True, (1.75, 1.75)),
                                   ((1, 3), (4, 1), False, (None, None))):
    x = torch.randn(2, 3, *size)
    g = torch.randn(2, 3, *out)
    args = (g, list(out), [2, 3, *size], corners, *scales)
    check(f"upsample_bilinear2d_backward {size}->{out} align_corners={corners} scales={scales}",
          [d._upsample_bilinear2d_backward(*args)], [aten.upsample_bilinear2d_backward(*args)])
    args = (x, list(out), corners, *scales)
    check(f"upsample_bilinear2d {size}->{out} align_corners={corners} scales={scales}",
          [d._upsample_bilinear2d(*args)], [aten.upsample_bilinear2d(*args)])
sys.exit(1 if failed else 0)
