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
    | `amp.update_of = N` (i64) | function result | the new value of argument N (a param, state, scaler or working copy) |
    | `amp.scaler = "scale"` | function argument | the loss scale, `tensor<f32>` (added by `amp-loss-scaling`) |
    | `amp.scaler = "growth_tracker"` | function argument | steps since the last overflow or growth, `tensor<i32>` |
    | `amp.scaler = "hysteresis"` | function argument | overflows still tolerated before backing off, `tensor<i32>` |
    | `amp.found_inf` (unit) | function result | this step's gradients overflowed and its updates were skipped, `tensor<i1>` |
    | `amp.working_copy_of = N` (i64) | function argument | the low-precision working copy of param N, kept across steps (`amp-master-weights`) |
    | `amp.name = "..."` (string) | function argument | the argument's name in the artifact (data files, checkpoint inspection): unique in its function, of `[A-Za-z0-9_.:/-]`, at most 255 characters |
    | `amp.initial_scale` (f32) | function | the loss scale to start training from |
    | `amp.initial_hysteresis` (i64) | function | the hysteresis tracker to start from |
    | `amp.parallel_chunk` (unit) | function | takes `(begin, end)` of its loop nest's outermost parallel dimension first; its calls run on all cores through libamprt (`amp-outline-parallel-chunks`) |
    | `amp.keep_f32` (unit) | operation | `amp-autocast` keeps this op in f32 |
    | `amp.force_low` (unit) | operation | `amp-autocast` runs this op in low precision |

    Operations: `amp.loss_grad` (the backward seed), `amp.grad` (marks
    the full gradient of a parameter), and the loss-scaling ops that
    `amp-loss-scaling` places: `amp.unscale`, `amp.update_scale` and
    `amp.skip_if_inf`.
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
    static constexpr ::llvm::StringLiteral kScalerAttrName = "amp.scaler";
    static constexpr ::llvm::StringLiteral kFoundInfAttrName = "amp.found_inf";
    static constexpr ::llvm::StringLiteral kWorkingCopyOfAttrName =
        "amp.working_copy_of";
    static constexpr ::llvm::StringLiteral kInitialScaleAttrName =
        "amp.initial_scale";
    static constexpr ::llvm::StringLiteral kInitialHysteresisAttrName =
        "amp.initial_hysteresis";
    static constexpr ::llvm::StringLiteral kNameAttrName = "amp.name";
    static constexpr ::llvm::StringLiteral kParallelChunkAttrName =
        "amp.parallel_chunk";
    /// On a runtime function declaration: the callee queues its work on
    /// the GPU stream and returns without waiting for it.
    static constexpr ::llvm::StringLiteral kStreamOrderedAttrName =
        "amp.stream_ordered";
    static constexpr ::llvm::StringLiteral kWorkspaceBytesAttrName =
        "amp.workspace_bytes";
    /// On a function with a workspace: the function that writes the
    /// constants the workspace holds, run once per workspace.
    static constexpr ::llvm::StringLiteral kWorkspaceInitAttrName =
        "amp.workspace_init";
    /// The longest `amp.name`.
    static constexpr unsigned kMaxNameLength = 255;
  }];
}

class AMP_Op<string mnemonic, list<Trait> traits = []> :
    Op<AMP_Dialect, mnemonic, traits>;

#endif // AMP_DIALECT_AMP_IR_AMPDIALECT_TD
