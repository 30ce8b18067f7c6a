//===- AutocastOpInterface.td - how an op runs in low precision -*- tablegen -*-===//
//
// What `amp-autocast` needs to know about an op beyond its policy category.
// Upstream dialects get it through external models (lib/Dialect/*/
// AutocastOpInterfaceImpl.cpp); any other dialect implements or attaches
// this interface to take part without changing amp-mlir.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_INTERFACES_AUTOCASTOPINTERFACE_TD
#define AMP_INTERFACES_AUTOCASTOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def AutocastOpInterface : OpInterface<"AutocastOpInterface"> {
  let cppNamespace = "::mlir::amp";
  let description = [{
    How an op takes part in `amp-autocast`. Ops without it are treated as
    this interface's defaults say: they may run low, every float operand
    goes low with them, no result is an accumulator, nothing else changes.

    The policy's allow/deny/infer/clear lists (by op name) still come
    first; `getDefaultCategory` is the category of an op no list names.
    Control flow, calls, terminators and constants are recognised from
    upstream interfaces and traits (RegionBranchOpInterface,
    LoopLikeOpInterface, CallOpInterface, IsTerminator, ConstantLike);
    `getStructuralCategory` covers the other ops whose precision follows
    from what they are.
  }];
  let methods = [
    StaticInterfaceMethod<[{
        The category of an op whose precision follows from what it is, which
        no policy can move: `Boundary` (kept as written, f32 values cross
        it), `Cast` (a float conversion autocast reuses or removes) or
        `Materializable` (recreated in whatever type a user needs).
      }], "std::optional<::mlir::amp::OpCategory>", "getStructuralCategory",
      (ins), [{}], [{ return std::nullopt; }]>,
    StaticInterfaceMethod<[{
        True when the op's regions compute its elements (a scalar payload)
        rather than hold more graph: autocast does not paint inside them.
      }], "bool", "hasPayloadRegions", (ins), [{}], [{ return false; }]>,
    InterfaceMethod<[{
        The category of this op when no policy list names it: `Allow`,
        `Deny`, `Infer` or `Clear`, or std::nullopt (unknown: kept f32 with a
        remark).
      }], "std::optional<::mlir::amp::OpCategory>", "getDefaultCategory",
      (ins), [{}], [{ return std::nullopt; }]>,
    InterfaceMethod<[{
        True when the op can run in low precision at all (false, e.g., for
        a sum that would accumulate in its low result type).
      }], "bool", "canRunLow", (ins), [{}], [{ return true; }]>,
    InterfaceMethod<[{
        True when operand `index` takes the low type when the op runs low;
        false for operands that carry the f32 accumulator (a convolution
        bias, the init of a summing reduction).
      }], "bool", "isLowOperand", (ins "unsigned":$index), [{}],
      [{ return true; }]>,
    InterfaceMethod<[{
        True when result `index` is an f32 accumulation that stays f32 when
        the op runs low (contractions, convolutions, sums).
      }], "bool", "isAccumulatorResult", (ins "unsigned":$index), [{}],
      [{ return false; }]>,
    InterfaceMethod<[{
        Called once the op's low operands and results have their low types:
        updates what depends on them (a payload region, attributes typed by
        the element type) so that the op verifies.
      }], "void", "retypeForLowPrecision", (ins "::mlir::FloatType":$lowType),
      [{}], [{ return; }]>,
  ];
}

#endif // AMP_INTERFACES_AUTOCASTOPINTERFACE_TD
