//===- Artifact.cpp - compile a training module to a CPU or CUDA artifact -===//

#include "amp/Target/Artifact.h"

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Dialect/AMP/IR/LossScaling.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/TrainingTransforms.h"

#include "amp_artifact.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;
using namespace mlir::amp;

// The shim below is written for this version of amp_artifact.h: a change to
// the ABI must revisit generateShim (and python/amp_mlir/runtime.py).
static_assert(AMP_ARTIFACT_ABI_VERSION == 6,
              "amp_artifact.h changed: update the shim writer");

/// The C enumerator of `dtype` in amp_artifact.h (the shim includes it).
static StringRef getEnumeratorName(amp_dtype dtype) {
  switch (dtype) {
  case AMP_F32:
    return "AMP_F32";
  case AMP_F16:
    return "AMP_F16";
  case AMP_BF16:
    return "AMP_BF16";
  case AMP_I32:
    return "AMP_I32";
  case AMP_I1:
    return "AMP_I1";
  case AMP_F64:
    return "AMP_F64";
  case AMP_I64:
    return "AMP_I64";
  }
  llvm_unreachable("unhandled amp_dtype");
}

static StringRef getEnumeratorName(amp_role role) {
  switch (role) {
  case AMP_ROLE_DATA:
    return "AMP_ROLE_DATA";
  case AMP_ROLE_PARAM:
    return "AMP_ROLE_PARAM";
  case AMP_ROLE_STATE:
    return "AMP_ROLE_STATE";
  case AMP_ROLE_SCALE:
    return "AMP_ROLE_SCALE";
  case AMP_ROLE_GROWTH:
    return "AMP_ROLE_GROWTH";
  case AMP_ROLE_HYSTERESIS:
    return "AMP_ROLE_HYSTERESIS";
  case AMP_ROLE_WORKING_COPY:
    return "AMP_ROLE_WORKING_COPY";
  case AMP_ROLE_LOSS:
    return "AMP_ROLE_LOSS";
  case AMP_ROLE_UPDATE:
    return "AMP_ROLE_UPDATE";
  case AMP_ROLE_FOUND_INF:
    return "AMP_ROLE_FOUND_INF";
  case AMP_ROLE_OUTPUT:
    return "AMP_ROLE_OUTPUT";
  }
  llvm_unreachable("unhandled amp_role");
}

namespace {
/// One argument or result as the artifact describes it.
struct TensorInfo {
  amp_dtype dtype = AMP_F32;
  amp_role role = AMP_ROLE_DATA;
  int64_t target = -1;
  SmallVector<int64_t> shape;
  // `amp.name` (verified to need no escaping in C), else "arg<N>" or
  // "result<N>".
  std::string name;
  // An update written into its target argument's buffer (the lowering
  // dropped the result): the shim passes no buffer for it.
  bool inPlace = false;
};

struct FunctionInfo {
  std::string name;
  SmallVector<TensorInfo> args;
  SmallVector<TensorInfo> results;
  float initialScale = 0.0f;
  int64_t initialHysteresis = 0;
  // amp-plan-step-memory's workspace (a trailing i8 buffer), 0 if none.
  int64_t workspaceBytes = 0;
  // The function that writes the workspace's constants, if any.
  std::string workspaceInit;
};
} // namespace

/// The artifact's dtype of an element type, if it carries it.
static std::optional<amp_dtype> getArtifactDType(Type type) {
  if (type.isF32())
    return AMP_F32;
  if (type.isF16())
    return AMP_F16;
  if (type.isBF16())
    return AMP_BF16;
  if (type.isF64())
    return AMP_F64;
  if (type.isInteger(32))
    return AMP_I32;
  if (type.isInteger(64))
    return AMP_I64;
  if (type.isInteger(1))
    return AMP_I1;
  return std::nullopt;
}

static FailureOr<TensorInfo> describe(func::FuncOp func, Type type,
                                      DictionaryAttr attrs, bool isResult,
                                      unsigned index) {
  TensorInfo info;
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return func.emitError()
           << "amp-compile: " << (isResult ? "result " : "argument ") << index
           << " of @" << func.getName() << " has type " << type
           << "; the artifact ABI needs statically shaped tensors";
  std::optional<amp_dtype> dtype = getArtifactDType(tensor.getElementType());
  if (!dtype)
    return func.emitError()
           << "amp-compile: " << (isResult ? "result " : "argument ") << index
           << " of @" << func.getName() << " has element type "
           << tensor.getElementType()
           << ", which the artifact ABI does not carry";
  info.dtype = *dtype;
  llvm::append_range(info.shape, tensor.getShape());
  auto get = [&](StringRef name) {
    return attrs ? attrs.get(name) : Attribute();
  };
  info.role = isResult ? AMP_ROLE_OUTPUT : AMP_ROLE_DATA;
  if (get(AMPDialect::kParamAttrName))
    info.role = AMP_ROLE_PARAM;
  else if (get(AMPDialect::kStateAttrName))
    info.role = AMP_ROLE_STATE;
  else if (get(AMPDialect::kLossAttrName))
    info.role = AMP_ROLE_LOSS;
  else if (get(AMPDialect::kFoundInfAttrName))
    info.role = AMP_ROLE_FOUND_INF;
  else if (auto role =
               dyn_cast_or_null<StringAttr>(get(AMPDialect::kScalerAttrName)))
    info.role = role.getValue() == "scale"            ? AMP_ROLE_SCALE
                : role.getValue() == "growth_tracker" ? AMP_ROLE_GROWTH
                                                      : AMP_ROLE_HYSTERESIS;
  else if (auto copy = dyn_cast_or_null<IntegerAttr>(
               get(AMPDialect::kWorkingCopyOfAttrName))) {
    info.role = AMP_ROLE_WORKING_COPY;
    info.target = copy.getInt();
  }
  if (auto update =
          dyn_cast_or_null<IntegerAttr>(get(AMPDialect::kUpdateOfAttrName))) {
    info.role = AMP_ROLE_UPDATE;
    info.target = update.getInt();
  }
  if (auto name = dyn_cast_or_null<StringAttr>(get(AMPDialect::kNameAttrName)))
    info.name = name.getValue().str();
  else
    info.name = (isResult ? "result" : "arg") + std::to_string(index);
  return info;
}

/// Reads what the shim must describe, and prepares the functions for the
/// C interface (read-only arguments, `_mlir_ciface_` wrappers).
static FailureOr<std::vector<FunctionInfo>>
collectFunctions(ModuleOp module, bool updateInPlace) {
  std::vector<FunctionInfo> functions;
  MLIRContext *context = module.getContext();
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal() || func.isPrivate())
      continue;
    FunctionInfo info;
    info.name = func.getName().str();
    for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
      FailureOr<TensorInfo> arg = describe(func, func.getArgumentTypes()[i],
                                           func.getArgAttrDict(i), false, i);
      if (failed(arg))
        return FailureOr<std::vector<FunctionInfo>>(failure());
      for (auto [j, earlier] : llvm::enumerate(info.args))
        if (earlier.name == arg->name)
          return func.emitError()
                 << "amp-compile: arguments " << j << " and " << i
                 << " of @" << func.getName() << " are both called '"
                 << arg->name << "' (an unnamed argument N is called argN): "
                 << "give one another '" << AMPDialect::kNameAttrName << "'";
      info.args.push_back(*arg);
      func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                      BoolAttr::get(context, false));
    }
    for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
      FailureOr<TensorInfo> result = describe(
          func, func.getResultTypes()[i], func.getResultAttrDict(i), true, i);
      if (failed(result))
        return FailureOr<std::vector<FunctionInfo>>(failure());
      result->inPlace =
          updateInPlace && getInPlaceUpdateTarget(func, i).has_value();
      info.results.push_back(*result);
    }
    if (auto scale =
            func->getAttrOfType<FloatAttr>(AMPDialect::kInitialScaleAttrName))
      info.initialScale = scale.getValueAsDouble();
    else if (llvm::any_of(info.args, [](const TensorInfo &arg) {
               return arg.role == AMP_ROLE_SCALE;
             }))
      info.initialScale = LossScalingConfig::kDefaultScale;
    if (auto hysteresis = func->getAttrOfType<IntegerAttr>(
            AMPDialect::kInitialHysteresisAttrName))
      info.initialHysteresis = hysteresis.getInt();
    // The markers are in the tables now; the lowering pipeline drops them.
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(context));
    functions.push_back(std::move(info));
  }
  if (functions.empty()) {
    module.emitError("amp-compile: the module has no public function to "
                     "compile");
    return FailureOr<std::vector<FunctionInfo>>(failure());
  }
  return functions;
}

/// The C shim: memref descriptors built from dense buffers, and the tables
/// of amp_artifact.h.
static std::string generateShim(const std::vector<FunctionInfo> &functions,
                                ArtifactTarget target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "/* Generated by amp-compile. */\n#include \"amp_artifact.h\"\n";
  if (target == ArtifactTarget::CUDA)
    os << "#include \"amprt_cuda.h\"\n";
  os << "\n";
  llvm::SmallSet<int64_t, 4> ranks;
  for (const FunctionInfo &f : functions) {
    for (const TensorInfo &t : f.args)
      ranks.insert(t.shape.size());
    for (const TensorInfo &t : f.results)
      ranks.insert(t.shape.size());
    if (f.workspaceBytes)
      ranks.insert(1);
  }
  for (int64_t rank : ranks) {
    os << "typedef struct { void *allocated; void *aligned; int64_t offset;";
    if (rank > 0)
      os << " int64_t sizes[" << rank << "]; int64_t strides[" << rank << "];";
    os << " } desc" << rank << ";\n";
  }
  os << "\n";
  for (const FunctionInfo &f : functions) {
    // The compiled function's parameters, each with its buffer's index.
    SmallVector<std::pair<size_t, const TensorInfo *>> all;
    for (const TensorInfo &t : f.args)
      all.emplace_back(all.size(), &t);
    for (auto [r, t] : llvm::enumerate(f.results))
      if (!t.inPlace)
        all.emplace_back(f.args.size() + r, &t);
    TensorInfo workspace;
    workspace.shape = {f.workspaceBytes};
    if (f.workspaceBytes)
      all.emplace_back(f.args.size() + f.results.size(), &workspace);
    os << "extern void _mlir_ciface_" << f.name << "(";
    for (auto [i, entry] : llvm::enumerate(all))
      os << (i ? ", " : "") << "desc" << entry.second->shape.size() << " *";
    os << ");\n\n";
    os << "static int32_t call_" << f.name << "(void **buffers) {\n";
    for (auto [i, entry] : llvm::enumerate(all)) {
      auto [buffer, t] = entry;
      os << "  desc" << t->shape.size() << " d" << i << " = {buffers[" << buffer
         << "], buffers[" << buffer << "], 0";
      if (!t->shape.empty()) {
        os << ", {";
        for (auto [j, size] : llvm::enumerate(t->shape))
          os << (j ? ", " : "") << size << "LL";
        os << "}, {";
        int64_t stride = 1;
        SmallVector<int64_t> strides(t->shape.size());
        for (int64_t j = t->shape.size() - 1; j >= 0; --j) {
          strides[j] = stride;
          stride *= t->shape[j];
        }
        for (auto [j, s] : llvm::enumerate(strides))
          os << (j ? ", " : "") << s << "LL";
        os << "}";
      }
      os << "};\n";
    }
    os << "  _mlir_ciface_" << f.name << "(";
    for (size_t i = 0; i < all.size(); ++i)
      os << (i ? ", " : "") << "&d" << i;
    os << ");\n  return 0;\n}\n\n";
    if (!f.workspaceInit.empty())
      os << "extern void _mlir_ciface_" << f.workspaceInit << "(desc1 *);\n"
         << "static int32_t init_" << f.name << "(void *workspace) {\n"
         << "  desc1 d = {workspace, workspace, 0, {" << f.workspaceBytes
         << "LL}, {1LL}};\n  _mlir_ciface_" << f.workspaceInit
         << "(&d);\n  return 0;\n}\n\n";

    auto table = [&](StringRef kind, ArrayRef<TensorInfo> tensors) {
      for (auto [i, t] : llvm::enumerate(tensors)) {
        os << "static const int64_t shape_" << f.name << "_" << kind << i
           << "[] = {";
        for (auto [j, size] : llvm::enumerate(t.shape))
          os << (j ? ", " : "") << size << "LL";
        if (t.shape.empty())
          os << "0";
        os << "};\n";
      }
      os << "static const amp_tensor_info " << kind << "_" << f.name
         << "[] = {\n";
      for (auto [i, t] : llvm::enumerate(tensors))
        os << "  {" << getEnumeratorName(t.dtype) << ", "
           << getEnumeratorName(t.role) << ", " << t.target << ", "
           << t.shape.size() << ", shape_" << f.name << "_" << kind << i
           << ", \"" << t.name << "\", " << (t.inPlace ? 1 : 0) << "},\n";
      if (tensors.empty())
        os << "  {AMP_F32, AMP_ROLE_DATA, -1, 0, 0, \"\", 0},\n";
      os << "};\n";
    };
    table("args", f.args);
    table("results", f.results);
    os << "\n";
  }
  os << "static const amp_function_info functions[] = {\n";
  for (const FunctionInfo &f : functions)
    os << "  {\"" << f.name << "\", " << f.args.size() << ", args_" << f.name
       << ", " << f.results.size() << ", results_" << f.name << ", "
       << llvm::format("%.9e", f.initialScale) << "f, " << f.initialHysteresis
       << ", call_" << f.name << ", " << f.workspaceBytes << "ULL, "
       << (f.workspaceInit.empty() ? "0" : "init_" + f.name) << "},\n";
  os << "};\n\n";
  os << "int32_t amp_artifact_abi_version(void) { return "
        "AMP_ARTIFACT_ABI_VERSION; }\n";
  os << "const amp_function_info *amp_artifact_functions(int32_t *count) {\n"
     << "  *count = " << functions.size() << ";\n  return functions;\n}\n";
  if (target == ArtifactTarget::CUDA)
    os << "\n/* Buffers live in device memory: the runtime allocates them "
          "and copies through here. */\n"
       << "void *amp_artifact_alloc(uint64_t bytes) { return "
          "amprt_cuda_alloc(bytes); }\n"
       << "void amp_artifact_free(void *pointer) { amprt_cuda_free(pointer); "
          "}\n"
       << "void *amp_artifact_host_alloc(uint64_t bytes) { return "
          "amprt_cuda_host_alloc(bytes); }\n"
       << "void amp_artifact_host_free(void *pointer) { "
          "amprt_cuda_host_free(pointer); }\n"
       << "void amp_artifact_copy_to_device(void *device, const void *host, "
          "uint64_t bytes) { amprt_cuda_copy_to_device(device, host, bytes); "
          "}\n"
       << "void amp_artifact_copy_to_host(void *host, const void *device, "
          "uint64_t bytes) { amprt_cuda_copy_to_host(host, device, bytes); "
          "}\n"
       << "void amp_artifact_synchronize(void) { amprt_cuda_synchronize(); "
          "}\n"
       << "int32_t amp_artifact_capture_begin(void) { return "
          "amprt_cuda_capture_begin(); }\n"
       << "void *amp_artifact_capture_end(void) { return "
          "amprt_cuda_capture_end(); }\n"
       << "void amp_artifact_graph_launch(void *graph) { "
          "amprt_cuda_graph_launch(graph); }\n"
       << "void amp_artifact_graph_destroy(void *graph) { "
          "amprt_cuda_graph_destroy(graph); }\n";
  return text;
}

static LogicalResult closeChecked(ModuleOp module, llvm::raw_fd_ostream &os,
                                  StringRef path);

/// Appends amp_artifact.h's trailer (CRC-32 and size of everything before
/// it) to the linked shared object at `path`.
static LogicalResult appendTrailer(ModuleOp module, StringRef path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> linked =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/false);
  if (!linked)
    return emitError(module.getLoc())
           << "amp-compile: cannot read " << path << ": "
           << linked.getError().message();
  StringRef bytes = (*linked)->getBuffer();
  amp_artifact_trailer trailer = {};
  trailer.crc32 = llvm::crc32(llvm::arrayRefFromStringRef(bytes));
  trailer.size = bytes.size();
  static_assert(sizeof(AMP_ARTIFACT_TRAILER_MAGIC) - 1 == sizeof(trailer.magic),
                "the trailer magic is 8 bytes");
  std::memcpy(trailer.magic, AMP_ARTIFACT_TRAILER_MAGIC, sizeof(trailer.magic));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Append);
  if (ec)
    return emitError(module.getLoc())
           << "amp-compile: cannot write " << path << ": " << ec.message();
  os.write(reinterpret_cast<const char *>(&trailer), sizeof(trailer));
  return closeChecked(module, os, path);
}

/// Closes `os` and reports a write error (a full disk) on `module`.
static LogicalResult closeChecked(ModuleOp module, llvm::raw_fd_ostream &os,
                                  StringRef path) {
  os.close();
  if (!os.has_error())
    return success();
  std::error_code ec = os.error();
  os.clear_error();
  return emitError(module.getLoc())
         << "amp-compile: cannot write " << path << ": " << ec.message();
}

/// Compiles LLVM IR to an object file for the host.
static LogicalResult emitObject(ModuleOp module, llvm::Module &llvmModule,
                                StringRef path, unsigned optLevel) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  llvm::Triple triple(llvm::sys::getDefaultTargetTriple());
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return module.emitError() << "amp-compile: no LLVM target for "
                              << triple.str() << ": " << error;
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  SmallVector<std::string> features;
  for (auto &feature : hostFeatures)
    features.push_back((feature.second ? "+" : "-") + feature.first().str());
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, llvm::sys::getHostCPUName(), llvm::join(features, ","),
      llvm::TargetOptions(), llvm::Reloc::PIC_));
  llvmModule.setDataLayout(machine->createDataLayout());
  llvmModule.setTargetTriple(triple);
  if (llvm::Error err =
          makeOptimizingTransformer(optLevel, 0, machine.get())(&llvmModule))
    return module.emitError() << "amp-compile: LLVM optimization failed: "
                              << llvm::toString(std::move(err));
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return module.emitError()
           << "amp-compile: cannot write " << path << ": " << ec.message();
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, os, nullptr,
                                   llvm::CodeGenFileType::ObjectFile))
    return module.emitError("amp-compile: the target cannot emit objects");
  passes.run(llvmModule);
  return closeChecked(module, os, path);
}

LogicalResult mlir::amp::compileToArtifact(ModuleOp module,
                                           const ArtifactOptions &options) {
  FailureOr<std::vector<FunctionInfo>> functions =
      collectFunctions(module, options.updateInPlace);
  if (failed(functions))
    return failure();

  PassManager pm(module.getContext());
  bool cuda = options.target == ArtifactTarget::CUDA;
  if (cuda) {
    AMPLowerToCUDAOptions cudaOptions;
    cudaOptions.chip = options.cudaChip;
    if (!options.cudaToolkit.empty())
      cudaOptions.toolkit = options.cudaToolkit;
    // amp_artifact.h (v4): a device artifact's call queues its work;
    // libamprt waits once, after copying the results it reads back.
    cudaOptions.waitBeforeReturn = false;
    cudaOptions.updateInPlace = options.updateInPlace;
    buildAMPLowerToCUDAPipeline(pm, cudaOptions);
  } else {
    // Host code is compiled for this machine's CPU (emitObject).
    AMPLowerToCPUOptions cpuOptions;
    // AVX512-BF16 or AVX-NE-CONVERT: an instruction that rounds to bf16.
    llvm::StringMap<bool> host = llvm::sys::getHostCPUFeatures();
    cpuOptions.nativeBF16 =
        host.lookup("avx512bf16") || host.lookup("avxneconvert");
    cpuOptions.planMemory = options.planMemory;
    cpuOptions.updateInPlace = options.updateInPlace;
    if (options.target == ArtifactTarget::CUDAEmulated)
      buildAMPLowerToEmulatedCUDAPipeline(pm, cpuOptions);
    else
      buildAMPLowerToCPUPipeline(pm, cpuOptions);
  }
  if (failed(pm.run(module)))
    return module.emitError("amp-compile: lowering to LLVM failed");
  for (FunctionInfo &f : *functions) {
    auto func = module.lookupSymbol<LLVM::LLVMFuncOp>(f.name);
    if (!func)
      continue;
    if (auto bytes = func->getAttrOfType<IntegerAttr>(
            AMPDialect::kWorkspaceBytesAttrName))
      f.workspaceBytes = bytes.getInt();
    if (auto init = func->getAttrOfType<FlatSymbolRefAttr>(
            AMPDialect::kWorkspaceInitAttrName))
      f.workspaceInit = init.getValue().str();
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, "amp_artifact");
  if (!llvmModule)
    return module.emitError("amp-compile: translation to LLVM IR failed");

  // Intermediates go next to the output when kept, else to a temp dir.
  SmallString<128> workDir;
  if (options.keepIntermediates) {
    workDir = llvm::sys::path::parent_path(options.outputPath);
    if (workDir.empty())
      workDir = ".";
  } else if (llvm::sys::fs::createUniqueDirectory("amp-compile", workDir)) {
    return module.emitError("amp-compile: cannot create a temporary directory");
  }
  StringRef stem = llvm::sys::path::stem(options.outputPath);
  SmallString<128> objectPath(workDir), shimPath(workDir);
  llvm::sys::path::append(objectPath, stem + ".o");
  llvm::sys::path::append(shimPath, stem + ".shim.c");
  llvm::scope_exit cleanup([&] {
    if (options.keepIntermediates)
      return;
    llvm::sys::fs::remove(objectPath);
    llvm::sys::fs::remove(shimPath);
    llvm::sys::fs::remove(workDir);
  });

  if (failed(emitObject(module, *llvmModule, objectPath, options.optLevel)))
    return failure();
  {
    std::error_code ec;
    llvm::raw_fd_ostream shim(shimPath, ec, llvm::sys::fs::OF_Text);
    if (ec)
      return module.emitError() << "amp-compile: cannot write " << shimPath
                                << ": " << ec.message();
    shim << generateShim(*functions, options.target);
    if (failed(closeChecked(module, shim, shimPath)))
      return failure();
  }

  if (cuda &&
      !llvm::sys::fs::exists(options.runtimeLibraryDir + "/libamprt_cuda.so"))
    return module.emitError()
           << "amp-compile: no libamprt_cuda.so in "
           << options.runtimeLibraryDir
           << ": this build has no CUDA runtime (no CUDA toolkit was found "
              "when it was configured)";
  std::string compiler = options.cCompiler;
  if (compiler.empty()) {
    for (StringRef candidate : {"cc", "clang-14", "gcc", "clang"})
      if (auto found = llvm::sys::findProgramByName(candidate)) {
        compiler = *found;
        break;
      }
  }
  if (compiler.empty())
    return module.emitError("amp-compile: no C compiler (cc) on PATH to link "
                            "the artifact");
  // The artifact depends on libamprt for the GEMMs of its contractions and
  // memrefCopy (strided host copies); a CUDA artifact also on libamprt_cuda
  // for its GEMMs, kernel launches and managed memory.
  // Linked next to the output and renamed over it once complete: a failed
  // compile leaves an existing artifact untouched. Only a file is replaced.
  llvm::sys::fs::file_status outputStatus;
  if (!llvm::sys::fs::status(options.outputPath, outputStatus) &&
      outputStatus.type() != llvm::sys::fs::file_type::regular_file)
    return emitError(module.getLoc())
           << "amp-compile: cannot write " << options.outputPath
           << ": not a regular file";
  SmallString<128> partial;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          options.outputPath + "-%%%%%%.partial", partial))
    return module.emitError() << "amp-compile: cannot write next to "
                              << options.outputPath << ": " << ec.message();
  llvm::scope_exit removePartial([&] { llvm::sys::fs::remove(partial); });
  std::string include = "-I" + options.runtimeIncludeDir;
  std::string libDir = "-L" + options.runtimeLibraryDir;
  std::string rpath = "-Wl,-rpath," + options.runtimeLibraryDir;
  SmallVector<StringRef> argv = {compiler,   "-shared", "-fPIC",
                                 "-O2",      include,   shimPath,
                                 objectPath, "-o",      partial,
                                 libDir,     rpath};
  if (cuda)
    argv.push_back("-lamprt_cuda");
  argv.append({"-lamprt", "-lm"});
  std::string error;
  int status =
      llvm::sys::ExecuteAndWait(compiler, argv, std::nullopt, {}, 0, 0, &error);
  if (status != 0)
    return module.emitError() << "amp-compile: linking with " << compiler
                              << " failed (status " << status << ") " << error;
  if (failed(appendTrailer(module, partial)))
    return failure();
  if (std::error_code ec = llvm::sys::fs::rename(partial, options.outputPath))
    return module.emitError() << "amp-compile: cannot write "
                              << options.outputPath << ": " << ec.message();
  return success();
}
