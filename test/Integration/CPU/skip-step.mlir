// A step with SGD + momentum (param and optimizer state) through
// --amp-loss-scaling, lowered and run: an overflowing step returns the
// param and the momentum bit-identical and backs the scale off; a normal
// step updates both with unscaled gradients.
// RUN: split-file %s %t
// RUN: amp-opt %t/step.mlir --amp-loss-scaling="growth-interval=3" \
// RUN:   | sed -e '/^module {$/d' -e '/^}$/d' > %t/step.scaled.mlir
// RUN: cat %t/step.scaled.mlir %t/driver.mlir | amp-opt --amp-lower-to-cpu \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%amprt \
// RUN:   | FileCheck %s

//--- step.mlir

// loss = sum(x * w); dL/dw = x; m' = 0.9 m + g; w' = w - 0.5 m'.
func.func @step(%x: tensor<2xf32>, %w: tensor<2xf32> {amp.param}, %m: tensor<2xf32> {amp.state})
    -> (f32 {amp.loss}, tensor<2xf32> {amp.update_of = 1 : i64}, tensor<2xf32> {amp.update_of = 2 : i64}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.mulf %x, %w : tensor<2xf32>
  %p0 = tensor.extract %p[%c0] : tensor<2xf32>
  %p1 = tensor.extract %p[%c1] : tensor<2xf32>
  %loss = arith.addf %p0, %p1 : f32
  %seed = amp.loss_grad %loss : f32
  %seeds = tensor.from_elements %seed, %seed : tensor<2xf32>
  %d = arith.mulf %x, %seeds : tensor<2xf32>
  %g = amp.grad %d {param = 1 : i64} : tensor<2xf32>
  %beta = arith.constant dense<0.9> : tensor<2xf32>
  %lr = arith.constant dense<0.5> : tensor<2xf32>
  %mb = arith.mulf %m, %beta : tensor<2xf32>
  %nm = arith.addf %mb, %g : tensor<2xf32>
  %u = arith.mulf %nm, %lr : tensor<2xf32>
  %nw = arith.subf %w, %u : tensor<2xf32>
  return %loss, %nw, %nm : f32, tensor<2xf32>, tensor<2xf32>
}

//--- driver.mlir
func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()

func.func @print_vec(%v: tensor<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = tensor.extract %v[%c0] : tensor<2xf32>
  %b = tensor.extract %v[%c1] : tensor<2xf32>
  call @printF32(%a) : (f32) -> ()
  call @printNewline() : () -> ()
  call @printF32(%b) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

// Prints found_inf, the new scale and tracker, then w and m.
func.func @run(%x: tensor<2xf32>, %w: tensor<2xf32>, %m: tensor<2xf32>, %s: tensor<f32>, %t: tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %l, %nw, %nm, %ns, %nt, %inf = call @step(%x, %w, %m, %s, %t) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<i32>) -> (f32, tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<i32>, tensor<i1>)
  %i = tensor.extract %inf[] : tensor<i1>
  %i64 = arith.extui %i : i1 to i64
  call @printI64(%i64) : (i64) -> ()
  call @printNewline() : () -> ()
  %sv = tensor.extract %ns[] : tensor<f32>
  call @printF32(%sv) : (f32) -> ()
  call @printNewline() : () -> ()
  %tv = tensor.extract %nt[] : tensor<i32>
  %t64 = arith.extsi %tv : i32 to i64
  call @printI64(%t64) : (i64) -> ()
  call @printNewline() : () -> ()
  call @print_vec(%nw) : (tensor<2xf32>) -> ()
  call @print_vec(%nm) : (tensor<2xf32>) -> ()
  return %nw, %nm : tensor<2xf32>, tensor<2xf32>
}

func.func @main() {
  %x = arith.constant dense<[2.0, -4.0]> : tensor<2xf32>
  %w = arith.constant dense<[1.0, 0.25]> : tensor<2xf32>
  %m = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %t = arith.constant dense<1> : tensor<i32>
  // Scale 2^127: 2^127 * -4 overflows f32: skipped, w and m unchanged.
  // CHECK: 1
  // CHECK-NEXT: 8.50706e+37
  // CHECK-NEXT: 0
  // CHECK-NEXT: 1
  // CHECK-NEXT: 0.25
  // CHECK-NEXT: 0.5
  // CHECK-NEXT: -0.5
  %huge = arith.constant dense<1.70141183e+38> : tensor<f32>
  %w1, %m1 = call @run(%x, %w, %m, %huge, %t) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>)
  // Scale 1024: m' = 0.9 m + x = [2.45, -4.45], w' = w - 0.5 m' =
  // [-0.225, 2.475]: the unscaled update, exactly as in f32 without scaling.
  // CHECK-NEXT: 0
  // CHECK-NEXT: 1024
  // CHECK-NEXT: 2
  // CHECK-NEXT: -0.225
  // CHECK-NEXT: 2.475
  // CHECK-NEXT: 2.45
  // CHECK-NEXT: -4.45
  %s = arith.constant dense<1024.0> : tensor<f32>
  %w2, %m2 = call @run(%x, %w1, %m1, %s, %t) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xf32>)
  return
}
