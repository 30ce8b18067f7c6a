//===- amp-compile.cpp - FP32 training graph to a runnable artifact -------===//
//
//   amp-compile model.mlir -o model.so [--precision=f32|f16|bf16]
//               [--target=cpu|cuda] [--cuda-chip=sm_90]
//               [--amp-options="loss-scaling=static scale=1024 ..."]
//
// Runs --amp-pipeline (unless --precision=f32), lowers for the CPU or for
// CUDA and links a shared object with the C ABI of
// runtime/include/amp_artifact.h.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAMP.h"

#include "amp/Pipelines/Pipelines.h"
#include "amp/Target/Artifact.h"
#include "amp/Transforms/Passes.h"
#include <csignal>

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;

// --help lists these, not the hundreds of options LLVM's libraries register.
static llvm::cl::OptionCategory ampCompileCategory("amp-compile options");

static llvm::cl::opt<std::string> inputFile(llvm::cl::Positional,
                                            llvm::cl::desc("<input.mlir>"),
                                            llvm::cl::Required,
                                            llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string> outputFile("o",
                                             llvm::cl::desc("Output artifact"),
                                             llvm::cl::value_desc("file.so"),
                                             llvm::cl::Required,
                                             llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<amp::ArtifactTarget, false,
                     amp::ChoiceParser<amp::ArtifactTarget>>
    target("target", llvm::cl::desc("What the artifact runs on"),
           llvm::cl::init(amp::ArtifactTarget::CPU), amp::kArtifactTargets,
           llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string>
    cudaChip("cuda-chip", llvm::cl::desc("GPU architecture for --target=cuda"),
             llvm::cl::init(amp::AMPLowerToCUDAOptions::kDefaultChip),
             llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string> cudaToolkit(
    "cuda-toolkit",
    llvm::cl::desc("CUDA toolkit (ptxas, fatbinary, libdevice) for "
                   "--target=cuda"),
    llvm::cl::init(amp::AMPLowerToCUDAOptions::getDefaultCUDAToolkitPath()),
    llvm::cl::cat(ampCompileCategory));
// `--precision=f32` compiles the graph as written: a value outside the
// pipeline's low precisions.
static constexpr amp::LowPrecision kNoMixedPrecision =
    static_cast<amp::LowPrecision>(-1);
static constexpr llvm::cl::OptionEnumValue kNoMixedPrecisionTable[] = {
    clEnumValN(kNoMixedPrecision, "f32", "no mixed precision")};
static llvm::cl::opt<amp::LowPrecision, false,
                     amp::ChoiceParser<amp::LowPrecision>>
    precision("precision",
              llvm::cl::desc("The low precision of --amp-pipeline"),
              llvm::cl::init(amp::kDefaultLowPrecision),
              amp::EnumChoices<amp::LowPrecision>(kNoMixedPrecisionTable),
              amp::kLowPrecisions, llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string> ampOptions(
    "amp-options",
    llvm::cl::desc("More --amp-pipeline options, e.g. \"loss-scaling=none\""),
    llvm::cl::init(""), llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<bool> dataParallel(
    "data-parallel",
    llvm::cl::desc("Average gradients over the ranks of a data-parallel run "
                   "(--amp-options=data-parallel; also at --precision=f32)"),
    llvm::cl::init(false), llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string> emitMLIR(
    "emit-mlir",
    llvm::cl::desc("Also write the mixed-precision module (before lowering) "
                   "to this file"),
    llvm::cl::init(""), llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<bool> planMemory(
    "plan-memory",
    llvm::cl::desc("CPU: the step's buffers in one workspace planned by "
                   "liveness, allocated once per session (=false: each "
                   "buffer from libamprt's step allocator)"),
    llvm::cl::init(amp::ArtifactOptions().planMemory),
    llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<bool> updateInPlace(
    "update-in-place",
    llvm::cl::desc("Write parameter and optimizer-state updates into the "
                   "arguments' own buffers, as PyTorch's optimizers do "
                   "(=false: each update in a result buffer of its own, "
                   "which the session swaps with the argument's)"),
    llvm::cl::init(amp::ArtifactOptions().updateInPlace),
    llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<bool>
    keepIntermediates("keep-intermediates",
                      llvm::cl::desc("Keep the object and the C shim"),
                      llvm::cl::init(false), llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string>
    runtimeLibrary("runtime-lib", llvm::cl::desc("Directory of libamprt.so"),
                   llvm::cl::init(AMP_RUNTIME_LIBRARY_DIR),
                   llvm::cl::cat(ampCompileCategory));
static llvm::cl::opt<std::string> runtimeInclude(
    "runtime-include", llvm::cl::desc("Directory of amp_artifact.h"),
    llvm::cl::init(AMP_RUNTIME_INCLUDE_DIR), llvm::cl::cat(ampCompileCategory));

int main(int argc, char **argv) {
  // A file size limit fails a write with a reason instead of killing the
  // process. Blocked rather than ignored: LLVM's crash handlers, installed
  // later, take over the signal's disposition but not the mask.
  sigset_t fileSizeSignal;
  sigemptyset(&fileSizeSignal);
  sigaddset(&fileSizeSignal, SIGXFSZ);
  sigprocmask(SIG_BLOCK, &fileSizeSignal, nullptr);
  llvm::InitLLVM init(argc, argv);
  registerAllPasses();
  amp::registerAllAMPPasses();
  llvm::cl::HideUnrelatedOptions(ampCompileCategory);
  llvm::cl::ParseCommandLineOptions(
      argc, argv, "amp-compile: FP32 training graph -> CPU or CUDA artifact\n");

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  amp::registerAMPDialect(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);

  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << "amp-compile: " << error << "\n";
    return 1;
  }
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(input), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;

  {
    std::unique_ptr<amp::AMPPipelineOptions> pipelineOptions =
        amp::AMPPipelineOptions::createFromString(ampOptions);
    if (!pipelineOptions) {
      llvm::errs() << "amp-compile: bad --amp-options '" << ampOptions << "'\n";
      return 1;
    }
    // A precision inside --amp-options wins, as it always has.
    if (!pipelineOptions->precision.hasValue())
      pipelineOptions->precision = precision;
    // On the GPU the optimizer writes each weight's f16/bf16 copy, step
    // state, instead of a kernel casting every weight again at the start of
    // each step (cache-working-copy=false in --amp-options casts).
    if (!pipelineOptions->cacheWorkingCopy.hasValue())
      pipelineOptions->cacheWorkingCopy =
          target == amp::ArtifactTarget::CUDA ||
          target == amp::ArtifactTarget::CUDAEmulated;
    pipelineOptions->dataParallel =
        pipelineOptions->dataParallel || dataParallel;
    PassManager pm(&context);
    // Without mixed precision only the data-parallel options apply.
    if (precision != kNoMixedPrecision)
      amp::buildAMPPipeline(pm, *pipelineOptions);
    else
      amp::addDataParallelPass(pm, *pipelineOptions);
    if (failed(pm.run(*module)))
      return 1;
  }
  if (!emitMLIR.empty()) {
    std::unique_ptr<llvm::ToolOutputFile> out =
        openOutputFile(emitMLIR, &error);
    if (!out) {
      llvm::errs() << "amp-compile: " << error << "\n";
      return 1;
    }
    module->print(out->os());
    out->os().flush();
    if (out->os().has_error()) {
      llvm::errs() << "amp-compile: cannot write " << emitMLIR << ": "
                   << out->os().error().message() << "\n";
      out->os().clear_error();
      return 1;
    }
    out->keep();
  }

  amp::ArtifactOptions options;
  options.target = target;
  options.cudaChip = cudaChip;
  options.cudaToolkit = cudaToolkit;
  options.outputPath = outputFile;
  options.runtimeIncludeDir = runtimeInclude;
  options.runtimeLibraryDir = runtimeLibrary;
  // An installed amp-compile finds the runtime beside it (prefix/bin ->
  // prefix/include, prefix/lib) once the build tree is gone.
  std::string self = llvm::sys::fs::getMainExecutable(argv[0], (void *)&main);
  SmallString<128> prefix =
      llvm::sys::path::parent_path(llvm::sys::path::parent_path(self));
  if (runtimeInclude.getNumOccurrences() == 0 &&
      !llvm::sys::fs::exists(options.runtimeIncludeDir + "/amp_artifact.h"))
    options.runtimeIncludeDir = (prefix + "/include").str();
  std::string runtimeName = target == amp::ArtifactTarget::CUDA
                                ? "/libamprt_cuda.so"
                                : "/libamprt.so";
  if (runtimeLibrary.getNumOccurrences() == 0 &&
      !llvm::sys::fs::exists(options.runtimeLibraryDir + runtimeName))
    options.runtimeLibraryDir = (prefix + "/lib").str();
  options.keepIntermediates = keepIntermediates;
  options.planMemory = planMemory;
  options.updateInPlace = updateInPlace;
  return failed(amp::compileToArtifact(*module, options)) ? 1 : 0;
}
