"""Decompositions applied while tracing a step: torch-mlir's own table plus
ours for training ops that torch-mlir lowers to scatters MLIR cannot
compile (`tm_tensor.scatter`, `index_put`). Each is written with ops that
torch-mlir lowers to plain linalg and tensor ops (comparisons with an
iota, selects, matmuls, pads, strided slices), exact in f32: every sum
they form adds the same terms as PyTorch's kernel.
"""
import functools

import torch
import torch.nn.functional as F

aten = torch.ops.aten


def _scatter_value(self, dim, index, value):
    """scatter(self, dim, index, value): a one-hot mask from comparing the
    index with an iota (duplicates write the same value, so a mask is
    exact). Only where `index` covers `self` in every other dimension."""
    dim %= self.dim()
    if any(index.shape[d] != self.shape[d] for d in range(self.dim()) if d != dim):
        return NotImplemented
    positions = torch.arange(self.shape[dim], device=self.device)
    hits = index.movedim(dim, -1).unsqueeze(-1) == positions  # [..., J, P]
    mask = hits.any(-2).movedim(-1, dim)
    return torch.where(mask, torch.as_tensor(value, dtype=self.dtype), self)


def _scatter_add(self, dim, index, src):
    """scatter_add (a gather's backward) as a one-hot contraction: each
    position of `self` along `dim` adds the `src` values whose index names
    it. Only where index, src and self agree in every other dimension."""
    dim %= self.dim()
    if (tuple(index.shape) != tuple(src.shape)
            or any(index.shape[d] != self.shape[d] for d in range(self.dim()) if d != dim)):
        return NotImplemented
    positions = torch.arange(self.shape[dim], device=self.device)
    hits = (index.movedim(dim, -1).unsqueeze(-1) == positions).to(src.dtype)  # [..., J, P]
    added = (src.movedim(dim, -1).unsqueeze(-1) * hits).sum(-2)                # [..., P]
    return self + added.movedim(-1, dim)


def _spread(x, stride, offset, size):
    """x [N, C, L] placed at offset + stride * i along the last dimension of
    a zero tensor of length `size` (zero insertion by pad + reshape; what
    would fall beyond `size` is cut, never padded negatively)."""
    n, c, length = x.shape
    if stride > 1:
        x = F.pad(x.unsqueeze(-1), (0, stride - 1)).reshape(n, c, length * stride)
    if x.shape[-1] > size - offset:
        x = x[..., :size - offset]
    return F.pad(x, (offset, size - offset - x.shape[-1]))


def _pair(values, default=None):
    values = list(values) or list(default)
    return values if len(values) == 2 else [values[0]] * 2


def _window_backward(windows, input_shape, kernel, stride, padding, dilation):
    """The gradient of a pooling input from `windows(i, j)`: for kernel
    offset (i, j), what each window [N, C, Ho, Wo] sends to its element at
    that offset. Each offset's part is added into the strided slice of one
    padded accumulator its windows cover (overlapping windows add up, in
    offset order); the padding is cut off at the end. One accumulator and
    one part at a time: a slice read, an add and a slice write in place,
    instead of a zero-spread copy of the whole input per offset."""
    n, c, h, w = input_shape
    (kh, kw), (sh, sw), (ph, pw), (dh, dw) = kernel, stride, padding, dilation
    total = None
    for i in range(kh):
        for j in range(kw):
            part = windows(i, j)
            ho, wo = part.shape[-2:]
            if total is None:
                height = max((ho - 1) * sh + (kh - 1) * dh + 1, ph + h)
                width = max((wo - 1) * sw + (kw - 1) * dw + 1, pw + w)
                total = torch.zeros((n, c, height, width), dtype=part.dtype)
            top, left = i * dh, j * dw
            bottom, right = top + (ho - 1) * sh + 1, left + (wo - 1) * sw + 1
            rows = total[:, :, top:bottom:sh, :]
            added = rows[:, :, :, left:right:sw] + part
            rows = torch.slice_scatter(rows, added, 3, left, right, sw)
            total = torch.slice_scatter(total, rows, 2, top, bottom, sh)
    return total[:, :, ph:ph + h, pw:pw + w].contiguous()


def _max_pool2d_with_indices_backward(grad, self, kernel_size, stride, padding, dilation,
                                      ceil_mode, indices):
    """Each window's gradient goes to the input element its index names
    (a select on index == that element's position)."""
    if self.dim() != 4:
        return NotImplemented
    kernel = _pair(kernel_size)
    stride, padding, dilation = _pair(stride, kernel), _pair(padding), _pair(dilation)
    ho, wo = grad.shape[-2:]
    width = self.shape[-1]
    rows = torch.arange(ho).unsqueeze(1) * stride[0] - padding[0]
    cols = torch.arange(wo).unsqueeze(0) * stride[1] - padding[1]
    zero = torch.zeros((), dtype=grad.dtype)

    def windows(i, j):
        position = (rows + i * dilation[0]) * width + (cols + j * dilation[1])
        return torch.where(indices == position, grad, zero)
    return _window_backward(windows, self.shape, kernel, stride, padding, dilation)


def _avg_pool2d_backward(grad, self, kernel_size, stride, padding, ceil_mode,
                         count_include_pad, divisor_override):
    """Each window's gradient divided by its divisor goes to every element
    of the window (padding included: it is cropped away)."""
    if self.dim() != 4:
        return NotImplemented
    kernel = _pair(kernel_size)
    stride, padding = _pair(stride, kernel), _pair(padding)
    h, w = self.shape[-2:]
    ho, wo = grad.shape[-2:]
    if divisor_override:
        share = grad / divisor_override
    else:
        # PyTorch's divisor per window: its extent clipped to the padded
        # input, or, without count_include_pad, to the input itself.
        def extent(count, size, k, s, p):
            start = torch.arange(count) * s - p
            end = torch.clamp(start + k, max=size + p)
            if not count_include_pad:
                start, end = torch.clamp(start, min=0), torch.clamp(end, max=size)
            return (end - start).to(grad.dtype)
        divisor = (extent(ho, h, kernel[0], stride[0], padding[0]).unsqueeze(1)
                   * extent(wo, w, kernel[1], stride[1], padding[1]).unsqueeze(0))
        share = grad / divisor
    return _window_backward(lambda i, j: share, self.shape, kernel, stride, padding, [1, 1])


def _embedding_dense_backward(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """grad_weight = onehot(ids)^T @ grad: a matmul instead of a
    scatter-add; exact, since each product is 0 or 1 times a gradient."""
    if scale_grad_by_freq:
        return NotImplemented
    rows = torch.arange(num_weights)
    onehot = indices.reshape(-1, 1) == rows
    if padding_idx is not None and padding_idx >= 0:
        onehot = onehot & (rows != padding_idx)
    columns = grad.shape[-1]
    return onehot.to(grad.dtype).t() @ grad.reshape(-1, columns)


def _convolution_backward(grad, input, weight, bias_sizes, stride, padding, dilation,
                          transposed, output_padding, groups, output_mask):
    """2-D convolution backward as forward convolutions. torch-mlir's own
    lowering builds invalid reshapes for grouped convolutions and, for a
    strided one, computes the weight gradient as a convolution grouped by
    the batch; ours gives every convolution of a step one of two forms
    (plain or grouped), both library kernels on the CPU:
    - input gradient: the gradient, zero-inserted to the stride, correlated
      with the flipped kernel whose in/out channels are swapped per group;
    - weight gradient: the input correlated with the gradient, batch and
      channels swapped, stride and dilation swapped, groups kept."""
    if transposed or input.dim() != 4:
        return NotImplemented
    n, channels, h, w = input.shape
    out_channels, per_group, kh, kw = weight.shape
    _, _, ho, wo = grad.shape
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    if ph > dh * (kh - 1) or pw > dw * (kw - 1):
        return NotImplemented
    grad_input = grad_weight = grad_bias = None
    if output_mask[0]:
        spread = grad
        if sh > 1 or sw > 1:
            rows = _spread(grad.reshape(n, out_channels * ho, wo), sw, 0, (wo - 1) * sw + 1)
            rows = rows.reshape(n, out_channels, ho, -1).transpose(2, 3)
            cols = _spread(rows.reshape(n, -1, ho), sh, 0, (ho - 1) * sh + 1)
            spread = cols.reshape(n, out_channels, -1, (ho - 1) * sh + 1).transpose(2, 3)
        top, left = dh * (kh - 1) - ph, dw * (kw - 1) - pw
        bottom = h - (spread.shape[2] + top - dh * (kh - 1))
        right = w - (spread.shape[3] + left - dw * (kw - 1))
        if bottom < 0 or right < 0:  # rows/columns no output position reads
            spread = spread[:, :, :spread.shape[2] + min(bottom, 0), :spread.shape[3] + min(right, 0)]
        spread = F.pad(spread, (left, max(right, 0), top, max(bottom, 0)))
        flipped = weight.flip(2, 3).reshape(groups, out_channels // groups, per_group, kh, kw)
        flipped = flipped.transpose(1, 2).reshape(channels, out_channels // groups, kh, kw)
        grad_input = F.conv2d(spread, flipped, None, 1, 0, (dh, dw), groups)
    if output_mask[1]:
        source = input.reshape(n, groups, per_group, h, w).permute(2, 1, 0, 3, 4)
        source = source.reshape(per_group, groups * n, h, w)
        kernel = grad.reshape(n, groups, out_channels // groups, ho, wo).permute(1, 2, 0, 3, 4)
        kernel = kernel.reshape(out_channels, n, ho, wo)
        out = F.conv2d(source, kernel, None, (dh, dw), (ph, pw), (sh, sw), groups)
        grad_weight = out[:, :, :kh, :kw].transpose(0, 1).contiguous()
    if output_mask[2]:
        grad_bias = grad.sum((0, 2, 3))
    return grad_input, grad_weight, grad_bias


def _index_put(self, indices, values, accumulate=False):
    """self[index] += values (an index's backward: Swin's relative
    position bias, any gather by a tensor of positions) as a one-hot
    matmul: each row of `self` adds the rows of `values` whose index names
    it; exact, each product is 0 or 1 times a value. Only one index tensor,
    on the first dimension, and only accumulating: without accumulate,
    duplicate positions have no defined winner."""
    if (not accumulate or len(indices) != 1 or indices[0] is None
            or indices[0].dtype == torch.bool or self.dim() == 0):
        return NotImplemented
    index = indices[0]
    rows = self.shape[0]
    index = torch.where(index < 0, index + rows, index).reshape(-1, 1)
    onehot = (index == torch.arange(rows)).to(self.dtype)  # [K, rows]
    tail = tuple(self.shape[1:])
    values = values.to(self.dtype).expand(tuple(indices[0].shape) + tail)
    added = onehot.t() @ values.reshape(index.shape[0], -1)
    return self + added.reshape(self.shape)


def _interpolation_matrix(input_size, output_size, align_corners, scale):
    """[output, input]: the weights bilinear interpolation gives each input
    element in each output element along one dimension, computed as
    PyTorch's CPU kernel does (in f32: the source index scale * (i + 0.5)
    - 0.5 clamped at 0, or scale * i with corners aligned; the two
    neighbours weighted by the fraction)."""
    def f32(value):
        return torch.full((), value, dtype=torch.float32)
    if align_corners:
        ratio = f32(input_size - 1) / (output_size - 1) if output_size > 1 else f32(0.0)
    elif scale is not None and scale > 0:
        ratio = f32(1.0 / scale)
    else:
        ratio = f32(input_size) / output_size
    positions = torch.arange(output_size, dtype=torch.float32)
    if align_corners:
        source = ratio * positions
    else:
        source = torch.clamp(ratio * (positions + 0.5) - 0.5, min=0.0)
    first = source.to(torch.int64)
    second = first + (first < input_size - 1).to(torch.int64)
    weight = source - first.to(torch.float32)
    columns = torch.arange(input_size)
    return ((1.0 - weight).unsqueeze(1) * (first.unsqueeze(1) == columns)
            + weight.unsqueeze(1) * (second.unsqueeze(1) == columns))


def _bilinear_matrices(input_hw, output_hw, align_corners, scales_h, scales_w, dtype):
    (h, w), (ho, wo) = input_hw, output_hw
    return (_interpolation_matrix(h, ho, align_corners, scales_h).to(dtype),
            _interpolation_matrix(w, wo, align_corners, scales_w).to(dtype))


def _upsample_bilinear2d(self, output_size, align_corners, scales_h=None, scales_w=None):
    """Bilinear resizing is linear: rows(H) @ input @ columns(W)^T, two
    matmuls with constant interpolation matrices (torch-mlir lowers
    neither this op nor its backward to linalg; timm's MobileViT,
    segmentation heads). The same four products per output as PyTorch's
    kernel, summed in another order."""
    if self.dim() != 4:
        return NotImplemented
    rows, columns = _bilinear_matrices(self.shape[-2:], output_size, align_corners,
                                       scales_h, scales_w, self.dtype)
    return (rows @ self @ columns.t()).contiguous()


def _upsample_bilinear2d_backward(grad, output_size, input_size, align_corners,
                                  scales_h=None, scales_w=None):
    """The input's gradient of the above: rows^T @ grad @ columns."""
    rows, columns = _bilinear_matrices(input_size[-2:], output_size, align_corners,
                                       scales_h, scales_w, grad.dtype)
    return (rows.t() @ grad @ columns).contiguous()


def _cumsum(self, dim, dtype=None):
    """Inclusive prefix sum as log2(n) shifted adds (Hillis-Steele):
    torch-mlir lowers cumsum to tm_tensor.scan. Exact for integers (masks,
    position ids); for floats the same terms in a tree order."""
    x = self if dtype is None else self.to(dtype)
    if x.dim() == 0:
        return x.clone()
    dim %= x.dim()
    x = x.movedim(dim, -1)
    length, shift = x.shape[-1], 1
    while shift < length:
        x = x + F.pad(x[..., :length - shift], (shift, 0))
        shift *= 2
    return x.movedim(-1, dim).contiguous()


_OURS = {
    aten.scatter_add.default: _scatter_add,
    aten.cumsum.default: _cumsum,
    aten.convolution_backward.default: _convolution_backward,
    aten.scatter.value: _scatter_value,
    aten.max_pool2d_with_indices_backward.default: _max_pool2d_with_indices_backward,
    aten.avg_pool2d_backward.default: _avg_pool2d_backward,
    aten.embedding_dense_backward.default: _embedding_dense_backward,
    aten.index_put.default: _index_put,
    aten.upsample_bilinear2d.default: _upsample_bilinear2d,
    aten.upsample_bilinear2d_backward.default: _upsample_bilinear2d_backward,
}


# Batch norm in training mode updates its running statistics in place, but
# aten.native_batch_norm's schema does not say so: functionalization would
# keep the op and drop the update. PyTorch's own decomposition writes the
# update as a copy_; traced before functionalization (mutation_table), that
# copy_ becomes an output.
_MUTATING = [aten.native_batch_norm.default, aten._native_batch_norm_legit.default,
             aten._native_batch_norm_legit.no_stats, aten.cudnn_batch_norm.default]


@functools.lru_cache(maxsize=None)
def _table():
    from torch._decomp import get_decompositions
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table
    table = dict(get_decomposition_table())
    table.update(_OURS)
    return table


def decomposition_table():
    """Every decomposition of a functionalized trace."""
    return dict(_table())


def mutation_table():
    """Decompositions of ops that mutate their inputs without saying so,
    for a first trace before functionalization."""
    from torch._decomp import get_decompositions
    return get_decompositions(_MUTATING)
