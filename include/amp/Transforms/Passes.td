//===- Passes.td - amp transformation passes ---------------*- tablegen -*-===//

#ifndef AMP_TRANSFORMS_PASSES_TD
#define AMP_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AutocastPass : Pass<"amp-autocast", "::mlir::ModuleOp"> {
  let summary = "Paint every op low precision or f32 from a policy and insert casts";
  let description = [{
    Rewrites FP32 functions into mixed precision. Every op is put in a
    category by the precision policy:

    * allow: contractions and convolutions; low-precision operands, f32
      accumulation (an f32 result, cast once if its consumers are low);
    * deny: numerically sensitive ops (exp, log, pow, reciprocal, rsqrt,
      sums, softmax); always f32, and they make the infer ops downstream
      of them f32 too (as TF's AutoMixedPrecision does);
    * infer: elementwise ops that run low between low ops, or when all
      their float inputs are low;
    * clear: data movement; follows its neighbours in both directions.

    Painting is one decision per function over forward and backward
    together; casts go only on the boundaries between colours, each value
    is cast at most once per type, casts the input already has are reused,
    and a widening cast is never narrowed again. Everything downstream of
    `amp.grad` (the optimizer) and the ops computing only the `amp.loss`
    result stay f32. Integer, boolean and f64 values are never touched.
    Function signatures are unchanged.

    `amp.keep_f32` and `amp.force_low` on an op override the painting.
    Ops the policy does not know stay f32 and get a remark.

    Policy files are JSON objects whose keys `allow`, `deny`, `infer`,
    `clear` and `remove` each hold a list of op names; `precision` may give
    the target type. Options given on the command line apply after the file.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::tosa::TosaDialect"
  ];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"f16\"",
           "Low-precision type: f16 or bf16">,
    ListOption<"allowOps", "allow", "std::string",
               "Op names moved to the allow category">,
    ListOption<"denyOps", "deny", "std::string",
               "Op names moved to the deny category">,
    ListOption<"inferOps", "infer", "std::string",
               "Op names moved to the infer category">,
    ListOption<"clearOps", "clear", "std::string",
               "Op names moved to the clear category">,
    Option<"policyFile", "policy", "std::string", /*default=*/"\"\"",
           "JSON policy file applied before the list options">,
    Option<"castDialect", "cast-dialect", "std::string", /*default=*/"\"tosa\"",
           "Dialect of the casts inserted on tensors: tosa (tosa.cast) or "
           "arith (arith.truncf/extf)">,
  ];
}

def PrecisionReportPass : Pass<"amp-precision-report", "::mlir::ModuleOp"> {
  let summary = "Print, per function, ops per category and precision, casts "
                "and activation bytes";
  let description = [{
    An analysis that changes nothing: for every function it prints a table
    of ops per policy category and precision (low or f32), the number of
    float casts, and the estimated bytes of float tensor values the
    function produces at their current types beside the same values in
    f32. Run it after `amp-autocast` to see what the rewrite did.
  }];
  let options = [
    Option<"policyFile", "policy", "std::string", /*default=*/"\"\"",
           "JSON policy file used to categorize ops">,
    Option<"outputFile", "output", "std::string", /*default=*/"\"-\"",
           "Where to write the report ('-' for stderr)">,
  ];
}

#endif // AMP_TRANSFORMS_PASSES_TD
