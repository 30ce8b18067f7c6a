//===- conv.cpp - the convolutions compiled CPU steps call (oneDNN) -------===//
//
// amp-contractions-to-runtime-calls turns every linalg.conv_2d_nhwc_fhwc of
// a CPU step (forward and both backward convolutions alike) into a call of
//   _mlir_ciface_amp_rt_conv2d_nhwc_fhwc_{f32,f16,bf16}(in, filter, out,
//       stride_h, stride_w, dilation_h, dilation_w,
//       pad_top, pad_left, pad_bottom, pad_right)
// with output += conv(zero-padded input, filter), f32 accumulation, or of
// its `_overwrite_` twin, output = conv(...), where the output held zeros
// (amprt_conv.def), or of a `_reversed_` one, whose filter taps are read in
// reverse order (a data gradient: torch-mlir convolves with a spatially
// flipped copy of the weights, which the compiler leaves out). A reversed
// filter is a view with negative H and W strides here; with stride 1 it is
// oneDNN's backward-data convolution of the stored weights, otherwise it is
// copied in order first. Padding given here instead of in a padded copy lets
// oneDNN skip the taps that only see zeros; filter taps and output
// positions that see nothing but padding are cut off before oneDNN sees
// the convolution (on 1x1 feature maps a 3x3 convolution is a 1x1 one).
//
// oneDNN's convolution runs f32, and bf16 where the CPU has AVX-512,
// natively; f16 (Debian's oneDNN 2.6 has no f16 convolution on the CPU) and
// bf16 on AVX2-only CPUs are widened to f32 first, into copies in the
// operands' own memory order. Input and output are read and
// written in place through their strides where oneDNN has a direct kernel
// for them (NHWC); the filter is reordered into the layout the primitive
// chose, because the plain layouts only have oneDNN's reference kernel.
// Where the step's layouts only have im2col+GEMM (NCHW-strided views), all
// three operands go through the blocked layouts of a direct kernel
// (AMPRT_CONV_LAYOUT=plain turns that off). A grouped convolution is one
// grouped oneDNN primitive (its depthwise kernels) when the groups and
// channels of input and output merge into one channel dimension, else one
// convolution per group. A primitive is made once per shape and layout and
// kept for the process.
//
//===----------------------------------------------------------------------===//

#include "amprt_gemm.h"
#include "float_convert.h"
#include "onednn.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using amprt::cpuEngine;
using dnnl::memory;

/// A convolution as oneDNN takes it: input and output (N, C, H, W), the
/// filter (O, I, KH, KW) or, grouped, (G, O, I, KH, KW); dims and strides
/// in elements. Negative KH and KW strides: the taps reversed.
struct ConvShape {
  memory::dims inputDims, inputStrides;
  memory::dims filterDims, filterStrides;
  memory::dims outputDims, outputStrides;
};

/// Strides, dilations (linalg's: 1 is dense), the implicit zero padding
/// before and after the input (H, W each), as a call passes them, and
/// whether the output is added to or overwritten.
struct ConvParams {
  int64_t strides[2], dilations[2], padLow[2], padHigh[2];
  bool accumulate;
};

/// Zeros in every element of an output (N, C, H, W) of any strides,
/// walked in memory order: one memset where the elements are dense.
void zeroOutput(const memory::dims &dims, const memory::dims &strides,
                float *output) {
  int order[4] = {0, 1, 2, 3};
  std::stable_sort(order, order + 4,
                   [&](int a, int b) { return strides[a] > strides[b]; });
  int64_t dense = 1;
  bool contiguous = true;
  for (int i = 3; i >= 0; --i) {
    if (dims[order[i]] != 1 && strides[order[i]] != dense)
      contiguous = false;
    dense *= dims[order[i]];
  }
  if (contiguous) {
    std::memset(output, 0, static_cast<size_t>(dense) * sizeof(float));
    return;
  }
  const int64_t *size = dims.data(), *step = strides.data();
  for (int64_t a = 0; a < size[order[0]]; ++a)
    for (int64_t b = 0; b < size[order[1]]; ++b)
      for (int64_t c = 0; c < size[order[2]]; ++c) {
        float *row = output + a * step[order[0]] + b * step[order[1]] +
                     c * step[order[2]];
        for (int64_t d = 0; d < size[order[3]]; ++d)
          row[d * step[order[3]]] = 0.0f;
      }
}

/// `params` with the padding after the input, then the input itself (in
/// `shape`), cut to what the output reads: linalg lets a convolution's
/// input extend past its last window, oneDNN does not.
void trimUnreadInput(ConvShape &shape, ConvParams &params) {
  size_t filterRank = shape.filterDims.size();
  for (int i = 0; i < 2; ++i) {
    int64_t window = (shape.filterDims[filterRank - 2 + i] - 1) *
                         params.dilations[i] +
                     1;
    int64_t read = (shape.outputDims[2 + i] - 1) * params.strides[i] + window;
    int64_t excess = shape.inputDims[2 + i] + params.padLow[i] +
                     params.padHigh[i] - read;
    if (excess <= 0)
      continue;
    int64_t fromPadding = std::min(excess, params.padHigh[i]);
    params.padHigh[i] -= fromPadding;
    shape.inputDims[2 + i] -= excess - fromPadding;
  }
}

/// Whether any of output positions [yBegin, yEnd) of spatial dimension
/// `dim`, through any of filter taps [tapBegin, tapEnd), reads the input
/// rather than its zero padding.
bool readsInput(const ConvShape &shape, const ConvParams &params, int dim,
                int64_t yBegin, int64_t yEnd, int64_t tapBegin,
                int64_t tapEnd) {
  for (int64_t y = yBegin; y < yEnd; ++y)
    for (int64_t tap = tapBegin; tap < tapEnd; ++tap) {
      int64_t row = y * params.strides[dim] + tap * params.dilations[dim] -
                    params.padLow[dim];
      if (row >= 0 && row < shape.inputDims[2 + dim])
        return true;
    }
  return false;
}

/// How many of positions [0, count) at the front (`lead`) and at the back
/// (`trail`) are not `used`; false where none is.
template <typename Used>
bool unusedEnds(int64_t count, Used used, int64_t &lead, int64_t &trail) {
  lead = trail = 0;
  while (lead < count && !used(lead))
    ++lead;
  if (lead == count)
    return false;
  while (!used(count - 1 - trail))
    ++trail;
  return true;
}

/// `shape` and `params` without the filter taps that meet only padding at
/// every output position and the output positions that meet only padding
/// through every tap: both add zeros to an output that accumulates. The
/// pointers move past what is dropped in front. Small images make these
/// common: a 3x3 convolution, or its weight gradient, on 1x1 feature maps
/// (ResNet-18 on 32x32 images) does 9x the work that reaches the output.
/// False where nothing reaches the output at all.
bool skipPaddingOnlyWork(ConvShape &shape, ConvParams &params,
                         int64_t elementBytes, unsigned char *&input,
                         unsigned char *&filter, float *&output) {
  size_t filterRank = shape.filterDims.size();
  for (int i = 0; i < 2; ++i) {
    int64_t &taps = shape.filterDims[filterRank - 2 + i];
    int64_t &rows = shape.outputDims[2 + i];
    auto tapUsed = [&](int64_t tap) {
      return readsInput(shape, params, i, 0, rows, tap, tap + 1);
    };
    auto rowUsed = [&](int64_t y) {
      return readsInput(shape, params, i, y, y + 1, 0, taps);
    };
    int64_t lead, trail;
    if (!unusedEnds(taps, tapUsed, lead, trail))
      return false;
    filter += lead * shape.filterStrides[filterRank - 2 + i] * elementBytes;
    params.padLow[i] -= lead * params.dilations[i];
    taps -= lead + trail;
    if (!unusedEnds(rows, rowUsed, lead, trail))
      return false;
    output += lead * shape.outputStrides[2 + i];
    params.padLow[i] -= lead * params.strides[i];
    rows -= lead + trail;
    // Input rows before the first one read.
    if (params.padLow[i] < 0) {
      input += -params.padLow[i] * shape.inputStrides[2 + i] * elementBytes;
      shape.inputDims[2 + i] += params.padLow[i];
      params.padLow[i] = 0;
    }
    int64_t read = (rows - 1) * params.strides[i] +
                   (taps - 1) * params.dilations[i] + 1;
    params.padHigh[i] = std::max<int64_t>(
        0, read - params.padLow[i] - shape.inputDims[2 + i]);
  }
  return true;
}

/// The shape of a plain convolution on NHWC-ordered memrefs (input N x H x
/// W x C, filter F x KH x KW x C, output N x OH x OW x F).
template <typename T>
ConvShape describePlain(const StridedMemRef<T, 4> *input,
                        const StridedMemRef<T, 4> *filter,
                        const StridedMemRef<float, 4> *output) {
  auto nchw = [](const int64_t *values) {
    return memory::dims{values[0], values[3], values[1], values[2]};
  };
  return {nchw(input->sizes),  nchw(input->strides),  nchw(filter->sizes),
          nchw(filter->strides), nchw(output->sizes), nchw(output->strides)};
}

/// Dimensions 1 and 2 (groups, channels) of a 5-D memref as one channel
/// dimension of (N, G*C, H, W), when its strides allow it.
template <typename T>
bool mergeGroups(const StridedMemRef<T, 5> *ref, memory::dims &dims,
                 memory::dims &strides) {
  const int64_t *sizes = ref->sizes, *step = ref->strides;
  int64_t channelStride;
  if (sizes[2] == 1)
    channelStride = step[1];
  else if (sizes[1] == 1 || step[1] == sizes[2] * step[2])
    channelStride = step[2];
  else
    return false;
  dims = {sizes[0], sizes[1] * sizes[2], sizes[3], sizes[4]};
  strides = {step[0], channelStride, step[3], step[4]};
  return true;
}

/// The shape of a grouped convolution (input N x G x C x H x W, filter G x
/// F x C x KH x KW, output N x G x F x OH x OW) as one oneDNN grouped
/// convolution, if the memrefs' strides allow it.
template <typename T>
std::optional<ConvShape> describeGrouped(const StridedMemRef<T, 5> *input,
                                         const StridedMemRef<T, 5> *filter,
                                         const StridedMemRef<float, 5> *output) {
  ConvShape shape;
  if (!mergeGroups(input, shape.inputDims, shape.inputStrides) ||
      !mergeGroups(output, shape.outputDims, shape.outputStrides))
    return std::nullopt;
  shape.filterDims.assign(filter->sizes, filter->sizes + 5);
  shape.filterStrides.assign(filter->strides, filter->strides + 5);
  return shape;
}

struct ConvPlan {
  bool supported = false; // false where oneDNN has no implementation
  dnnl::primitive primitive;
  // A forward convolution reads SRC and writes DST; a backward-data one
  // (reversed taps) reads DIFF_DST and writes DIFF_SRC, and takes the
  // filter from its first stored element, `filterOrigin` elements from the
  // reversed view's first tap.
  int inputArg = DNNL_ARG_SRC, outputArg = DNNL_ARG_DST;
  int64_t filterOrigin = 0;
  memory::desc input, userFilter, filter, output;
  bool reorderFilter = false;
  dnnl::reorder filterReorder; // into the primitive's layout, in scratch
  // Blocked plans: input and output in the layouts the primitive chose,
  // reordered in, and out with accumulation into the step's output.
  bool blocked = false;
  memory::desc userInput, userOutput;
  dnnl::reorder inputReorder, outputReorder;
};

/// Where reordered operands live while one convolution runs: one buffer
/// per operand and thread, grown to the largest convolution, so that a
/// step's dozens of convolution shapes share it instead of each keeping
/// its own copies (ResNet-18: 130 MB).
class ReorderScratch {
public:
  void *get(const memory::desc &desc) {
    size_t bytes = desc.get_size();
    if (bytes > capacity) {
      // 64 bytes: the alignment oneDNN's kernels load fastest.
      size_t rounded = (bytes + 63) / 64 * 64;
      void *grown = std::aligned_alloc(64, rounded);
      if (!grown)
        throw std::bad_alloc();
      storage.reset(static_cast<unsigned char *>(grown));
      capacity = rounded;
    }
    return storage.get();
  }

private:
  struct Free {
    void operator()(unsigned char *pointer) const { std::free(pointer); }
  };
  std::unique_ptr<unsigned char, Free> storage;
  size_t capacity = 0;
};

struct ConvScratch {
  ReorderScratch input, filter, output;
};

ConvScratch &convScratch() {
  thread_local ConvScratch scratch;
  return scratch;
}

/// Whether a oneDNN implementation is one of its direct JIT kernels, not
/// im2col+GEMM or the reference loops.
bool isDirectKernel(const std::string &impl) {
  return !impl.empty() && impl.find("gemm") == std::string::npos &&
         impl.find("ref") == std::string::npos;
}

/// AMPRT_CONV_LAYOUT=plain keeps every convolution on the step's own
/// layouts (for comparing kernels; the default also tries blocked ones).
bool useBlockedLayouts() {
  static const bool blocked = [] {
    const char *value = std::getenv("AMPRT_CONV_LAYOUT");
    return !(value && std::string(value) == "plain");
  }();
  return blocked;
}

/// What the step's output gets: the sum post-op where it accumulates.
dnnl::primitive_attr outputAttributes(const ConvParams &params) {
  dnnl::primitive_attr attributes;
  if (params.accumulate) {
    dnnl::post_ops accumulate;
    accumulate.append_sum(1.0f);
    attributes.set_post_ops(accumulate);
  }
  return attributes;
}

/// The filter layout a plain plan's primitive chose, and the reorder into
/// it from the step's filter where they differ.
void setFilterLayout(ConvPlan &plan, const memory::desc &chosen) {
  plan.filter = chosen;
  plan.reorderFilter = plan.filter != plan.userFilter;
  if (plan.reorderFilter)
    plan.filterReorder = dnnl::reorder(dnnl::reorder::primitive_desc(
        cpuEngine(), plan.userFilter, cpuEngine(), plan.filter));
}

/// The reorders of a plan whose primitive runs on the layouts it chose
/// (`input`, `filter`, `output`): the step's operands in, the output out,
/// added to the step's where the call accumulates.
void addBlockedReorders(ConvPlan &plan, const ConvParams &params) {
  plan.blocked = true;
  plan.inputReorder = dnnl::reorder(dnnl::reorder::primitive_desc(
      cpuEngine(), plan.userInput, cpuEngine(), plan.input));
  plan.reorderFilter = true;
  plan.filterReorder = dnnl::reorder(dnnl::reorder::primitive_desc(
      cpuEngine(), plan.userFilter, cpuEngine(), plan.filter));
  plan.outputReorder = dnnl::reorder(dnnl::reorder::primitive_desc(
      cpuEngine(), plan.output, cpuEngine(), plan.userOutput,
      outputAttributes(params)));
  plan.supported = true;
}

/// A plan whose primitive picks the layouts of all three operands, or
/// nothing where it would pick the plain ones anyway.
std::unique_ptr<ConvPlan> makeBlockedPlan(const ConvShape &shape,
                                          memory::data_type type,
                                          const ConvParams &params) {
  memory::desc anyInput(shape.inputDims, type, memory::format_tag::any);
  memory::desc anyFilter(shape.filterDims, type, memory::format_tag::any);
  memory::desc anyOutput(shape.outputDims, memory::data_type::f32,
                         memory::format_tag::any);
  dnnl::convolution_forward::desc desc(
      dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
      anyInput, anyFilter, anyOutput, {params.strides[0], params.strides[1]},
      {params.dilations[0] - 1, params.dilations[1] - 1},
      {params.padLow[0], params.padLow[1]},
      {params.padHigh[0], params.padHigh[1]});
  dnnl::convolution_forward::primitive_desc pd(desc, cpuEngine());
  if (!isDirectKernel(pd.impl_info_str()))
    return nullptr;
  auto made = std::make_unique<ConvPlan>();
  made->primitive = dnnl::convolution_forward(pd);
  made->userInput = memory::desc(shape.inputDims, type, shape.inputStrides);
  made->userFilter = memory::desc(shape.filterDims, type, shape.filterStrides);
  made->userOutput = memory::desc(shape.outputDims, memory::data_type::f32,
                                  shape.outputStrides);
  made->input = pd.src_desc();
  made->filter = pd.weights_desc();
  made->output = pd.dst_desc();
  addBlockedReorders(*made, params);
  return made;
}

/// Whether `shape`'s filter taps are reversed (negative H and W strides).
bool hasReversedTaps(const ConvShape &shape) {
  size_t rank = shape.filterStrides.size();
  return shape.filterStrides[rank - 2] < 0 || shape.filterStrides[rank - 1] < 0;
}

/// A stride-1 convolution with reversed taps as oneDNN's backward-data
/// convolution of the stored filter: its diff_dst is our input, its
/// diff_src our output, its weights the stored filter with the first two
/// (ungrouped) dimensions swapped, (C, F, KH, KW); the taps reaching d*(K-1)
/// past each output make its padding d*(K-1) minus ours. Nothing where
/// that padding would be negative, or the primitive is not a direct kernel.
std::unique_ptr<ConvPlan> makeBackwardDataPlan(const ConvShape &shape,
                                               memory::data_type type,
                                               const ConvParams &params) {
  if (params.strides[0] != 1 || params.strides[1] != 1 || !useBlockedLayouts())
    return nullptr;
  size_t rank = shape.filterDims.size();
  memory::dims weightDims = shape.filterDims,
               weightStrides = shape.filterStrides;
  std::swap(weightDims[rank - 4], weightDims[rank - 3]);
  std::swap(weightStrides[rank - 4], weightStrides[rank - 3]);
  int64_t origin = 0;
  memory::dims padLow(2), padHigh(2);
  for (int i = 0; i < 2; ++i) {
    size_t dim = rank - 2 + i;
    if (weightStrides[dim] > 0)
      return nullptr;
    origin += (weightDims[dim] - 1) * weightStrides[dim];
    weightStrides[dim] = -weightStrides[dim];
    int64_t reach = params.dilations[i] * (weightDims[dim] - 1);
    padLow[i] = reach - params.padLow[i];
    padHigh[i] = reach - params.padHigh[i];
    if (padLow[i] < 0 || padHigh[i] < 0)
      return nullptr;
  }
  memory::dims unitStrides{1, 1},
      dilations{params.dilations[0] - 1, params.dilations[1] - 1};
  auto any = [](const memory::dims &dims, memory::data_type elementType) {
    return memory::desc(dims, elementType, memory::format_tag::any);
  };
  dnnl::convolution_forward::desc hintDesc(
      dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
      any(shape.outputDims, type), any(weightDims, type),
      any(shape.inputDims, type), unitStrides, dilations, padLow, padHigh);
  dnnl::convolution_forward::primitive_desc hint(hintDesc, cpuEngine());
  auto made = std::make_unique<ConvPlan>();
  made->inputArg = DNNL_ARG_DIFF_DST;
  made->outputArg = DNNL_ARG_DIFF_SRC;
  made->filterOrigin = origin;
  made->userInput = memory::desc(shape.inputDims, type, shape.inputStrides);
  made->userFilter = memory::desc(weightDims, type, weightStrides);
  made->userOutput = memory::desc(shape.outputDims, memory::data_type::f32,
                                  shape.outputStrides);
  // On the step's own input and output where a direct kernel takes them
  // and the output is overwritten (the primitive has no sum post-op).
  if (!params.accumulate) {
    dnnl::convolution_backward_data::desc desc(
        dnnl::algorithm::convolution_direct, made->userOutput,
        any(weightDims, type), made->userInput, unitStrides, dilations, padLow,
        padHigh);
    dnnl::convolution_backward_data::primitive_desc pd(desc, cpuEngine(), hint);
    if (isDirectKernel(pd.impl_info_str())) {
      made->primitive = dnnl::convolution_backward_data(pd);
      made->input = made->userInput;
      made->output = made->userOutput;
      setFilterLayout(*made, pd.weights_desc());
      made->supported = true;
      return made;
    }
  }
  dnnl::convolution_backward_data::desc desc(
      dnnl::algorithm::convolution_direct,
      any(shape.outputDims, memory::data_type::f32), any(weightDims, type),
      any(shape.inputDims, type), unitStrides, dilations, padLow, padHigh);
  dnnl::convolution_backward_data::primitive_desc pd(desc, cpuEngine(), hint);
  if (!isDirectKernel(pd.impl_info_str()))
    return nullptr;
  made->primitive = dnnl::convolution_backward_data(pd);
  made->input = pd.diff_dst_desc();
  made->filter = pd.weights_desc();
  made->output = pd.diff_src_desc();
  addBlockedReorders(*made, params);
  return made;
}

ConvPlan &lookupPlan(const ConvShape &shape, memory::data_type type,
                     const ConvParams &params) {
  static std::mutex mutex;
  static std::map<std::vector<int64_t>, std::unique_ptr<ConvPlan>> plans;
  std::vector<int64_t> key = {static_cast<int64_t>(type),
                              static_cast<int64_t>(shape.filterDims.size()),
                              params.accumulate};
  for (const int64_t *part : {params.strides, params.dilations,
                              params.padLow, params.padHigh})
    key.insert(key.end(), part, part + 2);
  for (const memory::dims *part :
       {&shape.inputDims, &shape.inputStrides, &shape.filterDims,
        &shape.filterStrides, &shape.outputDims, &shape.outputStrides})
    key.insert(key.end(), part->begin(), part->end());
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<ConvPlan> &plan = plans[key];
  if (plan)
    return *plan;
  if (hasReversedTaps(shape)) {
    try {
      plan = makeBackwardDataPlan(shape, type, params);
    } catch (const dnnl::error &) {
      plan.reset();
    }
    // Unsupported: the caller copies the taps in order.
    if (!plan)
      plan = std::make_unique<ConvPlan>();
    return *plan;
  }
  auto made = std::make_unique<ConvPlan>();
  std::string impl;
  try {
    made->input = memory::desc(shape.inputDims, type, shape.inputStrides);
    made->output = memory::desc(shape.outputDims, memory::data_type::f32,
                                shape.outputStrides);
    made->userFilter =
        memory::desc(shape.filterDims, type, shape.filterStrides);
    memory::desc anyFilter(shape.filterDims, type, memory::format_tag::any);
    dnnl::primitive_attr attributes = outputAttributes(params);
    // oneDNN counts dilation from 0 (no gaps), linalg from 1.
    dnnl::convolution_forward::desc desc(
        dnnl::prop_kind::forward_inference, dnnl::algorithm::convolution_direct,
        made->input, anyFilter, made->output,
        {params.strides[0], params.strides[1]},
        {params.dilations[0] - 1, params.dilations[1] - 1},
        {params.padLow[0], params.padLow[1]},
        {params.padHigh[0], params.padHigh[1]});
    dnnl::convolution_forward::primitive_desc pd(desc, attributes, cpuEngine());
    made->primitive = dnnl::convolution_forward(pd);
    setFilterLayout(*made, pd.weights_desc());
    made->supported = true;
    impl = pd.impl_info_str();
  } catch (const dnnl::error &) {
    made = std::make_unique<ConvPlan>();
  }
  // On the step's own layouts oneDNN may have only its im2col+GEMM or
  // reference kernels (NCHW-strided operands, as torch-mlir's steps have);
  // then reordering input and output into the layouts its direct kernels
  // choose is faster (ResNet-18: 20%), reorders included.
  if (useBlockedLayouts() && !isDirectKernel(impl)) {
    try {
      if (std::unique_ptr<ConvPlan> blocked =
              makeBlockedPlan(shape, type, params))
        made = std::move(blocked);
    } catch (const dnnl::error &) {
    }
  }
  plan = std::move(made);
  return *plan;
}

/// The filter of `shape` copied, taps in order, into this thread's buffer
/// (dense, dimensions in the filter's order); `shape` and `filter` then
/// describe the copy.
void copyTapsInOrder(ConvShape &shape, int64_t elementBytes,
                     unsigned char *&filter) {
  thread_local std::vector<unsigned char> storage;
  size_t rank = shape.filterDims.size();
  int64_t count = 1;
  memory::dims dense(rank);
  for (size_t d = rank; d-- > 0;) {
    dense[d] = count;
    count *= shape.filterDims[d];
  }
  storage.resize(static_cast<size_t>(count * elementBytes));
  std::vector<int64_t> index(rank, 0);
  for (int64_t element = 0; element < count; ++element) {
    int64_t from = 0;
    for (size_t d = 0; d < rank; ++d)
      from += index[d] * shape.filterStrides[d];
    std::memcpy(storage.data() + element * elementBytes,
                filter + from * elementBytes, elementBytes);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape.filterDims[d])
        break;
      index[d] = 0;
    }
  }
  shape.filterStrides = dense;
  filter = storage.data();
}

/// output (+)= conv(input, filter) through oneDNN; false where oneDNN has
/// no implementation for the shape (the output then holds what it held,
/// or zeros where the call overwrites it).
bool convolveOneDNN(ConvShape shape, memory::data_type type, void *input,
                    void *filter, float *output, ConvParams params) {
  for (int64_t size : shape.outputDims)
    if (size == 0)
      return true;
  int64_t elementBytes = type == memory::data_type::f32 ? 4 : 2;
  auto *inputBytes = static_cast<unsigned char *>(input);
  auto *filterBytes = static_cast<unsigned char *>(filter);
  memory::dims outputDims = shape.outputDims;
  float *wholeOutput = output;
  bool anyWork = skipPaddingOnlyWork(shape, params, elementBytes, inputBytes,
                                     filterBytes, output);
  // Outputs cut off above get no write: they get their zeros here.
  if (!params.accumulate && (!anyWork || shape.outputDims != outputDims)) {
    zeroOutput(outputDims, shape.outputStrides, wholeOutput);
    params.accumulate = true;
  }
  if (!anyWork)
    return true;
  input = inputBytes;
  trimUnreadInput(shape, params);
  ConvPlan *found = &lookupPlan(shape, type, params);
  if (!found->supported && hasReversedTaps(shape)) {
    copyTapsInOrder(shape, elementBytes, filterBytes);
    found = &lookupPlan(shape, type, params);
  }
  ConvPlan &plan = *found;
  if (!plan.supported)
    return false;
  filter = filterBytes + plan.filterOrigin * elementBytes;
  dnnl::engine &engine = cpuEngine();
  dnnl::stream &stream = amprt::cpuStream();
  ConvScratch &scratch = convScratch();
  if (plan.blocked) {
    memory userInput(plan.userInput, engine, input);
    memory userFilter(plan.userFilter, engine, filter);
    memory userOutput(plan.userOutput, engine, output);
    memory blockedInput(plan.input, engine, scratch.input.get(plan.input));
    memory blockedFilter(plan.filter, engine, scratch.filter.get(plan.filter));
    memory blockedOutput(plan.output, engine, scratch.output.get(plan.output));
    plan.inputReorder.execute(stream, userInput, blockedInput);
    plan.filterReorder.execute(stream, userFilter, blockedFilter);
    plan.primitive.execute(stream, {{plan.inputArg, blockedInput},
                                    {DNNL_ARG_WEIGHTS, blockedFilter},
                                    {plan.outputArg, blockedOutput}});
    plan.outputReorder.execute(stream, blockedOutput, userOutput);
    stream.wait();
    return true;
  }
  memory in(plan.input, engine, input);
  memory userFilter(plan.userFilter, engine, filter);
  memory out(plan.output, engine, output);
  memory weights = userFilter;
  if (plan.reorderFilter) {
    weights = memory(plan.filter, engine, scratch.filter.get(plan.filter));
    plan.filterReorder.execute(stream, userFilter, weights);
  }
  plan.primitive.execute(stream, {{plan.inputArg, in},
                                  {DNNL_ARG_WEIGHTS, weights},
                                  {plan.outputArg, out}});
  stream.wait();
  return true;
}

float widen(float value) { return value; }
float widen(uint16_t value) { return amprt::bfloat16ToFloat(value); }

/// output += conv(input, filter) by loops: what runs where oneDNN refuses
/// (uint16_t is bf16 here; f16 is widened before it gets this far).
template <typename T>
void referenceConvolution(const StridedMemRef<T, 4> *in,
                          const StridedMemRef<T, 4> *w,
                          StridedMemRef<float, 4> *out,
                          const ConvParams &params) {
  const int64_t *strides = params.strides, *dilations = params.dilations;
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
                int64_t h = oh * strides[0] + kh * dilations[0] -
                            params.padLow[0];
                int64_t v = ow * strides[1] + kw * dilations[1] -
                            params.padLow[1];
                if (h < 0 || h >= in->sizes[1] || v < 0 || v >= in->sizes[2])
                  continue; // in the zero padding
                sum += widen(x[n * in->strides[0] + h * in->strides[1] +
                               v * in->strides[2] + c * in->strides[3]]) *
                       widen(f[o * w->strides[0] + kh * w->strides[1] +
                               kw * w->strides[2] + c * w->strides[3]]);
              }
          y[n * out->strides[0] + oh * out->strides[1] + ow * out->strides[2] +
            o * out->strides[3]] += sum;
        }
}

/// output += conv(input, filter) with T in oneDNN's `type` (f32 or bf16).
template <typename T>
void convolveNative(StridedMemRef<T, 4> *input, StridedMemRef<T, 4> *filter,
                    StridedMemRef<float, 4> *output, memory::data_type type,
                    const ConvParams &params) {
  ConvShape shape = describePlain(input, filter, output);
  float *out = output->aligned + output->offset;
  if (convolveOneDNN(shape, type, input->aligned + input->offset,
                     filter->aligned + filter->offset, out, params))
    return;
  if (!params.accumulate)
    zeroOutput(shape.outputDims, shape.outputStrides, out);
  referenceConvolution(input, filter, output, params);
}

/// A dense f32 copy of an f16 or bf16 operand that keeps its memory order (the
/// dimension with the largest stride outermost): oneDNN's fast kernels
/// want input and output in the same physical layout (both NCHW or both
/// NHWC), and the f32 output is left where the step put it.
template <int Rank>
StridedMemRef<float, Rank> widen16(const StridedMemRef<uint16_t, Rank> *ref,
                                   std::vector<float> &storage,
                                   float (*convert)(uint16_t)) {
  int order[Rank];
  for (int d = 0; d < Rank; ++d)
    order[d] = d;
  // By magnitude: a reversed filter's negative strides walk it backwards.
  std::stable_sort(order, order + Rank, [&](int a, int b) {
    return std::llabs(ref->strides[a]) > std::llabs(ref->strides[b]);
  });
  StridedMemRef<float, Rank> wide;
  int64_t count = 1;
  for (int i = Rank - 1; i >= 0; --i) {
    wide.sizes[order[i]] = ref->sizes[order[i]];
    wide.strides[order[i]] = count;
    count *= ref->sizes[order[i]];
  }
  storage.resize(static_cast<size_t>(count));
  wide.allocated = wide.aligned = storage.data();
  wide.offset = 0;
  int inner = order[Rank - 1];
  int64_t rowLength = ref->sizes[inner];
  if (count == 0)
    return wide;
  // An odometer over the outer dimensions, in memory order.
  int64_t index[Rank] = {};
  float *out = storage.data();
  for (int64_t row = 0, rows = count / rowLength; row < rows; ++row) {
    int64_t offset = ref->offset;
    for (int i = 0; i < Rank - 1; ++i)
      offset += index[order[i]] * ref->strides[order[i]];
    amprt::widenRow(ref->aligned + offset, ref->strides[inner], rowLength, out,
                    convert);
    out += rowLength;
    for (int i = Rank - 2; i >= 0; --i) {
      if (++index[order[i]] < ref->sizes[order[i]])
        break;
      index[order[i]] = 0;
    }
  }
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

/// output += the grouped convolution: one oneDNN grouped primitive where
/// the layout allows, else G plain convolutions.
template <typename T>
void convolveNative(StridedMemRef<T, 5> *input, StridedMemRef<T, 5> *filter,
                    StridedMemRef<float, 5> *output, memory::data_type type,
                    const ConvParams &params) {
  if (std::optional<ConvShape> shape = describeGrouped(input, filter, output))
    if (convolveOneDNN(*shape, type, input->aligned + input->offset,
                       filter->aligned + filter->offset,
                       output->aligned + output->offset, params))
      return;
  for (int64_t g = 0; g < input->sizes[1]; ++g) {
    StridedMemRef<T, 4> in = groupView(input, 1, g);
    StridedMemRef<T, 4> weights = groupView(filter, 0, g);
    StridedMemRef<float, 4> out = groupView(output, 1, g);
    convolveNative(&in, &weights, &out, type, params);
  }
}

/// A 16-bit convolution on operands widened to f32 (this thread's buffers,
/// kept between calls), then the f32 convolution.
template <int Rank>
void convolveWidened(StridedMemRef<uint16_t, Rank> *input,
                     StridedMemRef<uint16_t, Rank> *filter,
                     StridedMemRef<float, Rank> *output,
                     const ConvParams &params, float (*convert)(uint16_t)) {
  thread_local std::vector<float> wideInput, wideFilter;
  StridedMemRef<float, Rank> in = widen16(input, wideInput, convert);
  StridedMemRef<float, Rank> weights = widen16(filter, wideFilter, convert);
  convolveNative(&in, &weights, output, memory::data_type::f32, params);
}

/// Whether this CPU has oneDNN bf16 convolutions (AVX-512 and up; on an
/// AVX2-only CPU oneDNN 2.6 has none, and the loops of
/// referenceConvolution would be ~50x slower than widening to f32).
bool hasBF16Convolution() {
  static const bool has = [] {
    try {
      memory::dims input{1, 16, 4, 4}, filter{16, 16, 3, 3}, output{1, 16, 2, 2};
      auto any = [](const memory::dims &dims, memory::data_type type) {
        return memory::desc(dims, type, memory::format_tag::any);
      };
      dnnl::convolution_forward::desc desc(
          dnnl::prop_kind::forward_inference,
          dnnl::algorithm::convolution_direct,
          any(input, memory::data_type::bf16),
          any(filter, memory::data_type::bf16),
          any(output, memory::data_type::f32), {1, 1}, {0, 0}, {0, 0}, {0, 0});
      dnnl::convolution_forward::primitive_desc pd(desc, cpuEngine());
      return isDirectKernel(pd.impl_info_str());
    } catch (const dnnl::error &) {
      return false;
    }
  }();
  return has;
}

template <int Rank>
void convolveBF16(StridedMemRef<uint16_t, Rank> *input,
                  StridedMemRef<uint16_t, Rank> *filter,
                  StridedMemRef<float, Rank> *output, const ConvParams &params) {
  if (hasBF16Convolution())
    convolveNative(input, filter, output, memory::data_type::bf16, params);
  else
    convolveWidened(input, filter, output, params, amprt::bfloat16ToFloat);
}

/// `filter` (F x KH x KW x C, or G x F x C x KH x KW) with its taps read in
/// reverse order in H and W: a view with negative strides from the last
/// tap, which the code above takes as such.
template <typename T, int Rank>
StridedMemRef<T, Rank> reverseTaps(const StridedMemRef<T, Rank> &filter,
                                   bool reversed) {
  StridedMemRef<T, Rank> view = filter;
  if (!reversed)
    return view;
  for (int dim : {Rank == 4 ? 1 : 3, Rank == 4 ? 2 : 4}) {
    view.offset += std::max<int64_t>(view.sizes[dim] - 1, 0) * view.strides[dim];
    view.strides[dim] = -view.strides[dim];
  }
  return view;
}

} // namespace

// Every convolution of amprt_conv.def, by its input type.
#define AMPRT_CONVOLVE_f32(in, f, out, args)                                   \
  convolveNative(in, f, out, memory::data_type::f32, args)
#define AMPRT_CONVOLVE_bf16(in, f, out, args) convolveBF16(in, f, out, args)
#define AMPRT_CONVOLVE_f16(in, f, out, args)                                   \
  convolveWidened(in, f, out, args, amprt::halfToFloat)

extern "C" {
#define AMPRT_CONV(NAME, INPUT_TYPE, C_TYPE, RANK, ACCUMULATE, REVERSED)       \
  void _mlir_ciface_amp_rt_##NAME(                                             \
      StridedMemRef<C_TYPE, RANK> *input, StridedMemRef<C_TYPE, RANK> *filter, \
      StridedMemRef<float, RANK> *output, int64_t stride_h, int64_t stride_w,  \
      int64_t dilation_h, int64_t dilation_w, int64_t pad_top,                 \
      int64_t pad_left, int64_t pad_bottom, int64_t pad_right) {               \
    const ConvParams params = {{stride_h, stride_w},                           \
                               {dilation_h, dilation_w},                       \
                               {pad_top, pad_left},                            \
                               {pad_bottom, pad_right},                        \
                               ACCUMULATE != 0};                               \
    StridedMemRef<C_TYPE, RANK> taps = reverseTaps(*filter, REVERSED != 0);    \
    AMPRT_CONVOLVE_##INPUT_TYPE(input, &taps, output, params);                 \
  }
#include "amprt_conv.def"
} // extern "C"
