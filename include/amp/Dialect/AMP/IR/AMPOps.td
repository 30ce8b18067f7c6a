//===- AMPOps.td - amp dialect operations ------------------*- tablegen -*-===//

#ifndef AMP_DIALECT_AMP_IR_AMPOPS_TD
#define AMP_DIALECT_AMP_IR_AMPOPS_TD

include "amp/Dialect/AMP/IR/AMPDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def AMP_FloatTensorOrScalar : AnyTypeOf<[AnyFloat, TensorOf<[AnyFloat]>],
    "float scalar or tensor of floats">;

def AMP_LossGradOp : AMP_Op<"loss_grad", [Pure, SameOperandsAndResultType]> {
  let summary = "the backward seed dL/dL of the loss";
  let description = [{
    Returns a value of the loss's type holding 1.0: the gradient of the
    loss with respect to itself, from which the backward pass starts. The
    operand ties the seed to the loss it differentiates. The loss must hold
    exactly one element.

    Loss scaling (`amp-loss-scaling`) replaces the seed by the loss scale,
    so that every gradient computed from it is scaled.

    ```mlir
    %seed = amp.loss_grad %loss : tensor<1x1xf32>
    ```
  }];
  let arguments = (ins AMP_FloatTensorOrScalar:$loss);
  let results = (outs AMP_FloatTensorOrScalar:$seed);
  let assemblyFormat = "$loss attr-dict `:` type($loss)";
  let hasVerifier = 1;
}

def AMP_GradOp : AMP_Op<"grad", [Pure, SameOperandsAndResultType]> {
  let summary = "marks the full gradient of a parameter";
  let description = [{
    Identity on its operand, which is the complete gradient of the loss
    with respect to function argument `param` (an `amp.param` argument of
    the same type). Everything computed from the result up to an
    `amp.update_of` result is the optimizer: it runs in f32 on unscaled
    gradients.

    ```mlir
    %g = amp.grad %dw {param = 1 : i64} : tensor<784x256xf32>
    ```
  }];
  let arguments = (ins AMP_FloatTensorOrScalar:$gradient, I64Attr:$param);
  let results = (outs AMP_FloatTensorOrScalar:$result);
  let assemblyFormat = "$gradient attr-dict `:` type($gradient)";
  let hasVerifier = 1;
  let hasFolder = 0;
}

#endif // AMP_DIALECT_AMP_IR_AMPOPS_TD
