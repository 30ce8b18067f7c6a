// The example MLP step through --amp-pipeline=precision=f16, lowered with
// --amp-lower-to-cpu (GEMMs in libamprt), and run: a normal step
// updates the params and counts toward growth; a step whose scaled
// gradients overflow f16 sets found_inf, returns every param bit-identical
// and backs the scale off.
// The compiled step changes signature, so it is compiled alone and this
// driver is appended (without the printed module's first and last lines).
// RUN: amp-opt %amp_src_root/examples/mlp/train_step.mlir --amp-pipeline="precision=f16 growth-interval=2" \
// RUN:   | sed -e '/^module {$/d' -e '/^}$/d' > %t.step.mlir
// RUN: cat %t.step.mlir %s \
// RUN:   | amp-opt --amp-lower-to-cpu \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%amprt \
// RUN:   | FileCheck %s

func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printNewline()

// 1 when both tensors hold the same bits.
func.func @same_bits(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> i64 {
  %init = arith.constant dense<true> : tensor<i1>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<i1>) {
  ^bb0(%x: f32, %y: f32, %acc: i1):
    %xi = arith.bitcast %x : f32 to i32
    %yi = arith.bitcast %y : f32 to i32
    %eq = arith.cmpi eq, %xi, %yi : i32
    %and = arith.andi %acc, %eq : i1
    linalg.yield %and : i1
  } -> tensor<i1>
  %v = tensor.extract %r[] : tensor<i1>
  %w = arith.extui %v : i1 to i64
  return %w : i64
}

func.func @print_bits(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) {
  %same = call @same_bits(%a, %b) : (tensor<?x?xf32>, tensor<?x?xf32>) -> i64
  call @printI64(%same) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @print_state(%loss: tensor<1x1xf32>, %scale: tensor<f32>, %tracker: tensor<i32>, %inf: tensor<i1>) {
  %c0 = arith.constant 0 : index
  %i = tensor.extract %inf[] : tensor<i1>
  %i64 = arith.extui %i : i1 to i64
  call @printI64(%i64) : (i64) -> ()
  call @printNewline() : () -> ()
  %s = tensor.extract %scale[] : tensor<f32>
  call @printF32(%s) : (f32) -> ()
  call @printNewline() : () -> ()
  %t = tensor.extract %tracker[] : tensor<i32>
  %t64 = arith.extsi %t : i32 to i64
  call @printI64(%t64) : (i64) -> ()
  call @printNewline() : () -> ()
  %l = tensor.extract %loss[%c0, %c0] : tensor<1x1xf32>
  call @printF32(%l) : (f32) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<0.5> : tensor<64x784xf32>
  %y = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]> : tensor<64x10xf32>
  %w1 = arith.constant dense<0.01> : tensor<784x256xf32>
  %b1 = arith.constant dense<0.0> : tensor<1x256xf32>
  %w2 = arith.constant dense<0.01> : tensor<256x10xf32>
  %b2 = arith.constant dense<0.0> : tensor<1x10xf32>
  %scale = arith.constant dense<1024.0> : tensor<f32>
  %tracker = arith.constant dense<0> : tensor<i32>

  // A normal step: no overflow, the scale is kept and the tracker counts;
  // the loss is log(10) (uniform logits); the weights move.
  // CHECK: 0
  // CHECK-NEXT: 1024
  // CHECK-NEXT: 1
  // CHECK-NEXT: 2.3025
  // CHECK-NEXT: 0
  %r:8 = call @train_step(%x, %y, %w1, %b1, %w2, %b2, %scale, %tracker) : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<784x256xf32>, tensor<1x256xf32>, tensor<256x10xf32>, tensor<1x10xf32>, tensor<f32>, tensor<i32>) -> (tensor<1x1xf32>, tensor<784x256xf32>, tensor<1x256xf32>, tensor<256x10xf32>, tensor<1x10xf32>, tensor<f32>, tensor<i32>, tensor<i1>)
  call @print_state(%r#0, %r#5, %r#6, %r#7) : (tensor<1x1xf32>, tensor<f32>, tensor<i32>, tensor<i1>) -> ()
  %w1d = tensor.cast %w1 : tensor<784x256xf32> to tensor<?x?xf32>
  %r1d = tensor.cast %r#1 : tensor<784x256xf32> to tensor<?x?xf32>
  call @print_bits(%w1d, %r1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  // Scale 2^120: the scaled softmax gradient overflows f16, so the step is
  // skipped: found_inf, the scale halves, the tracker restarts and all
  // four params come back bit-identical. The loss is the forward pass on
  // the params of the first step: 4.84781 in f32 (NumPy), 4.846 here with
  // f16 matmul inputs (within f16's 1e-3 relative rounding).
  // CHECK-NEXT: 1
  // CHECK-NEXT: 6.64614e+35
  // CHECK-NEXT: 0
  // CHECK-NEXT: 4.84{{[0-9]+}}
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  // CHECK-NEXT: 1
  %huge = arith.constant dense<1.329228e+36> : tensor<f32>
  %s:8 = call @train_step(%x, %y, %r#1, %r#2, %r#3, %r#4, %huge, %r#6) : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<784x256xf32>, tensor<1x256xf32>, tensor<256x10xf32>, tensor<1x10xf32>, tensor<f32>, tensor<i32>) -> (tensor<1x1xf32>, tensor<784x256xf32>, tensor<1x256xf32>, tensor<256x10xf32>, tensor<1x10xf32>, tensor<f32>, tensor<i32>, tensor<i1>)
  call @print_state(%s#0, %s#5, %s#6, %s#7) : (tensor<1x1xf32>, tensor<f32>, tensor<i32>, tensor<i1>) -> ()
  %s1d = tensor.cast %s#1 : tensor<784x256xf32> to tensor<?x?xf32>
  call @print_bits(%r1d, %s1d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  %r2d = tensor.cast %r#2 : tensor<1x256xf32> to tensor<?x?xf32>
  %s2d = tensor.cast %s#2 : tensor<1x256xf32> to tensor<?x?xf32>
  call @print_bits(%r2d, %s2d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  %r3d = tensor.cast %r#3 : tensor<256x10xf32> to tensor<?x?xf32>
  %s3d = tensor.cast %s#3 : tensor<256x10xf32> to tensor<?x?xf32>
  call @print_bits(%r3d, %s3d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  %r4d = tensor.cast %r#4 : tensor<1x10xf32> to tensor<?x?xf32>
  %s4d = tensor.cast %s#4 : tensor<1x10xf32> to tensor<?x?xf32>
  call @print_bits(%r4d, %s4d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  return
}
