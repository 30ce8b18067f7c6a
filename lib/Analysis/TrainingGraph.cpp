//===- TrainingGraph.cpp - the markers of one training step ---------------===//

#include "amp/Analysis/TrainingGraph.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::amp;

bool TrainingGraph::isTrainingStep(FunctionOpInterface func) {
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (func.getResultAttr(i, AMPDialect::kLossAttrName))
      return true;
  bool found = false;
  func->walk([&](Operation *op) {
    if (isa<LossGradOp, GradOp>(op)) {
      found = true;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

std::optional<unsigned> TrainingGraph::getUpdateResult(unsigned arg) const {
  for (auto [result, target] : updates)
    if (target == arg)
      return result;
  return std::nullopt;
}

FailureOr<TrainingGraph> TrainingGraph::analyze(FunctionOpInterface func,
                                                StringRef passName) {
  TrainingGraph graph;
  graph.func = func;
  // At the op's location, without printing the op (a function or module
  // would print whole).
  auto error = [&](Operation *op) {
    InFlightDiagnostic diag = emitError(op->getLoc());
    diag << passName << ": ";
    return diag;
  };

  Region &body = func.getFunctionBody();
  if (!body.hasOneBlock())
    return error(func) << "a training step must be a single-block function";
  Block &block = body.front();
  graph.returnOp = block.getTerminator();

  // The loss.
  std::optional<unsigned> loss;
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i) {
    if (!func.getResultAttr(i, AMPDialect::kLossAttrName))
      continue;
    if (loss)
      return error(func) << "two results are marked '"
                         << AMPDialect::kLossAttrName << "' (" << *loss
                         << " and " << i << "); a training step has one loss";
    loss = i;
  }
  if (!loss)
    return error(func) << "no result is marked '" << AMPDialect::kLossAttrName
                       << "'";
  graph.lossResult = *loss;

  // The seed and the gradients.
  llvm::DenseMap<int64_t, GradOp> gradOfParam;
  WalkResult walk = func->walk([&](Operation *op) -> WalkResult {
    if (auto seed = dyn_cast<LossGradOp>(op)) {
      if (graph.seed) {
        InFlightDiagnostic diag = error(op);
        diag << "a second 'amp.loss_grad'; a training step has one "
                "backward seed";
        diag.attachNote(graph.seed.getLoc()) << "the first one";
        return WalkResult::interrupt();
      }
      graph.seed = seed;
      return WalkResult::advance();
    }
    auto grad = dyn_cast<GradOp>(op);
    if (!grad)
      return WalkResult::advance();
    if (grad->getBlock() != &block) {
      (void)(error(op) << "'amp.grad' must be at the top level of the "
                          "training step");
      return WalkResult::interrupt();
    }
    auto [it, inserted] = gradOfParam.try_emplace(grad.getParam(), grad);
    if (!inserted) {
      InFlightDiagnostic diag = error(op);
      diag << "a second 'amp.grad' for param " << grad.getParam()
           << "; each param has one full gradient";
      diag.attachNote(it->second.getLoc()) << "the first one";
      return WalkResult::interrupt();
    }
    graph.grads.push_back(grad);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Loss scaling replaces the seed by the scale and leaves an amp.unscale.
  bool lossScaled = false;
  func.getFunctionBody().walk([&](UnscaleOp) { lossScaled = true; });
  if (!graph.seed && !lossScaled)
    return error(func) << "no 'amp.loss_grad' seeds the backward pass";
  if (graph.seed && graph.seed.getLoss() != graph.returnOp->getOperand(*loss))
    return error(graph.seed) << "'amp.loss_grad' must take the value "
                                "returned as the loss (result "
                             << *loss << ")";

  // Parameters and their updates.
  for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
    if (func.getArgAttr(i, AMPDialect::kParamAttrName))
      graph.params.push_back(i);
  for (unsigned i = 0, e = func.getNumResults(); i < e; ++i)
    if (auto target = func.getResultAttrOfType<IntegerAttr>(
            i, AMPDialect::kUpdateOfAttrName))
      graph.updates.emplace_back(i, target.getInt());
  // A param without a gradient marker is frozen (fine-tuning) only if its
  // update does not use the backward pass: otherwise it would be updated
  // with a gradient still multiplied by the loss scale and escape the
  // overflow check.
  if (!graph.seed)
    return graph; // checked when the seed was still there
  llvm::DenseSet<Value> backward = getBackwardValues(graph);
  for (unsigned param : graph.params) {
    if (gradOfParam.count(param))
      continue;
    std::optional<unsigned> update = graph.getUpdateResult(param);
    if (update && backward.contains(graph.returnOp->getOperand(*update))) {
      InFlightDiagnostic diag = error(graph.returnOp);
      diag << "the update of param " << param << " (result " << *update
           << ") uses the backward pass but no 'amp.grad' marks the "
              "param's gradient: it would be updated with a gradient still "
              "multiplied by the loss scale; mark the full gradient with "
              "'amp.grad' {param = "
           << param << "}";
      diag.attachNote(graph.seed.getLoc()) << "the backward pass starts here";
      return failure();
    }
    emitWarning(func.getLoc())
        << passName << ": param " << param
        << " has no 'amp.grad' and its update does not use the backward "
           "pass; it is treated as frozen";
  }
  return graph;
}

llvm::DenseSet<Value>
mlir::amp::getBackwardValues(const TrainingGraph &graph) {
  llvm::DenseSet<Value> values;
  values.insert(graph.seed->getResult(0));
  auto readsBackward = [&](Operation *op) {
    bool reads = false;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (values.contains(operand)) {
          reads = true;
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    });
    return reads;
  };
  for (Operation *op = graph.seed->getNextNode(); op; op = op->getNextNode())
    if (readsBackward(op))
      values.insert(op->result_begin(), op->result_end());
  return values;
}

LogicalResult mlir::amp::forEachTrainingStep(
    Operation *module, StringRef passName,
    function_ref<LogicalResult(TrainingGraph &)> fn) {
  bool any = false;
  bool failed = false;
  for (Region &region : module->getRegions())
    for (Operation &op : region.getOps()) {
      auto func = dyn_cast<FunctionOpInterface>(&op);
      if (!func || func.isExternal() || !TrainingGraph::isTrainingStep(func))
        continue;
      any = true;
      FailureOr<TrainingGraph> graph = TrainingGraph::analyze(func, passName);
      if (mlir::failed(graph) || mlir::failed(fn(*graph)))
        failed = true;
    }
  if (!any) {
    emitError(module->getLoc()) << passName
                        << ": no training step in the module (no function "
                           "has an 'amp.loss' result, 'amp.loss_grad' or "
                           "'amp.grad')";
    return failure();
  }
  return failure(failed);
}
