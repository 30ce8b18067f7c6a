//===- PlanStepMemory.cpp - a step's buffers at offsets in one workspace --===//
//
// Every buffer a training step allocates has a static shape and lives from
// its allocation to the last use of it or of a view of it: the whole step's
// memory can be planned when it is compiled. Buffers whose lifetimes do not
// overlap share bytes (largest first, each at the lowest free offset), and
// the step takes the planned bytes as one more argument, a workspace the
// runtime allocates once per session: no allocation or free inside a step.
// Constants the GPU must find in device memory get slots no buffer shares,
// written by a function of their own that runs once per workspace.
// Work runs in program order (CPU loops and library calls return finished;
// GPU work is queued on one stream), so a buffer that reuses bytes is
// written after the work that read them before.
//
//===----------------------------------------------------------------------===//

#include "amp/Dialect/AMP/IR/AMPDialect.h"
#include "amp/Transforms/Passes.h"
#include "amp/Utils/Buffers.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::amp {
#define GEN_PASS_DEF_PLANSTEPMEMORYPASS
#include "amp/Transforms/Passes.h.inc"
} // namespace mlir::amp

using namespace mlir;
using namespace mlir::amp;

namespace {
/// One buffer placed in the workspace: what it replaces, its bytes, and the
/// positions in the entry block where it starts and stops being live.
struct Slot {
  Operation *definition; // memref.alloc, or memref.get_global
  MemRefType type;
  int64_t bytes;
  int64_t begin, end;
  SmallVector<memref::DeallocOp> deallocs;
  int64_t offset = 0;
};

/// Every slot's offset, each `alignment`-aligned; returns the total bytes.
/// Largest first, each at the lowest offset free of the slots placed
/// before it that are live at the same time (the greedy-by-size order of
/// arena planners: program order leaves large buffers above gaps that
/// small ones fragment).
int64_t assignOffsets(MutableArrayRef<Slot> slots, int64_t alignment) {
  SmallVector<size_t> order;
  for (size_t i = 0; i < slots.size(); ++i)
    order.push_back(i);
  llvm::stable_sort(order, [&](size_t a, size_t b) {
    return slots[a].bytes > slots[b].bytes;
  });
  int64_t total = 0;
  for (auto [placed, i] : llvm::enumerate(order)) {
    Slot &slot = slots[i];
    SmallVector<std::pair<int64_t, int64_t>> taken; // [offset, end) in bytes
    for (size_t j : ArrayRef(order).take_front(placed))
      if (slots[j].end >= slot.begin && slots[j].begin <= slot.end)
        taken.push_back({slots[j].offset, slots[j].offset + slots[j].bytes});
    llvm::sort(taken);
    int64_t candidate = 0;
    for (auto [from, to] : taken) {
      if (candidate + slot.bytes <= from)
        break;
      candidate = std::max<int64_t>(candidate, llvm::alignTo(to, alignment));
    }
    slot.offset = candidate;
    total = std::max<int64_t>(total,
                              llvm::alignTo(candidate + slot.bytes, alignment));
  }
  return total;
}

/// The position in `block` of the op in it that holds `op`.
int64_t positionIn(Block &block, Operation *op,
                   const DenseMap<Operation *, int64_t> &positions) {
  Operation *ancestor = block.findAncestorOpInBlock(*op);
  return ancestor ? positions.lookup(ancestor) : -1;
}

/// The positions in `entry` of the first and the last op that touch
/// `buffer` or a value that may alias it (a view or cast of it, its
/// pointer): its bytes are taken from the first op that may read or write
/// them (views and casts, which bufferization often puts long before, do
/// not) and free after the last use, whatever it is; the deallocations that
/// buffer deallocation puts at the end of the block say nothing about
/// liveness. None when the buffer must keep an allocation of its own: it
/// escapes (returned or yielded), or something other than a dealloc of the
/// buffer itself in `entry` frees it (the workspace must never be freed).
std::optional<std::pair<int64_t, int64_t>>
liveRange(Value buffer, Block &entry,
          const DenseMap<Operation *, int64_t> &positions) {
  int64_t defined = positionIn(entry, buffer.getDefiningOp(), positions);
  int64_t last = defined;
  std::optional<int64_t> first;
  SmallVector<Value> worklist{buffer};
  DenseSet<Value> seen{buffer};
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (Operation *user : value.getUsers()) {
      if (isa<memref::DeallocOp>(user)) {
        if (value != buffer || user->getBlock() != &entry)
          return std::nullopt;
        continue;
      }
      int64_t position = positionIn(entry, user, positions);
      if (position < 0 || user->hasTrait<OpTrait::IsTerminator>())
        return std::nullopt;
      last = std::max(last, position);
      if (!isMemoryEffectFree(user))
        first = std::min(first.value_or(position), position);
      for (Value result : user->getResults())
        if ((isa<BaseMemRefType>(result.getType()) ||
             isa<memref::ExtractAlignedPointerAsIndexOp>(user)) &&
            seen.insert(result).second)
          worklist.push_back(result);
    }
  }
  return std::make_pair(first.value_or(defined), last);
}

/// A function `<step>_init_workspace(workspace)` that copies each constant
/// of `slots` into its slot, which the runtime runs once per workspace; the
/// step function names it in `amp.workspace_init` and is exported with it.
void createWorkspaceInit(func::FuncOp step, ArrayRef<Slot> slots,
                         Type workspaceType, SymbolTable &symbols) {
  OpBuilder builder(step.getContext());
  Location loc = step.getLoc();
  auto init = func::FuncOp::create(
      builder, loc, (step.getName() + "_init_workspace").str(),
      builder.getFunctionType({workspaceType}, {}));
  if (Attribute cInterface =
          step->getAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName()))
    init->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(), cInterface);
  builder.setInsertionPointToStart(init.addEntryBlock());
  Value workspace = init.getArgument(0);
  for (const Slot &slot : slots) {
    auto global = cast<memref::GetGlobalOp>(slot.definition);
    Location constantLoc = global.getLoc();
    Value source = memref::GetGlobalOp::create(builder, constantLoc,
                                               global.getType(),
                                               global.getNameAttr());
    Value offset =
        arith::ConstantIndexOp::create(builder, constantLoc, slot.offset);
    Value view = memref::ViewOp::create(builder, constantLoc, slot.type,
                                        workspace, offset, ValueRange());
    // On the GPU path a host-to-device copy (amp-buffers-to-device-memory).
    memref::CopyOp::create(builder, constantLoc, source, view);
  }
  func::ReturnOp::create(builder, loc);
  symbols.insert(init, std::next(Block::iterator(step)));
  step->setAttr(AMPDialect::kWorkspaceInitAttrName,
                FlatSymbolRefAttr::get(init.getNameAttr()));
}

/// Plans `func`'s static buffers and constants into a workspace argument
/// (none when it has nothing to plan).
void planFunction(func::FuncOp func, int64_t alignment, bool constants,
                  SymbolTable &symbols) {
  Block &entry = func.getBody().front();
  DenseMap<Operation *, int64_t> positions;
  for (auto [index, op] : llvm::enumerate(entry))
    positions[&op] = index;
  int64_t last = entry.getOperations().size();

  SmallVector<Slot> slots;
  for (Operation &op : entry) {
    std::optional<int64_t> bytes;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      std::optional<std::pair<int64_t, int64_t>> range;
      if (!(bytes = getStaticBufferBytes(alloc.getType())) ||
          !(range = liveRange(alloc, entry, positions)))
        continue;
      Slot slot{&op, alloc.getType(), *bytes, range->first, range->second, {}};
      for (Operation *user : alloc->getUsers())
        if (auto dealloc = dyn_cast<memref::DeallocOp>(user))
          slot.deallocs.push_back(dealloc);
      slots.push_back(std::move(slot));
    } else if (auto global = dyn_cast<memref::GetGlobalOp>(op);
               global && constants) {
      // A constant: one device copy (the host's read-only data is out of
      // the kernels' reach), written once per workspace, so live from
      // before the first op to after the last.
      auto definition = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
          global, global.getNameAttr());
      if (!definition || !definition.getConstant() ||
          !(bytes = getStaticBufferBytes(global.getType())))
        continue;
      slots.push_back({&op, global.getType(), *bytes, -1, last, {}, 0});
    }
  }
  if (slots.empty())
    return;
  int64_t total = assignOffsets(slots, alignment);

  OpBuilder builder(func.getContext());
  auto workspaceType =
      MemRefType::get({total}, builder.getIntegerType(8));
  unsigned index = func.getNumArguments();
  if (failed(func.insertArgument(index, workspaceType, {}, func.getLoc())))
    return;
  Value workspace = func.getArgument(index);
  func->setAttr(AMPDialect::kWorkspaceBytesAttrName,
                builder.getI64IntegerAttr(total));
  SmallVector<Slot> constantSlots;
  for (Slot &slot : slots)
    if (isa<memref::GetGlobalOp>(slot.definition))
      constantSlots.push_back(slot);
  if (!constantSlots.empty())
    createWorkspaceInit(func, constantSlots, workspaceType, symbols);
  for (Slot &slot : slots) {
    builder.setInsertionPointAfter(slot.definition);
    Location loc = slot.definition->getLoc();
    Value offset =
        arith::ConstantIndexOp::create(builder, loc, slot.offset);
    Value view = memref::ViewOp::create(builder, loc, slot.type, workspace,
                                        offset, ValueRange());
    slot.definition->getResult(0).replaceAllUsesWith(view);
    for (memref::DeallocOp dealloc : slot.deallocs)
      dealloc.erase();
    slot.definition->erase();
  }
}

struct PlanStepMemoryPass
    : public amp::impl::PlanStepMemoryPassBase<PlanStepMemoryPass> {
  using Base::Base;
  void runOnOperation() override {
    // A function called in the module keeps its signature (and its
    // allocations): its callers do not pass a workspace.
    SmallVector<func::FuncOp> steps;
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isExternal() &&
          SymbolTable::symbolKnownUseEmpty(func, getOperation()))
        steps.push_back(func);
    SymbolTable symbols(getOperation());
    for (func::FuncOp func : steps)
      planFunction(func, alignment, constants, symbols);
  }
};
} // namespace
