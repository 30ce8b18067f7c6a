/* Drives the amp passes from C through MLIR's C API, as a host compiler
 * would: register the dialects and our passes, parse a training step, run
 * amp-pipeline from a textual pipeline, print the result. Checked by
 * test/CAPI/capi.test. Usage: amp-capi-test FILE.mlir */
#include "amp-c/AMP.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/RegisterEverything.h"

#include <stdio.h>
#include <stdlib.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: amp-capi-test FILE.mlir\n");
    return 2;
  }
  FILE *file = fopen(argv[1], "rb");
  if (!file)
    return 2;
  static char source[1 << 20];
  size_t size = fread(source, 1, sizeof(source) - 1, file);
  fclose(file);
  source[size] = 0;

  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext context = mlirContextCreateWithRegistry(registry, false);
  mlirDialectHandleRegisterDialect(mlirGetDialectHandle__amp__(), context);
  ampRegisterPasses();
  ampRegisterPasses(); /* twice is harmless */

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(source));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "parse failed\n");
    return 1;
  }
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult parsed = mlirParsePassPipeline(
      opm,
      mlirStringRefCreateFromCString(
          "builtin.module(amp-pipeline{precision=f16 cache-working-copy})"),
      print, stderr);
  if (mlirLogicalResultIsFailure(parsed))
    return 1;
  if (mlirLogicalResultIsFailure(
          mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
    fprintf(stderr, "amp-pipeline failed\n");
    return 1;
  }
  mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
  printf("\n");
  mlirPassManagerDestroy(pm);
  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  mlirDialectRegistryDestroy(registry);
  return 0;
}
