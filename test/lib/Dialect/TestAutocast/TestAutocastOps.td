//===- TestAutocastOps.td - a dialect taught autocast by its interface ---===//
//
// A small dialect outside amp-mlir's own: its ops take part in amp-autocast
// only through the AutocastOpInterface they implement (no policy entry, no
// change to amp-mlir). Registered in amp-opt for the tests, the way
// upstream's mlir-opt registers its test dialect.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TEST_AUTOCAST_OPS_TD
#define AMP_TEST_AUTOCAST_OPS_TD

include "amp/Interfaces/AutocastOpInterface.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TestAutocast_Dialect : Dialect {
  let name = "test_autocast";
  let cppNamespace = "::amp_test";
  let summary = "Ops that teach amp-autocast about themselves";
}

// A float attribute of any float type (the op's verifier says which).
def TestAutocast_AnyFloatAttr : Attr<CPred<"::llvm::isa<::mlir::FloatAttr>($_self)">,
                                     "float attribute"> {
  let storageType = "::mlir::FloatAttr";
  let returnType = "::mlir::FloatAttr";
  let convertFromStorage = "$_self";
}

class TestAutocast_Op<string mnemonic, list<Trait> traits = []>
    : Op<TestAutocast_Dialect, mnemonic, traits # [Pure]>;

def TestAutocast_FmaAccOp : TestAutocast_Op<"fma_acc", [
    SameOperandsAndResultShape,
    DeclareOpInterfaceMethods<AutocastOpInterface,
        ["getDefaultCategory", "isLowOperand", "isAccumulatorResult"]>]> {
  let summary = "acc + lhs * rhs, summed in the type of acc";
  let description = [{
    A contraction-like op: allow by default, its inputs run low while `acc`
    and the result keep the accumulator's type.
  }];
  let arguments = (ins AnyRankedTensor:$lhs, AnyRankedTensor:$rhs,
                       AnyRankedTensor:$acc);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc attr-dict `:` type($lhs) `,` type($rhs) `,`
    type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TestAutocast_ScaleOp : TestAutocast_Op<"scale", [
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<AutocastOpInterface,
        ["getDefaultCategory", "retypeForLowPrecision"]>]> {
  let summary = "input * factor, with a factor typed like the elements";
  let description = [{
    Elementwise: infer by default. Its `factor` attribute must have the
    element type, so running it low needs `retypeForLowPrecision`.
  }];
  let arguments = (ins AnyRankedTensor:$input, TestAutocast_AnyFloatAttr:$factor);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def TestAutocast_SumOp : TestAutocast_Op<"sum", [
    DeclareOpInterfaceMethods<AutocastOpInterface,
        ["getDefaultCategory", "canRunLow"]>]> {
  let summary = "the sum of all elements, accumulated in the result type";
  let description = [{
    Infer by default, but it can never run low: it would accumulate in
    its low result type.
  }];
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
}

def TestAutocast_TagOp : TestAutocast_Op<"tag", [
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<AutocastOpInterface, ["getStructuralCategory"]>]> {
  let summary = "identity that marks a value; kept as written";
  let arguments = (ins AnyRankedTensor:$input);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

#endif // AMP_TEST_AUTOCAST_OPS_TD
