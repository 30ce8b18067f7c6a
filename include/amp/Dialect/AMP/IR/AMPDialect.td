//===- AMPDialect.td - the amp dialect ---------------------*- tablegen -*-===//
//
// The amp dialect marks the parts of an FP32 training step (parameters,
// optimizer state, loss, gradients) so that the mixed-precision passes can
// tell forward, backward and optimizer apart.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPDIALECT_TD
#define AMP_DIALECT_AMP_IR_AMPDIALECT_TD

include "mlir/IR/OpBase.td"

def AMP_Dialect : Dialect {
  let name = "amp";
  let cppNamespace = "::mlir::amp";
  let summary = "Training-graph markers for automatic mixed precision";
  let description = [{
    A training step is one `func.func` in FP32 that computes the forward
    pass, the loss, the backward pass and the parameter update. The amp
    dialect marks what each part is so that mixed-precision passes can keep
    master weights in f32, seed the backward pass with the loss scale and
    keep the optimizer in f32 on unscaled gradients.

    Discardable attributes (verified by the dialect):

    | attribute | on | meaning |
    | --- | --- | --- |
    | `amp.param` (unit) | function argument | trainable parameter, an f32 master weight |
    | `amp.state` (unit) | function argument | optimizer state (momentum, moments): stays f32 |
    | `amp.loss` (unit) | function result | the scalar loss |
    | `amp.update_of = N` (i64) | function result | the new value of argument N (a param or a state) |
    | `amp.keep_f32` (unit) | operation | `amp-autocast` keeps this op in f32 |
    | `amp.force_low` (unit) | operation | `amp-autocast` runs this op in low precision |

    Operations: `amp.loss_grad` (the backward seed) and `amp.grad` (marks
    the full gradient of a parameter).
  }];
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    static constexpr ::llvm::StringLiteral kParamAttrName = "amp.param";
    static constexpr ::llvm::StringLiteral kStateAttrName = "amp.state";
    static constexpr ::llvm::StringLiteral kLossAttrName = "amp.loss";
    static constexpr ::llvm::StringLiteral kUpdateOfAttrName = "amp.update_of";
    static constexpr ::llvm::StringLiteral kKeepF32AttrName = "amp.keep_f32";
    static constexpr ::llvm::StringLiteral kForceLowAttrName = "amp.force_low";
  }];
}

class AMP_Op<string mnemonic, list<Trait> traits = []> :
    Op<AMP_Dialect, mnemonic, traits>;

#endif // AMP_DIALECT_AMP_IR_AMPDIALECT_TD
