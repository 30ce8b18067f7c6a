// RUN: amp-opt %s --split-input-file --amp-master-weights 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: amp-opt %s --split-input-file --amp-master-weights | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-master-weights=cache-working-copy | FileCheck %s --check-prefix=O2
// RUN: amp-opt %s --split-input-file --amp-master-weights=cache-working-copy --amp-loss-scaling | FileCheck %s --check-prefix=O2LS

// WARN: warning: amp-master-weights: param 2 has no 'amp.grad' and its update does not use the backward pass; it is treated as frozen

// %w is cast to f16 twice (in the forward and in the backward): one working
// copy remains, at the top, shared by both; the update reads the f32 master.
// CHECK-LABEL: func.func @step
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1x4x4xf32>, %[[W:[^:]*]]: tensor<1x4x4xf32> {amp.param}, %[[F:[^:]*]]: tensor<1x4x4xf32> {amp.param})
// CHECK-NEXT: %[[WC:.*]] = tosa.cast %[[W]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NEXT: %[[FC:.*]] = tosa.cast %[[F]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// CHECK-NOT: tosa.cast %[[W]]
// CHECK: tosa.matmul %{{.*}}, %[[WC]]
// CHECK: tosa.matmul %{{.*}}, %[[WC]]
// CHECK: tosa.sub %[[W]], %{{.*}} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>

// With cache-working-copy, each copy is an argument; an updated param
// returns the cast of its new master as the copy's update; a frozen param
// (no update) only gets the argument.
// O2-LABEL: func.func @step
// O2-SAME: (%[[X:[^:]*]]: tensor<1x4x4xf32>, %[[W:[^:]*]]: tensor<1x4x4xf32> {amp.param}, %[[F:[^:]*]]: tensor<1x4x4xf32> {amp.param}, %[[WC:[^:]*]]: tensor<1x4x4xf16> {amp.working_copy_of = 1 : i64}, %[[FC:[^:]*]]: tensor<1x4x4xf16> {amp.working_copy_of = 2 : i64})
// O2-SAME: -> (tensor<1x1x1xf32> {amp.loss}, tensor<1x4x4xf32> {amp.update_of = 1 : i64}, tensor<1x4x4xf16> {amp.update_of = 3 : i64})
// O2-NOT: tosa.cast %[[W]]
// O2-NOT: tosa.cast %[[F]]
// O2: tosa.matmul %{{.*}}, %[[WC]]
// O2: tosa.matmul %{{.*}}, %[[FC]]
// O2: %[[NW:.*]] = tosa.sub %[[W]]
// O2: %[[NWC:.*]] = tosa.cast %[[NW]] : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
// O2: return %{{.*}}, %[[NW]], %[[NWC]]

// After loss scaling, the copy is skipped on overflow like its master.
// O2LS-LABEL: func.func @step
// O2LS: amp.unscale
// O2LS: %[[NWC:.*]] = tosa.cast
// O2LS: amp.skip_if_inf %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x4x4xf32>
// O2LS: amp.skip_if_inf %{{.*}}, %{{.*}}, %[[NWC]] : tensor<1x4x4xf16>
func.func @step(%x: tensor<1x4x4xf32>, %w: tensor<1x4x4xf32> {amp.param}, %frozen: tensor<1x4x4xf32> {amp.param})
    -> (tensor<1x1x1xf32> {amp.loss}, tensor<1x4x4xf32> {amp.update_of = 1 : i64}) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf16>}> : () -> tensor<1xf16>
  %x16 = tosa.cast %x : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %w16 = tosa.cast %w : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %f16 = tosa.cast %frozen : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %y = tosa.matmul %x16, %w16, %zp, %zp : (tensor<1x4x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  %y16 = tosa.cast %y : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %z = tosa.matmul %y16, %f16, %zp, %zp : (tensor<1x4x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  %r = tosa.reduce_sum %z {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %loss = tosa.reduce_sum %r {axis = 2 : i32} : (tensor<1x1x4xf32>) -> tensor<1x1x1xf32>
  %seed = amp.loss_grad %loss : tensor<1x1x1xf32>
  // The backward pass casts %w again.
  %w16b = tosa.cast %w : (tensor<1x4x4xf32>) -> tensor<1x4x4xf16>
  %d = tosa.matmul %x16, %w16b, %zp, %zp : (tensor<1x4x4xf16>, tensor<1x4x4xf16>, tensor<1xf16>, tensor<1xf16>) -> tensor<1x4x4xf32>
  %g = amp.grad %d {param = 1 : i64} : tensor<1x4x4xf32>
  %nw = tosa.sub %w, %g : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  return %loss, %nw : tensor<1x1x1xf32>, tensor<1x4x4xf32>
}
