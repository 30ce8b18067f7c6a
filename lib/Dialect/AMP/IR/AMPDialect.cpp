//===- AMPDialect.cpp - the amp dialect and its marker attributes ---------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/IR/AMPOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::amp;

#include "amp/Dialect/AMP/IR/AMPOpsDialect.cpp.inc"

void AMPDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "amp/Dialect/AMP/IR/AMPOps.cpp.inc"
      >();
}

// Markers stay valid through bufferization: where a tensor is expected, a
// memref of the same shape and element type is accepted.

/// True for a float scalar or a tensor (or buffer) of floats.
static bool isFloatValueType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  return isa<FloatType>(type);
}

/// True when a value of `type` holds exactly one element.
static bool isSingleElement(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return isa<FloatType>(type);
  return shaped.hasStaticShape() && shaped.getNumElements() == 1;
}

LogicalResult AMPDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kKeepF32AttrName || name == kForceLowAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    if (op->hasAttr(kKeepF32AttrName) && op->hasAttr(kForceLowAttrName))
      return op->emitError() << "'" << kKeepF32AttrName << "' and '"
                             << kForceLowAttrName << "' cannot both be set";
    return success();
  }
  if (name == kInitialScaleAttrName || name == kInitialHysteresisAttrName) {
    if (!isa<FunctionOpInterface>(op))
      return op->emitError() << "'" << name << "' is only valid on a function";
    if (name == kInitialScaleAttrName) {
      auto scale = dyn_cast<FloatAttr>(attr.getValue());
      if (!scale || !scale.getType().isF32() ||
          !(scale.getValueAsDouble() > 0.0))
        return op->emitError() << "'" << name << "' must be a positive f32";
      return success();
    }
    auto count = dyn_cast<IntegerAttr>(attr.getValue());
    if (!count || count.getInt() < 1)
      return op->emitError() << "'" << name << "' must be an integer >= 1";
    return success();
  }
  if (name == kWorkspaceBytesAttrName) {
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!isa<FunctionOpInterface>(op) || !bytes || bytes.getInt() < 1)
      return op->emitError() << "'" << name
                             << "' must be a positive integer on a function";
    return success();
  }
  if (name == kWorkspaceInitAttrName) {
    if (!isa<FunctionOpInterface>(op) ||
        !isa<FlatSymbolRefAttr>(attr.getValue()) ||
        !op->hasAttr(kWorkspaceBytesAttrName))
      return op->emitError()
             << "'" << name << "' must be a symbol reference on a function "
             << "with '" << kWorkspaceBytesAttrName << "'";
    return success();
  }
  if (name == kParallelChunkAttrName || name == kStreamOrderedAttrName) {
    if (!isa<FunctionOpInterface>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a unit attribute of a function";
    return success();
  }
  if (name == kParamAttrName || name == kStateAttrName ||
      name == kNameAttrName)
    return op->emitError() << "'" << name
                           << "' is only valid on a function argument";
  if (name == kScalerAttrName || name == kWorkingCopyOfAttrName)
    return op->emitError() << "'" << name
                           << "' is only valid on a function argument";
  if (name == kLossAttrName || name == kUpdateOfAttrName ||
      name == kFoundInfAttrName)
    return op->emitError() << "'" << name
                           << "' is only valid on a function result";
  return op->emitError() << "unknown amp attribute '" << name << "'";
}

/// True for a rank-0 tensor (or buffer) of `elementType`.
static bool isScalarTensorOf(Type type, Type elementType) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.hasRank() && shaped.getRank() == 0 &&
         shaped.getElementType() == elementType;
}

/// Checks an argument that carries loss-scaler state.
static LogicalResult verifyScalerArgument(Operation *op, unsigned argIndex,
                                          Attribute value, Type type) {
  auto role = dyn_cast<StringAttr>(value);
  MLIRContext *context = op->getContext();
  if (!role ||
      (role.getValue() != "scale" && role.getValue() != "growth_tracker" &&
       role.getValue() != "hysteresis"))
    return op->emitError()
           << "'" << AMPDialect::kScalerAttrName << "' of argument " << argIndex
           << " must be \"scale\", \"growth_tracker\" or \"hysteresis\"";
  Type element = role.getValue() == "scale"
                     ? Type(Float32Type::get(context))
                     : Type(IntegerType::get(context, 32));
  if (!isScalarTensorOf(type, element))
    return op->emitError() << "loss-scaler " << role << " argument " << argIndex
                           << " must be a "
                           << RankedTensorType::get({}, element) << ", got "
                           << type;
  return success();
}

/// Checks an argument that holds the low-precision copy of a param.
static LogicalResult verifyWorkingCopyArgument(FunctionOpInterface func,
                                               unsigned argIndex,
                                               Attribute value) {
  auto index = dyn_cast<IntegerAttr>(value);
  Operation *op = func.getOperation();
  if (!index)
    return op->emitError() << "'" << AMPDialect::kWorkingCopyOfAttrName
                           << "' must be an integer argument index";
  int64_t param = index.getInt();
  int64_t numArgs = func.getNumArguments();
  if (param < 0 || param >= numArgs ||
      !func.getArgAttr(param, AMPDialect::kParamAttrName))
    return op->emitError() << "'" << AMPDialect::kWorkingCopyOfAttrName
                           << "' of argument " << argIndex << " names " << param
                           << ", which is not an '"
                           << AMPDialect::kParamAttrName << "' argument";
  auto paramType = dyn_cast<ShapedType>(func.getArgumentTypes()[param]);
  auto copyType = dyn_cast<ShapedType>(func.getArgumentTypes()[argIndex]);
  auto copyElement =
      copyType ? dyn_cast<FloatType>(copyType.getElementType()) : nullptr;
  if (!paramType || !copyElement || copyElement.getWidth() != 16 ||
      paramType.clone(copyElement) != copyType)
    return op->emitError() << "working copy argument " << argIndex
                           << " must have the shape of param " << param
                           << " and a 16-bit float type, got "
                           << func.getArgumentTypes()[argIndex];
  return success();
}

/// Checks an argument's name: what the artifact, data files and
/// checkpoint tools call it.
static LogicalResult verifyNameArgument(FunctionOpInterface func,
                                        unsigned argIndex, Attribute value) {
  Operation *op = func.getOperation();
  auto name = dyn_cast<StringAttr>(value);
  if (!name)
    return op->emitError() << "'" << AMPDialect::kNameAttrName
                           << "' of argument " << argIndex
                           << " must be a string";
  StringRef text = name.getValue();
  // The names end up in C string literals and file formats (npz members):
  // a small alphabet needs no escaping anywhere.
  auto allowed = [](char c) {
    return llvm::isAlnum(c) || StringRef("_.:/-").contains(c);
  };
  if (text.empty() || text.size() > AMPDialect::kMaxNameLength ||
      !llvm::all_of(text, allowed))
    return op->emitError() << "'" << AMPDialect::kNameAttrName
                           << "' of argument " << argIndex << " is " << name
                           << "; a name is 1 to "
                           << AMPDialect::kMaxNameLength
                           << " characters of [A-Za-z0-9_.:/-]";
  for (unsigned i = 0; i < argIndex; ++i)
    if (func.getArgAttr(i, AMPDialect::kNameAttrName) == name)
      return op->emitError() << "arguments " << i << " and " << argIndex
                             << " are both named " << name;
  return success();
}

LogicalResult AMPDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kParamAttrName && name != kStateAttrName &&
      name != kScalerAttrName && name != kWorkingCopyOfAttrName &&
      name != kNameAttrName)
    return op->emitError() << "'" << name
                           << "' is not valid on an argument (argument "
                           << argIndex << ")";
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitError() << "'" << name
                           << "' is only valid on a function argument";
  if (name == kNameAttrName)
    return verifyNameArgument(func, argIndex, attr.getValue());
  Type type = func.getArgumentTypes()[argIndex];
  if (name == kScalerAttrName)
    return verifyScalerArgument(op, argIndex, attr.getValue(), type);
  if (name == kWorkingCopyOfAttrName)
    return verifyWorkingCopyArgument(func, argIndex, attr.getValue());
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitError() << "'" << name << "' must be a unit attribute";
  if (!isFloatValueType(type))
    return op->emitError() << "'" << name << "' argument " << argIndex
                           << " must be a float scalar or tensor, got " << type;
  if (func.getArgAttr(argIndex, kParamAttrName) &&
      func.getArgAttr(argIndex, kStateAttrName))
    return op->emitError() << "argument " << argIndex << " cannot be both '"
                           << kParamAttrName << "' and '" << kStateAttrName
                           << "'";
  return success();
}

LogicalResult AMPDialect::verifyRegionResultAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != kLossAttrName && name != kUpdateOfAttrName &&
      name != kFoundInfAttrName)
    return op->emitError() << "'" << name
                           << "' is not valid on a result (result "
                           << resultIndex << ")";
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func)
    return op->emitError() << "'" << name
                           << "' is only valid on a function result";
  Type type = func.getResultTypes()[resultIndex];
  if (name == kFoundInfAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    if (!isScalarTensorOf(type, IntegerType::get(op->getContext(), 1)))
      return op->emitError() << "'" << name << "' result " << resultIndex
                             << " must be a tensor<i1>, got " << type;
    return success();
  }
  if (name == kLossAttrName) {
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitError() << "'" << name << "' must be a unit attribute";
    if (!isFloatValueType(type) || !isSingleElement(type))
      return op->emitError() << "'" << name << "' result " << resultIndex
                             << " must be a single-element float, got " << type;
    if (func.getResultAttr(resultIndex, kUpdateOfAttrName))
      return op->emitError() << "result " << resultIndex
                             << " cannot be both the loss and an update";
    return success();
  }
  auto index = dyn_cast<IntegerAttr>(attr.getValue());
  if (!index)
    return op->emitError() << "'" << name
                           << "' must be an integer argument index";
  int64_t arg = index.getInt();
  int64_t numArgs = func.getNumArguments();
  if (arg < 0 || arg >= numArgs)
    return op->emitError() << "'" << name << "' of result " << resultIndex
                           << " names argument " << arg
                           << ", but the function has " << numArgs
                           << " arguments";
  if (!func.getArgAttr(arg, kParamAttrName) &&
      !func.getArgAttr(arg, kStateAttrName) &&
      !func.getArgAttr(arg, kScalerAttrName) &&
      !func.getArgAttr(arg, kWorkingCopyOfAttrName))
    return op->emitError() << "'" << name << "' of result " << resultIndex
                           << " names argument " << arg
                           << ", which is not a param, state, scaler or "
                              "working copy";
  Type argType = func.getArgumentTypes()[arg];
  if (argType != type)
    return op->emitError() << "'" << name << "' result " << resultIndex
                           << " has type " << type << " but argument " << arg
                           << " has type " << argType;
  return success();
}
