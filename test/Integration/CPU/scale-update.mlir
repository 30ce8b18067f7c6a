// Executes amp.update_scale, lowered and compiled by
// --amp-lower-to-cpu: the sequences of the loss-scaling issue and
// PyTorch's GradScaler semantics, with exact (power-of-two) values.
// RUN: amp-opt %s --amp-lower-to-cpu \
// RUN:   | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_c_runner_utils,%amprt \
// RUN:   | FileCheck %s

func.func private @printF32(f32)
func.func private @printI64(i64)
func.func private @printComma()
func.func private @printNewline()

// growth 2, backoff 0.25, interval 2.
func.func @step(%inf: i1, %scale: tensor<f32>, %tracker: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %found = tensor.from_elements %inf : tensor<i1>
  %s, %t = amp.update_scale %found, %scale, %tracker {growth_factor = 2.0 : f32, backoff_factor = 0.25 : f32, growth_interval = 2 : i64, min_scale = 0.0 : f32, max_scale = 0x7F800000 : f32, hysteresis = 1 : i64}
  return %s, %t : tensor<f32>, tensor<i32>
}

// The same with min_scale 1, max_scale 16 and hysteresis 2.
func.func @step_bounded(%inf: i1, %scale: tensor<f32>, %tracker: tensor<i32>, %hyst: tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>) {
  %found = tensor.from_elements %inf : tensor<i1>
  %s, %t, %h = amp.update_scale %found, %scale, %tracker, %hyst {growth_factor = 2.0 : f32, backoff_factor = 0.25 : f32, growth_interval = 2 : i64, min_scale = 1.0 : f32, max_scale = 16.0 : f32, hysteresis = 2 : i64}
  return %s, %t, %h : tensor<f32>, tensor<i32>, tensor<i32>
}

func.func @print(%s: tensor<f32>, %t: tensor<i32>) {
  %sv = tensor.extract %s[] : tensor<f32>
  %tv = tensor.extract %t[] : tensor<i32>
  %t64 = arith.extsi %tv : i32 to i64
  call @printF32(%sv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%t64) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @print3(%s: tensor<f32>, %t: tensor<i32>, %h: tensor<i32>) {
  %hv = tensor.extract %h[] : tensor<i32>
  %h64 = arith.extsi %hv : i32 to i64
  call @printI64(%h64) : (i64) -> ()
  call @printComma() : () -> ()
  call @print(%s, %t) : (tensor<f32>, tensor<i32>) -> ()
  return
}

func.func @main() {
  %false = arith.constant false
  %true = arith.constant true
  %s0 = arith.constant dense<4.0> : tensor<f32>
  %t0 = arith.constant dense<0> : tensor<i32>
  // CHECK: 4, 1
  %s1, %t1 = call @step(%false, %s0, %t0) : (i1, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  call @print(%s1, %t1) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT: 8, 0
  %s2, %t2 = call @step(%false, %s1, %t1) : (i1, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  call @print(%s2, %t2) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT: 2, 0
  %s3, %t3 = call @step(%true, %s2, %t2) : (i1, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  call @print(%s3, %t3) : (tensor<f32>, tensor<i32>) -> ()
  // An overflow in the middle of an interval resets the tracker.
  // CHECK-NEXT: 2, 1
  %s4, %t4 = call @step(%false, %s3, %t3) : (i1, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  call @print(%s4, %t4) : (tensor<f32>, tensor<i32>) -> ()
  // CHECK-NEXT: 0.5, 0
  %s5, %t5 = call @step(%true, %s4, %t4) : (i1, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  call @print(%s5, %t5) : (tensor<f32>, tensor<i32>) -> ()

  // A growth to a non-finite value is refused (the scale stays), and the
  // tracker restarts, as in PyTorch.
  // CHECK-NEXT: 2{{(\.0*)?}}e+38, 0
  %big = arith.constant dense<2.0e+38> : tensor<f32>
  %one = arith.constant dense<1> : tensor<i32>
  %s6, %t6 = call @step(%false, %big, %one) : (i1, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
  call @print(%s6, %t6) : (tensor<f32>, tensor<i32>) -> ()

  // Bounds and hysteresis 2, printed as "hysteresis, scale, tracker":
  // growth stops at max_scale 16;
  // CHECK-NEXT: 2, 16, 0
  %s16 = arith.constant dense<16.0> : tensor<f32>
  %h2 = arith.constant dense<2> : tensor<i32>
  %b1:3 = call @step_bounded(%false, %s16, %one, %h2) : (i1, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>)
  call @print3(%b1#0, %b1#1, %b1#2) : (tensor<f32>, tensor<i32>, tensor<i32>) -> ()
  // the first overflow is tolerated (scale kept, one tolerance used);
  // CHECK-NEXT: 1, 16, 0
  %b2:3 = call @step_bounded(%true, %b1#0, %b1#1, %b1#2) : (i1, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>)
  call @print3(%b2#0, %b2#1, %b2#2) : (tensor<f32>, tensor<i32>, tensor<i32>) -> ()
  // the second backs off: 16 * 0.25 = 4;
  // CHECK-NEXT: 1, 4, 0
  %b3:3 = call @step_bounded(%true, %b2#0, %b2#1, %b2#2) : (i1, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>)
  call @print3(%b3#0, %b3#1, %b3#2) : (tensor<f32>, tensor<i32>, tensor<i32>) -> ()
  // the next backs off to 1, not 1/4 (min_scale);
  // CHECK-NEXT: 1, 1, 0
  %b4:3 = call @step_bounded(%true, %b3#0, %b3#1, %b3#2) : (i1, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>)
  call @print3(%b4#0, %b4#1, %b4#2) : (tensor<f32>, tensor<i32>, tensor<i32>) -> ()
  // two good steps grow the scale and restore the tolerance.
  // CHECK-NEXT: 1, 1, 1
  // CHECK-NEXT: 2, 2, 0
  %b5:3 = call @step_bounded(%false, %b4#0, %b4#1, %b4#2) : (i1, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>)
  call @print3(%b5#0, %b5#1, %b5#2) : (tensor<f32>, tensor<i32>, tensor<i32>) -> ()
  %b6:3 = call @step_bounded(%false, %b5#0, %b5#1, %b5#2) : (i1, tensor<f32>, tensor<i32>, tensor<i32>) -> (tensor<f32>, tensor<i32>, tensor<i32>)
  call @print3(%b6#0, %b6#1, %b6#2) : (tensor<f32>, tensor<i32>, tensor<i32>) -> ()
  return
}
