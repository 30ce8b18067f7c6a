//===- PrecisionPolicy.cpp - the default autocast policy and its files ----===//

#include "amp/Analysis/PrecisionPolicy.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::amp;

FloatType mlir::amp::getLowPrecisionType(LowPrecision precision,
                                         MLIRContext *context) {
  switch (precision) {
  case LowPrecision::F16:
    return Float16Type::get(context);
  case LowPrecision::BF16:
    return BFloat16Type::get(context);
  }
  llvm_unreachable("unhandled precision");
}

// The default lists. Allow: PyTorch CUDA autocast's lower-precision ops
// that MLIR has (GEMMs and convolutions). Deny: its fp32 list (exp, log,
// pow, reciprocal, rsqrt, sums, softmax, hyperbolic and inverse trig).
// Infer and clear: TF AutoMixedPrecision's infer and clear lists.
static const char *const kDefaultAllow[] = {
    "tosa.matmul",
    "tosa.conv2d",
    "tosa.conv3d",
    "tosa.depthwise_conv2d",
    "tosa.transpose_conv2d",
    "linalg.matmul",
    "linalg.batch_matmul",
    "linalg.batch_reduce_matmul",
    "linalg.matvec",
    "linalg.vecmat",
    "linalg.batch_matvec",
    "linalg.batch_vecmat",
    "linalg.dot",
    "linalg.contract",
    "linalg.mmt4d",
    "linalg.batch_mmt4d",
    "linalg.conv_1d",
    "linalg.conv_2d",
    "linalg.conv_3d",
    "linalg.conv_1d_nwc_wcf",
    "linalg.conv_1d_ncw_fcw",
    "linalg.conv_2d_nhwc_hwcf",
    "linalg.conv_2d_nhwc_fhwc",
    "linalg.conv_2d_nchw_fchw",
    "linalg.conv_2d_ngchw_fgchw",
    "linalg.conv_2d_ngchw_gfchw",
    "linalg.conv_2d_nhwgc_gfhwc",
    "linalg.conv_3d_ndhwc_dhwcf",
    "linalg.conv_3d_ncdhw_fcdhw",
    "linalg.depthwise_conv_1d_nwc_wc",
    "linalg.depthwise_conv_1d_ncw_cw",
    "linalg.depthwise_conv_1d_nwc_wcm",
    "linalg.depthwise_conv_2d_nhwc_hwc",
    "linalg.depthwise_conv_2d_nchw_chw",
    "linalg.depthwise_conv_2d_nhwc_hwcm",
    "linalg.depthwise_conv_3d_ndhwc_dhwc",
    "linalg.depthwise_conv_3d_ncdhw_cdhw",
    "linalg.depthwise_conv_3d_ndhwc_dhwcm",
};

static const char *const kDefaultDeny[] = {
    "tosa.exp",
    "tosa.log",
    "tosa.pow",
    "tosa.reciprocal",
    "tosa.rsqrt",
    "tosa.reduce_sum",
    "tosa.reduce_product",
    "tosa.fft2d",
    "tosa.rfft2d",
    "linalg.softmax",
    "linalg.exp",
    "linalg.log",
    "linalg.powf",
    "linalg.reciprocal",
    "linalg.rsqrt",
    "linalg.pooling_nhwc_sum",
    "linalg.pooling_nchw_sum",
    "linalg.pooling_nwc_sum",
    "linalg.pooling_ncw_sum",
    "linalg.pooling_ndhwc_sum",
    "math.exp",
    "math.exp2",
    "math.expm1",
    "math.log",
    "math.log2",
    "math.log10",
    "math.log1p",
    "math.powf",
    "math.fpowi",
    "math.rsqrt",
    "math.acos",
    "math.acosh",
    "math.asin",
    "math.asinh",
    "math.atanh",
    "math.cosh",
    "math.sinh",
    "math.tan",
    "math.erfc",
};

static const char *const kDefaultInfer[] = {
    "tosa.add",
    "tosa.sub",
    "tosa.mul",
    "tosa.negate",
    "tosa.abs",
    "tosa.maximum",
    "tosa.minimum",
    "tosa.clamp",
    "tosa.select",
    "tosa.tanh",
    "tosa.sigmoid",
    "tosa.erf",
    "tosa.reduce_max",
    "tosa.reduce_min",
    "tosa.ceil",
    "tosa.floor",
    "tosa.cos",
    "tosa.sin",
    "tosa.equal",
    "tosa.greater",
    "tosa.greater_equal",
    "tosa.max_pool2d",
    "tosa.avg_pool2d",
    "tosa.argmax",
    "tosa.resize",
    "linalg.add",
    "linalg.sub",
    "linalg.mul",
    "linalg.div",
    "linalg.max",
    "linalg.min",
    "linalg.abs",
    "linalg.negf",
    "linalg.ceil",
    "linalg.floor",
    "linalg.round",
    "linalg.tanh",
    "linalg.erf",
    "linalg.sqrt",
    "linalg.square",
    "linalg.select",
    "linalg.elementwise",
    "linalg.pooling_nhwc_max",
    "linalg.pooling_nchw_max",
    "linalg.pooling_nhwc_min",
    "linalg.pooling_nwc_max",
    "linalg.pooling_ncw_max",
    "linalg.pooling_nwc_min",
    "linalg.pooling_ndhwc_max",
    "linalg.pooling_ndhwc_min",
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.divf",
    "arith.remf",
    "arith.negf",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.cmpf",
    "arith.select",
    "math.absf",
    "math.atan",
    "math.atan2",
    "math.cbrt",
    "math.ceil",
    "math.copysign",
    "math.cos",
    "math.sin",
    "math.erf",
    "math.floor",
    "math.fma",
    "math.isfinite",
    "math.isinf",
    "math.isnan",
    "math.isnormal",
    "math.round",
    "math.roundeven",
    "math.sqrt",
    "math.tanh",
    "math.trunc",
};

static const char *const kDefaultClear[] = {
    "tosa.reshape",
    "tosa.transpose",
    "tosa.slice",
    "tosa.concat",
    "tosa.pad",
    "tosa.tile",
    "tosa.gather",
    "tosa.scatter",
    "tosa.reverse",
    "tosa.identity",
    "tensor.extract_slice",
    "tensor.insert_slice",
    "tensor.expand_shape",
    "tensor.collapse_shape",
    "tensor.reshape",
    "tensor.concat",
    "tensor.pad",
    "tensor.cast",
    "tensor.extract",
    "tensor.insert",
    "tensor.from_elements",
    "tensor.splat",
    "tensor.gather",
    "tensor.scatter",
    "tensor.dim",
    "tensor.rank",
    "tosa.dim",
    "linalg.transpose",
    "linalg.broadcast",
    "linalg.copy",
    "linalg.fill",
    "arith.sitofp",
    "arith.uitofp",
    "arith.fptosi",
    "arith.fptoui",
};

bool mlir::amp::isStructuralOp(StringRef opName, MLIRContext *context) {
  std::optional<RegisteredOperationName> name =
      RegisteredOperationName::lookup(opName, context);
  return name && getStructuralCategory(*name).has_value();
}

bool mlir::amp::isKnownOpName(StringRef opName, MLIRContext *context) {
  auto [dialect, rest] = opName.split('.');
  if (rest.empty())
    return false;
  context->getOrLoadDialect(dialect);
  return RegisteredOperationName::lookup(opName, context).has_value();
}

/// The element type of a scalar, tensor or vector; null for anything else
/// (memrefs hold buffers that autocast never retypes).
static Type getValueElementType(Type type) {
  if (isa<TensorType, VectorType>(type))
    return cast<ShapedType>(type).getElementType();
  if (isa<ShapedType>(type))
    return nullptr;
  return type;
}

bool mlir::amp::isFloatLike(Type type) {
  return isa_and_nonnull<FloatType>(getValueElementType(type));
}

bool mlir::amp::isF32Like(Type type) {
  Type element = getValueElementType(type);
  return element && element.isF32();
}

Type mlir::amp::withElementType(Type type, Type elementType) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    return shaped.clone(elementType);
  return elementType;
}

PrecisionPolicy PrecisionPolicy::getDefault() {
  PrecisionPolicy policy;
  for (const char *name : kDefaultAllow)
    policy.set(name, OpCategory::Allow);
  for (const char *name : kDefaultDeny)
    policy.set(name, OpCategory::Deny);
  for (const char *name : kDefaultInfer)
    policy.set(name, OpCategory::Infer);
  for (const char *name : kDefaultClear)
    policy.set(name, OpCategory::Clear);
  return policy;
}

void PrecisionPolicy::set(StringRef opName, OpCategory category) {
  categories[opName] = category;
}

std::optional<OpCategory> PrecisionPolicy::lookup(StringRef opName) const {
  auto it = categories.find(opName);
  if (it == categories.end())
    return std::nullopt;
  return it->second;
}

/// Classifies an op with a user-written payload (linalg.generic, map,
/// reduce) from the ops inside it: any deny op makes it deny, any unknown
/// op unknown; a contraction-shaped payload is allow, anything else infer.
static OpCategory classifyPayload(const PrecisionPolicy &policy,
                                  linalg::LinalgOp op) {
  bool anyUnknown = false;
  for (Operation &inner : op.getBlock()->without_terminator()) {
    std::optional<OpCategory> category =
        policy.lookup(inner.getName().getStringRef());
    if (category == OpCategory::Deny)
      return OpCategory::Deny;
    std::optional<OpCategory> structural = getStructuralCategory(&inner);
    if (!category && !isa<linalg::IndexOp>(inner) &&
        structural != OpCategory::Cast &&
        structural != OpCategory::Materializable)
      anyUnknown = true;
  }
  if (anyUnknown)
    return OpCategory::Unknown;
  if (linalg::isaContractionOpInterface(op) ||
      linalg::isaConvolutionOpInterface(op))
    return OpCategory::Allow;
  return OpCategory::Infer;
}

OpCategory PrecisionPolicy::classify(Operation *op, bool anyFloatWidth) const {
  std::optional<OpCategory> structural = getStructuralCategory(op);
  if (structural == OpCategory::Boundary)
    return OpCategory::Boundary;
  auto touchesF32 = [&](TypeRange types) {
    return llvm::any_of(types, anyFloatWidth ? isFloatLike : isF32Like);
  };
  if (!touchesF32(op->getOperandTypes()) && !touchesF32(op->getResultTypes()))
    return OpCategory::NoFloat;
  // A conversion between integers and floats moves data into or out of the
  // float world: it is retyped like a clear op (TF retypes such casts).
  if (structural == OpCategory::Cast)
    return isFloatLike(op->getOperand(0).getType()) &&
                   isFloatLike(op->getResult(0).getType())
               ? OpCategory::Cast
               : OpCategory::Clear;
  if (structural == OpCategory::Materializable)
    return OpCategory::Materializable;
  if (std::optional<OpCategory> category = lookup(op->getName().getStringRef()))
    return *category;
  if (isa<linalg::GenericOp, linalg::MapOp, linalg::ReduceOp>(op))
    return classifyPayload(*this, cast<linalg::LinalgOp>(op));
  // What the op's own AutocastOpInterface says, if it is a policy category.
  std::optional<OpCategory> fallback = getDefaultCategory(op);
  if (fallback == OpCategory::Allow || fallback == OpCategory::Deny ||
      fallback == OpCategory::Infer || fallback == OpCategory::Clear)
    return *fallback;
  return OpCategory::Unknown;
}

/// Maps a policy-file key to a category.
static std::optional<OpCategory> categoryForKey(StringRef key) {
  return llvm::StringSwitch<std::optional<OpCategory>>(key)
      .Case("allow", OpCategory::Allow)
      .Case("deny", OpCategory::Deny)
      .Case("infer", OpCategory::Infer)
      .Case("clear", OpCategory::Clear)
      .Case("remove", OpCategory::Unknown)
      .Default(std::nullopt);
}

LogicalResult
PrecisionPolicy::applyList(ArrayRef<std::string> opNames, OpCategory category,
                           MLIRContext *context,
                           function_ref<InFlightDiagnostic()> emitError) {
  for (const std::string &name : opNames) {
    if (!isKnownOpName(name, context))
      return emitError() << "policy names op '" << name
                         << "', which is not a registered operation";
    if (isStructuralOp(name, context))
      return emitError() << "policy cannot move op '" << name
                         << "': its precision follows from what it is "
                            "(control flow, cast or constant)";
    set(name, category);
  }
  return success();
}

LogicalResult
PrecisionPolicy::loadFile(StringRef path, MLIRContext *context,
                          function_ref<InFlightDiagnostic()> emitError,
                          std::optional<LowPrecision> *precision) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return emitError() << "cannot read policy file '" << path
                       << "': " << buffer.getError().message();
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse((*buffer)->getBuffer());
  if (!json) {
    // LLVM's JSON errors read "[line:col, byte=N]: message"; say it as
    // "file:line:col: message" like every other located error.
    std::string message = llvm::toString(json.takeError());
    StringRef text = message;
    std::string position;
    if (text.consume_front("[")) {
      auto [where, rest] = text.split("]: ");
      position = ":" + where.split(',').first.str();
      text = rest;
    }
    return emitError() << "malformed policy file '" << path << position
                       << "': " << text;
  }
  const llvm::json::Object *object = json->getAsObject();
  if (!object)
    return emitError() << "policy file '" << path
                       << "' must hold a JSON object";
  // Keys are applied in a fixed order so that a name listed twice ends in
  // the same category whatever order the file lists the keys in.
  for (const auto &entry : *object) {
    StringRef key = entry.first;
    if (key != "precision" && !categoryForKey(key))
      return emitError() << "policy file '" << path << "': unknown key '" << key
                         << "' (expected allow, deny, infer, clear, remove "
                            "or precision)";
  }
  if (const llvm::json::Value *value = object->get("precision")) {
    std::optional<StringRef> text = value->getAsString();
    if (!text)
      return emitError() << "policy file '" << path
                         << "': 'precision' must be a string";
    std::optional<LowPrecision> parsed = kLowPrecisions.parse(*text);
    if (!parsed)
      return emitError() << "policy file '" << path << "': unknown precision '"
                         << *text << "' (expected " << kLowPrecisions.describe()
                         << ")";
    if (precision)
      *precision = *parsed;
  }
  // An op in two lists is a contradiction, not an order to resolve.
  llvm::StringMap<StringRef> listOf;
  for (StringRef key : {"allow", "deny", "infer", "clear", "remove"}) {
    const llvm::json::Value *value = object->get(key);
    if (!value)
      continue;
    const llvm::json::Array *names = value->getAsArray();
    if (!names)
      return emitError() << "policy file '" << path << "': '" << key
                         << "' must be a list of op names";
    std::vector<std::string> opNames;
    for (const llvm::json::Value &name : *names) {
      std::optional<StringRef> text = name.getAsString();
      if (!text)
        return emitError() << "policy file '" << path << "': '" << key
                           << "' must hold only strings";
      auto [it, inserted] = listOf.try_emplace(*text, key);
      if (!inserted && it->second != key)
        return emitError() << "policy file '" << path << "': op '" << *text
                           << "' is listed in both '" << it->second
                           << "' and '" << key << "'";
      opNames.push_back(text->str());
    }
    if (failed(applyList(opNames, *categoryForKey(key), context, [&] {
          InFlightDiagnostic diag = emitError();
          diag << "policy file '" << path << "': ";
          return diag;
        })))
      return failure();
  }
  return success();
}

LogicalResult mlir::amp::checkDisjointLists(
    ArrayRef<std::pair<StringRef, ArrayRef<std::string>>> lists,
    function_ref<InFlightDiagnostic()> emitError) {
  llvm::StringMap<StringRef> listOf;
  for (auto [option, names] : lists)
    for (const std::string &name : names) {
      auto [it, inserted] = listOf.try_emplace(name, option);
      if (!inserted && it->second != option)
        return emitError() << "op '" << name << "' is given to both '"
                           << it->second << "' and '" << option << "'";
    }
  return success();
}
