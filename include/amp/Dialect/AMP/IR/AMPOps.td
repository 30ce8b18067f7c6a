//===- AMPOps.td - amp dialect operations ------------------*- tablegen -*-===//

#ifndef AMP_DIALECT_AMP_IR_AMPOPS_TD
#define AMP_DIALECT_AMP_IR_AMPOPS_TD

include "amp/Dialect/AMP/IR/AMPDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/IR/EnumAttr.td"

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

// Rank-0 tensors that carry the loss-scaler state; buildable so that the
// assembly formats need not spell their types.
def AMP_ScalarF32Tensor : 0DTensorOf<[F32]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getF32Type())";
}
def AMP_ScalarI32Tensor : 0DTensorOf<[I32]> {
  let builderCall =
      "::mlir::RankedTensorType::get({}, $_builder.getIntegerType(32))";
}
def AMP_ScalarI1Tensor : 0DTensorOf<[I1]> {
  let builderCall = "::mlir::RankedTensorType::get({}, $_builder.getI1Type())";
}

def AMP_UnscaleOp : AMP_Op<"unscale", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "unscale all gradients and check them for inf/NaN at once";
  let description = [{
    Multiplies every gradient by `1 / scale` (computed in f32) and returns
    the unscaled gradients together with `found_inf`, true when any element
    of any gradient (as given, still scaled) is infinite or NaN. One op for
    all gradients, so that it becomes one multi-tensor kernel (PyTorch's
    `_amp_foreach_non_finite_check_and_unscale_`).

    ```mlir
    %g:2, %found_inf = amp.unscale %dw, %db by %scale
        : tensor<784x256xf32>, tensor<1x256xf32>
    ```
  }];
  let arguments = (ins Variadic<TensorOf<[AnyFloat]>>:$gradients,
                       AMP_ScalarF32Tensor:$scale);
  let results = (outs Variadic<TensorOf<[AnyFloat]>>:$unscaled,
                      AMP_ScalarI1Tensor:$found_inf);
  let assemblyFormat = [{
    $gradients `by` $scale attr-dict `:` type($gradients)
  }];
  let hasVerifier = 1;
}

def AMP_UpdateScaleOp : AMP_Op<"update_scale", [Pure,
    DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "dynamic loss-scale update (PyTorch GradScaler semantics)";
  let description = [{
    Computes the next loss scale and growth tracker from this step's
    `found_inf`, as PyTorch's `torch._amp_update_scale_`:

    * found inf: `scale = max(scale * backoff_factor, min_scale)`,
      `tracker = 0`;
    * otherwise `tracker += 1`, and when it reaches `growth_interval`:
      `scale = min(scale * growth_factor, max_scale)` unless that product is
      not finite (then the scale is kept), and `tracker = 0`.

    With `hysteresis = H > 1` (DeepSpeed's delayed shift), the op also takes
    and returns the number of overflows still tolerated: an overflow with
    more than one left only decrements it (the scale is kept); the last one
    backs off; a growth resets it to `H`.

    ```mlir
    %s, %t = amp.update_scale %found_inf, %scale, %tracker
        {growth_factor = 2.0 : f32, backoff_factor = 0.5 : f32,
         growth_interval = 2000 : i64, min_scale = 0.0 : f32,
         max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
    ```
  }];
  let arguments = (ins AMP_ScalarI1Tensor:$found_inf,
                       AMP_ScalarF32Tensor:$scale,
                       AMP_ScalarI32Tensor:$growth_tracker,
                       Optional<AMP_ScalarI32Tensor>:$hysteresis_tracker,
                       F32Attr:$growth_factor,
                       F32Attr:$backoff_factor,
                       I64Attr:$growth_interval,
                       F32Attr:$min_scale,
                       F32Attr:$max_scale,
                       I64Attr:$hysteresis);
  let results = (outs AMP_ScalarF32Tensor:$new_scale,
                      AMP_ScalarI32Tensor:$new_growth_tracker,
                      Optional<AMP_ScalarI32Tensor>:$new_hysteresis_tracker);
  let assemblyFormat = [{
    $found_inf `,` $scale `,` $growth_tracker (`,` $hysteresis_tracker^)?
    attr-dict
  }];
  let builders = [
    OpBuilder<(ins "Value":$foundInf, "Value":$scale, "Value":$growthTracker,
                   "Value":$hysteresisTracker, "float":$growthFactor,
                   "float":$backoffFactor, "int64_t":$growthInterval,
                   "float":$minScale, "float":$maxScale,
                   "int64_t":$hysteresis)>
  ];
  let hasVerifier = 1;
}

def AMP_SkipIfInfOp : AMP_Op<"skip_if_inf", [Pure,
    AllTypesMatch<["old_value", "new_value", "result"]>]> {
  let summary = "keep the old value of a param or state when found_inf is set";
  let description = [{
    Returns `old_value` when `found_inf` is true and `new_value` otherwise: a step whose
    gradients overflowed leaves every parameter and optimizer state
    bit-identical.

    ```mlir
    %w_next = amp.skip_if_inf %found_inf, %w, %w_updated : tensor<784x256xf32>
    ```
  }];
  let arguments = (ins AMP_ScalarI1Tensor:$found_inf, AnyType:$old_value,
                       AnyType:$new_value);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    $found_inf `,` $old_value `,` $new_value attr-dict `:` type($result)
  }];
}

// The values are also libamprt's (amprt_comm.h, AMPRT_REDUCE_*): the
// lowering passes them to the runtime as they are.
def AMP_ReductionSum : I32EnumAttrCase<"Sum", 0, "sum">;
def AMP_ReductionMean : I32EnumAttrCase<"Mean", 1, "mean">;
def AMP_ReductionMax : I32EnumAttrCase<"Max", 2, "max">;
def AMP_ReductionAttr : I32EnumAttr<"Reduction",
    "how amp.all_reduce combines the values of the ranks",
    [AMP_ReductionSum, AMP_ReductionMean, AMP_ReductionMax]> {
  let cppNamespace = "::mlir::amp";
}

def AMP_AllReduceOp : AMP_Op<"all_reduce", [
    DeclareOpInterfaceMethods<InferTypeOpInterface>,
    MemoryEffects<[MemWrite]>]> {
  let summary = "combine tensors across the ranks of a data-parallel run";
  let description = [{
    Every rank of a data-parallel run passes its own values and receives,
    in each result, the element-wise `sum`, `mean` (the sum divided by the
    number of ranks, rounded once) or `max` over all ranks. The operands
    are one bucket: they travel together as one buffer of their common
    element type, so a bucket is one collective call. With a single
    process every result equals its operand (`mean` and `sum` over one
    rank).

    The op communicates: it is never removed, merged or reordered with
    another `amp.all_reduce` (every rank must issue the same collectives
    in the same order), so it has a write effect.

    `amp-data-parallel` creates these ops: `mean` of the gradients and of
    the rank-local results, `max` of `found_inf` (i1, as a byte).

    ```mlir
    %g:2 = amp.all_reduce mean %dw, %db : tensor<784x256xf32>, tensor<1x256xf32>
    %inf = amp.all_reduce max %found_inf : tensor<i1>
    ```
  }];
  let arguments = (ins Variadic<StaticShapeTensorOf<[F32, F16, BF16, I1]>>:$values,
                       AMP_ReductionAttr:$reduction);
  let results = (outs Variadic<StaticShapeTensorOf<[F32, F16, BF16, I1]>>:$reduced);
  let assemblyFormat = [{
    $reduction $values attr-dict `:` type($values)
  }];
  let hasVerifier = 1;
}

#endif // AMP_DIALECT_AMP_IR_AMPOPS_TD
