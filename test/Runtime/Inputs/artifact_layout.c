/* Prints the layout of amp_artifact.h as this C compiler sees it, for
 * check_contract.py to compare with python/amp_mlir/runtime.py. */
#include "amp_artifact.h"

#include <stddef.h>
#include <stdio.h>

#define FIELD(S, F) printf("offsetof(%s,%s) %zu\n", #S, #F, offsetof(S, F))
#define VALUE(E) printf("%s %d\n", #E, (int)(E))

int main(void) {
  printf("sizeof(amp_tensor_info) %zu\n", sizeof(amp_tensor_info));
  FIELD(amp_tensor_info, dtype);
  FIELD(amp_tensor_info, role);
  FIELD(amp_tensor_info, target);
  FIELD(amp_tensor_info, rank);
  FIELD(amp_tensor_info, shape);
  FIELD(amp_tensor_info, name);
  FIELD(amp_tensor_info, in_place);
  printf("sizeof(amp_function_info) %zu\n", sizeof(amp_function_info));
  FIELD(amp_function_info, name);
  FIELD(amp_function_info, num_args);
  FIELD(amp_function_info, args);
  FIELD(amp_function_info, num_results);
  FIELD(amp_function_info, results);
  FIELD(amp_function_info, initial_scale);
  FIELD(amp_function_info, initial_hysteresis);
  FIELD(amp_function_info, call);
  FIELD(amp_function_info, workspace_bytes);
  FIELD(amp_function_info, init_workspace);
  VALUE(AMP_ARTIFACT_ABI_VERSION);
  VALUE(AMP_F32);
  VALUE(AMP_F16);
  VALUE(AMP_BF16);
  VALUE(AMP_I32);
  VALUE(AMP_I1);
  VALUE(AMP_F64);
  VALUE(AMP_I64);
  VALUE(AMP_ROLE_DATA);
  VALUE(AMP_ROLE_PARAM);
  VALUE(AMP_ROLE_STATE);
  VALUE(AMP_ROLE_SCALE);
  VALUE(AMP_ROLE_GROWTH);
  VALUE(AMP_ROLE_HYSTERESIS);
  VALUE(AMP_ROLE_WORKING_COPY);
  VALUE(AMP_ROLE_LOSS);
  VALUE(AMP_ROLE_UPDATE);
  VALUE(AMP_ROLE_FOUND_INF);
  VALUE(AMP_ROLE_OUTPUT);
  return 0;
}
