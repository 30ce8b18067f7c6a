//===- amp-opt.cpp - opt-style driver for the amp passes ------------------===//
//
// Registers the amp dialect and passes next to every upstream dialect and
// pass, so that users can mix ours with the usual MLIR pipelines.
//
//===----------------------------------------------------------------------===//

#include "amp/InitAMP.h"

#include <csignal>
#include "amp/Pipelines/Pipelines.h"
#include "amp/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

static int runOptMain(int argc, char **argv);

#ifdef AMP_INCLUDE_TESTS
#include "TestAutocastDialect.h"
#endif

/// The `-o` path among `args` (as `-o PATH`, `-o=PATH` or `--o=PATH`), and
/// where it is, when it names a regular file or nothing yet.
static std::optional<std::pair<int, std::string>>
findOutputPath(llvm::MutableArrayRef<char *> args) {
  for (int i = 1, e = args.size(); i < e; ++i) {
    llvm::StringRef arg = args[i];
    std::optional<std::string> path;
    if ((arg == "-o" || arg == "--o") && i + 1 < e)
      path = args[++i];
    else if (arg.consume_front("-o=") || arg.consume_front("--o="))
      path = arg.str();
    if (!path || *path == "-")
      continue;
    // Devices and pipes are written in place; only files are replaced.
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(*path, status) &&
        status.type() != llvm::sys::fs::file_type::regular_file)
      return std::nullopt;
    return std::make_pair(i, *path);
  }
  return std::nullopt;
}

int main(int argc, char **argv) {
  // A file size limit fails a write with a reason instead of killing the
  // process. Blocked rather than ignored: LLVM's crash handlers, installed
  // later, take over the signal's disposition but not the mask.
  sigset_t fileSizeSignal;
  sigemptyset(&fileSizeSignal);
  sigaddset(&fileSizeSignal, SIGXFSZ);
  sigprocmask(SIG_BLOCK, &fileSizeSignal, nullptr);
  // The output goes to a temporary next to `-o` and is renamed over it only
  // when everything succeeded: a failed run (or a full disk) leaves an
  // existing file as it was.
  std::vector<char *> args(argv, argv + argc);
  std::optional<std::pair<int, std::string>> output = findOutputPath(args);
  llvm::SmallString<128> partial;
  std::string partialArg;
  if (output) {
    if (std::error_code ec = llvm::sys::fs::createUniqueFile(
            output->second + "-%%%%%%.partial", partial)) {
      llvm::errs() << "amp-opt: cannot write next to '" << output->second
                   << "': " << ec.message() << "\n";
      return 1;
    }
    llvm::StringRef arg = args[output->first];
    partialArg = arg.starts_with("-") ? arg.split('=').first.str() + "=" +
                                            partial.str().str()
                                      : partial.str().str();
    args[output->first] = partialArg.data();
  }
  // A write error of the output stream (a full disk) is a fatal error in
  // LLVM: say which file, and leave no partial one behind.
  static std::string outputName, partialName;
  if (output) {
    outputName = output->second;
    partialName = partial.str().str();
    llvm::install_fatal_error_handler(
        [](void *, const char *reason, bool) {
          llvm::sys::fs::remove(partialName);
          llvm::errs() << "amp-opt: cannot write '" << outputName
                       << "': " << reason << "\n";
          std::_Exit(1);
        },
        nullptr);
  }
  int status = runOptMain(static_cast<int>(args.size()), args.data());
  if (output) {
    if (status == 0)
      if (std::error_code ec = llvm::sys::fs::rename(partial, output->second)) {
        llvm::errs() << "amp-opt: cannot write '" << output->second
                     << "': " << ec.message() << "\n";
        status = 1;
      }
    if (status != 0)
      llvm::sys::fs::remove(partial);
  }
  return status;
}

static int runOptMain(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::amp::registerAllAMPPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  // gpu-module-to-binary (amp-lower-to-cuda) translates kernels to LLVM IR.
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::amp::registerAMPDialect(registry);
#ifdef AMP_INCLUDE_TESTS
  // A dialect outside amp-mlir, for the tests of the AutocastOpInterface.
  amp_test::registerTestAutocastDialect(registry);
#endif

  return failed(
             mlir::MlirOptMain(argc, argv, "amp-mlir optimizer driver\n", registry))
             ? 1
             : 0;
}
