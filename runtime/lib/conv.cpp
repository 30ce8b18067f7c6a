//===- conv.cpp - the convolutions compiled CPU steps call (oneDNN) -------===//
//
// amp-contractions-to-runtime-calls turns every linalg.conv_2d_nhwc_fhwc of
// a CPU step (forward and both backward convolutions alike) into a call of
//   _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_{f32,f16,bf16}(in, filter, out,
//       stride_h, stride_w, dilation_h, dilation_w)
// with output += conv(input, filter), f32 accumulation (amprt_conv.def).
//
// oneDNN's convolution runs f32 and bf16 natively; f16 is widened to f32
// first (Debian's oneDNN 2.6 has no f16 convolution on the CPU). Input and
// output are read and written in place through their strides (NHWC); the
// filter is reordered into the layout the primitive chose, because the
// plain F x KH x KW x C layout only has oneDNN's reference kernel. A
// primitive is made once per shape and layout and kept for the process.
//
//===----------------------------------------------------------------------===//

#include "amprt_gemm.h"
#include "float_convert.h"
#include "onednn.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace {

using amprt::cpuEngine;
using dnnl::memory;

/// The view oneDNN takes of an NHWC-ordered memref: dimensions (N, C, H, W)
/// with the memref's strides.
template <typename T>
memory::desc describeNHWC(const StridedMemRef<T, 4> *ref,
                          memory::data_type type) {
  return memory::desc(
      {ref->sizes[0], ref->sizes[3], ref->sizes[1], ref->sizes[2]}, type,
      {ref->strides[0], ref->strides[3], ref->strides[1], ref->strides[2]});
}

struct ConvPlan {
  bool supported = false; // false where oneDNN has no implementation
  dnnl::convolution_forward primitive;
  memory::desc input, userFilter, filter, output;
  bool reorderFilter = false;
  dnnl::reorder filterReorder;
  memory filterScratch; // the filter in the primitive's layout
};

template <typename T>
void appendKey(std::vector<int64_t> &key, const StridedMemRef<T, 4> *ref) {
  key.insert(key.end(), ref->sizes, ref->sizes + 4);
  key.insert(key.end(), ref->strides, ref->strides + 4);
}

template <typename T>
ConvPlan &
lookupPlan(const StridedMemRef<T, 4> *input, const StridedMemRef<T, 4> *filter,
           const StridedMemRef<float, 4> *output, memory::data_type type,
           const int64_t strides[2], const int64_t dilations[2]) {
  static std::mutex mutex;
  static std::map<std::vector<int64_t>, std::unique_ptr<ConvPlan>> plans;
  std::vector<int64_t> key = {static_cast<int64_t>(type), strides[0],
                              strides[1], dilations[0], dilations[1]};
  appendKey(key, input);
  appendKey(key, filter);
  appendKey(key, output);
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ConvPlan> &plan = plans[key];
  if (plan)
    return *plan;
  auto made = std::make_unique<ConvPlan>();
  try {
    made->input = describeNHWC(input, type);
    made->output = describeNHWC(output, memory::data_type::f32);
    // F x KH x KW x C as (O, I, H, W).
    made->userFilter = describeNHWC(filter, type);
    memory::desc anyFilter({filter->sizes[0], filter->sizes[3],
                            filter->sizes[1], filter->sizes[2]},
                           type, memory::format_tag::any);
    dnnl::post_ops accumulate;
    accumulate.append_sum(1.0f);
    dnnl::primitive_attr attributes;
    attributes.set_post_ops(accumulate);
    // oneDNN counts dilation from 0 (no gaps), linalg from 1.
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        made->input, anyFilter, made->output, {strides[0], strides[1]},
        {dilations[0] - 1, dilations[1] - 1}, {0, 0}, {0, 0});
    dnnl::convolution_forward::primitive_desc pd(desc, attributes, cpuEngine());
    made->primitive = dnnl::convolution_forward(pd);
    made->filter = pd.weights_desc();
    made->reorderFilter = made->filter != made->userFilter;
    if (made->reorderFilter) {
      made->filterScratch = memory(made->filter, cpuEngine());
      made->filterReorder = dnnl::reorder(dnnl::reorder::primitive_desc(
          cpuEngine(), made->userFilter, cpuEngine(), made->filter));
    }
    made->supported = true;
  } catch (const dnnl::error &) {
    made = std::make_unique<ConvPlan>();
  }
  plan = std::move(made);
  return *plan;
}

float widen(float value) { return value; }
float widen(uint16_t value) { return amprt::bfloat16ToFloat(value); }

/// output += conv(input, filter) by loops: what runs where oneDNN refuses
/// (uint16_t is bf16 here; f16 is widened before it gets this far).
template <typename T>
void referenceConvolution(const StridedMemRef<T, 4> *in,
                          const StridedMemRef<T, 4> *w,
                          StridedMemRef<float, 4> *out,
                          const int64_t strides[2],
                          const int64_t dilations[2]) {
  const T *x = in->aligned + in->offset, *f = w->aligned + w->offset;
  float *y = out->aligned + out->offset;
  for (int64_t n = 0; n < out->sizes[0]; ++n)
    for (int64_t oh = 0; oh < out->sizes[1]; ++oh)
      for (int64_t ow = 0; ow < out->sizes[2]; ++ow)
        for (int64_t o = 0; o < out->sizes[3]; ++o) {
          float sum = 0.0f;
          for (int64_t kh = 0; kh < w->sizes[1]; ++kh)
            for (int64_t kw = 0; kw < w->sizes[2]; ++kw)
              for (int64_t c = 0; c < w->sizes[3]; ++c) {
                int64_t h = oh * strides[0] + kh * dilations[0];
                int64_t v = ow * strides[1] + kw * dilations[1];
                sum += widen(x[n * in->strides[0] + h * in->strides[1] +
                               v * in->strides[2] + c * in->strides[3]]) *
                       widen(f[o * w->strides[0] + kh * w->strides[1] +
                               kw * w->strides[2] + c * w->strides[3]]);
              }
          y[n * out->strides[0] + oh * out->strides[1] + ow * out->strides[2] +
            o * out->strides[3]] += sum;
        }
}

template <typename T>
void convolve(StridedMemRef<T, 4> *input, StridedMemRef<T, 4> *filter,
              StridedMemRef<float, 4> *output, memory::data_type type,
              int64_t strideH, int64_t strideW, int64_t dilationH,
              int64_t dilationW) {
  for (int d = 0; d < 4; ++d)
    if (output->sizes[d] == 0)
      return;
  const int64_t strides[2] = {strideH, strideW};
  const int64_t dilations[2] = {dilationH, dilationW};
  ConvPlan &plan = lookupPlan(input, filter, output, type, strides, dilations);
  if (!plan.supported) {
    referenceConvolution(input, filter, output, strides, dilations);
    return;
  }
  dnnl::engine &engine = cpuEngine();
  dnnl::stream &stream = amprt::cpuStream();
  memory in(plan.input, engine, input->aligned + input->offset);
  memory userFilter(plan.userFilter, engine, filter->aligned + filter->offset);
  memory out(plan.output, engine, output->aligned + output->offset);
  memory weights = userFilter;
  if (plan.reorderFilter) {
    plan.filterReorder.execute(stream, userFilter, plan.filterScratch);
    weights = plan.filterScratch;
  }
  plan.primitive.execute(
      stream,
      {{DNNL_ARG_SRC, in}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, out}});
  stream.wait();
}

/// A dense f32 copy of an f16 operand that keeps its memory order (the
/// dimension with the largest stride outermost): oneDNN's fast kernels
/// want input and output in the same physical layout (both NCHW or both
/// NHWC), and the f32 output is left where the step put it.
StridedMemRef<float, 4> widenHalf(const StridedMemRef<uint16_t, 4> *ref,
                                  std::vector<float> &storage) {
  int order[4] = {0, 1, 2, 3};
  std::stable_sort(order, order + 4, [&](int a, int b) {
    return ref->strides[a] > ref->strides[b];
  });
  StridedMemRef<float, 4> wide;
  int64_t count = 1;
  for (int i = 3; i >= 0; --i) {
    wide.sizes[order[i]] = ref->sizes[order[i]];
    wide.strides[order[i]] = count;
    count *= ref->sizes[order[i]];
  }
  storage.resize(static_cast<size_t>(count));
  const uint16_t *base = ref->aligned + ref->offset;
  float *out = storage.data();
  const int64_t *sizes = ref->sizes, *strides = ref->strides;
  for (int64_t a = 0; a < sizes[order[0]]; ++a)
    for (int64_t b = 0; b < sizes[order[1]]; ++b)
      for (int64_t c = 0; c < sizes[order[2]]; ++c, out += sizes[order[3]])
        amprt::widenRow(base + a * strides[order[0]] + b * strides[order[1]] +
                            c * strides[order[2]],
                        strides[order[3]], sizes[order[3]], out,
                        amprt::halfToFloat);
  wide.allocated = wide.aligned = storage.data();
  wide.offset = 0;
  return wide;
}

/// Group `g` of a grouped operand (N x G x C x H x W, or G x F x C x KH x
/// KW for the filter when `groupDim` is 0) as the NHWC-ordered view the
/// plain convolution takes: N x H x W x C (F x KH x KW x C).
template <typename T>
StridedMemRef<T, 4> groupView(const StridedMemRef<T, 5> *ref, int groupDim,
                              int64_t g) {
  const int order[4] = {groupDim == 0 ? 1 : 0, 3, 4, 2};
  StridedMemRef<T, 4> view;
  view.allocated = ref->allocated;
  view.aligned = ref->aligned;
  view.offset = ref->offset + g * ref->strides[groupDim];
  for (int d = 0; d < 4; ++d) {
    view.sizes[d] = ref->sizes[order[d]];
    view.strides[d] = ref->strides[order[d]];
  }
  return view;
}

/// G independent convolutions, each through the plain one.
template <typename T, typename Plain>
void convolveGroups(StridedMemRef<T, 5> *input, StridedMemRef<T, 5> *filter,
                    StridedMemRef<float, 5> *output, Plain plain,
                    const int64_t args[4]) {
  for (int64_t g = 0; g < input->sizes[1]; ++g) {
    StridedMemRef<T, 4> in = groupView(input, 1, g);
    StridedMemRef<T, 4> weights = groupView(filter, 0, g);
    StridedMemRef<float, 4> out = groupView(output, 1, g);
    plain(&in, &weights, &out, args[0], args[1], args[2], args[3]);
  }
}

} // namespace

extern "C" {

void _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_f32(
    StridedMemRef<float, 4> *input, StridedMemRef<float, 4> *filter,
    StridedMemRef<float, 4> *output, int64_t stride_h, int64_t stride_w,
    int64_t dilation_h, int64_t dilation_w) {
  convolve(input, filter, output, memory::data_type::f32, stride_h, stride_w,
           dilation_h, dilation_w);
}

void _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_bf16(
    StridedMemRef<uint16_t, 4> *input, StridedMemRef<uint16_t, 4> *filter,
    StridedMemRef<float, 4> *output, int64_t stride_h, int64_t stride_w,
    int64_t dilation_h, int64_t dilation_w) {
  convolve(input, filter, output, memory::data_type::bf16, stride_h, stride_w,
           dilation_h, dilation_w);
}

void _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_f16(
    StridedMemRef<uint16_t, 4> *input, StridedMemRef<uint16_t, 4> *filter,
    StridedMemRef<float, 4> *output, int64_t stride_h, int64_t stride_w,
    int64_t dilation_h, int64_t dilation_w) {
  thread_local std::vector<float> wideInput, wideFilter;
  StridedMemRef<float, 4> in = widenHalf(input, wideInput);
  StridedMemRef<float, 4> weights = widenHalf(filter, wideFilter);
  convolve(&in, &weights, output, memory::data_type::f32, stride_h, stride_w,
           dilation_h, dilation_w);
}

} // extern "C"

extern "C" {

#define AMPRT_GROUPED(TYPE, C_TYPE)                                            \
  void _mlir_ciface_amp_rt_conv2d_ngchw_gfchw_##TYPE(                          \
      StridedMemRef<C_TYPE, 5> *input, StridedMemRef<C_TYPE, 5> *filter,       \
      StridedMemRef<float, 5> *output, int64_t stride_h, int64_t stride_w,     \
      int64_t dilation_h, int64_t dilation_w) {                                \
    const int64_t args[4] = {stride_h, stride_w, dilation_h, dilation_w};      \
    convolveGroups(input, filter, output,                                      \
                   _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_##TYPE, args);         \
  }
AMPRT_GROUPED(f32, float)
AMPRT_GROUPED(f16, uint16_t)
AMPRT_GROUPED(bf16, uint16_t)
#undef AMPRT_GROUPED

} // extern "C"
