// Every convolution layout that libamprt runs through views of its
// operands (depthwise NHWC with and without a channel multiplier, the HWCF
// filter layout, grouped NHWC, grouped NCHW with FGCHW filters, the plain
// one-image convolution, the 1-D ones as 2-D calls with a unit H, and
// convolutions written as linalg.generics, as torch-mlir leaves 1-D and
// grouped ones and their gradients),
// each against the same convolution in f64, which libamprt does not have
// and which therefore runs as the loops of upstream's lowering. Operands
// are multiples of 1/8 in [-1, 1] and every sum of their products is exact
// in f32, so the library and the loops must agree to the bit, whatever
// order either sums in: a wrong view (a swapped dimension, a missed
// stride, dilation or pad) shows as a nonzero difference.
// RUN: sed -e 's/@conv_/@loops_/' -e 's/f32/f64/g' %S/Inputs/conv-layouts.mlir > %t.loops.mlir
// RUN: cat %S/Inputs/conv-layouts.mlir %t.loops.mlir %s | amp-opt --amp-lower-to-cpu -o %t.lowered.mlir
// RUN: grep -c 'llvm.call @amp_rt_conv2d' %t.lowered.mlir | FileCheck %s --check-prefix=CALLS
// RUN: mlir-runner %t.lowered.mlir -e main -entry-point-result=void \
// RUN:   -shared-libs=%mlir_c_runner_utils,%amprt | FileCheck %s

// One library call per @conv_ function; the f64 ones stay loops.
// CALLS: {{^}}16{{$}}

// Printed per layout: its number, the largest |library - loops|, and 1
// where the library's output is all zeros (a call that did nothing would
// agree with loops that did nothing).
// CHECK: 1, 0, 0
// CHECK-NEXT: 2, 0, 0
// CHECK-NEXT: 3, 0, 0
// CHECK-NEXT: 4, 0, 0
// CHECK-NEXT: 5, 0, 0
// CHECK-NEXT: 6, 0, 0
// CHECK-NEXT: 7, 0, 0
// CHECK-NEXT: 8, 0, 0
// CHECK-NEXT: 9, 0, 0
// CHECK-NEXT: 10, 0, 0
// CHECK-NEXT: 11, 0, 0
// CHECK-NEXT: 12, 0, 0
// CHECK-NEXT: 13, 0, 0
// CHECK-NEXT: 14, 0, 0
// CHECK-NEXT: 15, 0, 0
// CHECK-NEXT: 16, 0, 0

func.func private @printI64(i64)
func.func private @printF32(f32)
func.func private @printComma()
func.func private @printNewline()

func.func @check_dw_nhwc_hwc() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x9x9x6xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x3x6xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x9x9x6xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x3x6xf64>
  %lib = call @conv_dw_nhwc_hwc(%in, %w) : (tensor<2x9x9x6xf32>, tensor<3x3x6xf32>) -> tensor<2x3x3x6xf32>
  %ref = call @loops_dw_nhwc_hwc(%rin, %rw) : (tensor<2x9x9x6xf64>, tensor<3x3x6xf64>) -> tensor<2x3x3x6xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x3x3x6xf32>, tensor<2x3x3x6xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 1 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_dw_nhwc_hwcm() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<2x7x7x6xbf16>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<3x3x6x2xbf16>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<2x7x7x6xbf16>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<3x3x6x2xbf16>
  %lib = call @conv_dw_nhwc_hwcm(%in, %w) : (tensor<2x7x7x6xbf16>, tensor<3x3x6x2xbf16>) -> tensor<2x7x7x6x2xf32>
  %ref = call @loops_dw_nhwc_hwcm(%rin, %rw) : (tensor<2x7x7x6xbf16>, tensor<3x3x6x2xbf16>) -> tensor<2x7x7x6x2xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x7x7x6x2xf32>, tensor<2x7x7x6x2xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 2 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_nhwc_hwcf() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x9x9x6xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x3x6x5xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x9x9x6xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x3x6x5xf64>
  %lib = call @conv_nhwc_hwcf(%in, %w) : (tensor<2x9x9x6xf32>, tensor<3x3x6x5xf32>) -> tensor<2x5x5x5xf32>
  %ref = call @loops_nhwc_hwcf(%rin, %rw) : (tensor<2x9x9x6xf64>, tensor<3x3x6x5xf64>) -> tensor<2x5x5x5xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x5x5x5xf32>, tensor<2x5x5x5xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 3 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_nhwgc_gfhwc() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x9x9x3x2xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x4x3x3x2xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x9x9x3x2xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x4x3x3x2xf64>
  %lib = call @conv_nhwgc_gfhwc(%in, %w) : (tensor<2x9x9x3x2xf32>, tensor<3x4x3x3x2xf32>) -> tensor<2x7x7x3x4xf32>
  %ref = call @loops_nhwgc_gfhwc(%rin, %rw) : (tensor<2x9x9x3x2xf64>, tensor<3x4x3x3x2xf64>) -> tensor<2x7x7x3x4xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x7x7x3x4xf32>, tensor<2x7x7x3x4xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 4 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_ngchw_fgchw() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x3x2x9x9xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<4x3x2x3x3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x3x2x9x9xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index, %i4: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c4 = arith.constant 3 : index
    %m4 = arith.muli %i4, %c4 : index
    %l5 = arith.addi %l4, %m4 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l5, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<4x3x2x3x3xf64>
  %lib = call @conv_ngchw_fgchw(%in, %w) : (tensor<2x3x2x9x9xf32>, tensor<4x3x2x3x3xf32>) -> tensor<2x3x4x4x4xf32>
  %ref = call @loops_ngchw_fgchw(%rin, %rw) : (tensor<2x3x2x9x9xf64>, tensor<4x3x2x3x3xf64>) -> tensor<2x3x4x4x4xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> ()>, affine_map<(d0, d1, d2, d3, d4) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x3x4x4x4xf32>, tensor<2x3x4x4x4xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 5 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_plain() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<9x9xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<9x9xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x3xf64>
  %lib = call @conv_plain(%in, %w) : (tensor<9x9xf32>, tensor<3x3xf32>) -> tensor<7x7xf32>
  %ref = call @loops_plain(%rin, %rw) : (tensor<9x9xf64>, tensor<3x3xf64>) -> tensor<7x7xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>],
                        iterator_types = ["reduction", "reduction"]}
      ins(%lib, %ref : tensor<7x7xf32>, tensor<7x7xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 6 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_nwc_wcf() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x7x6xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x6x5xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x7x6xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x6x5xf64>
  %lib = call @conv_nwc_wcf(%in, %w) : (tensor<2x7x6xf32>, tensor<3x6x5xf32>) -> tensor<2x4x5xf32>
  %ref = call @loops_nwc_wcf(%rin, %rw) : (tensor<2x7x6xf64>, tensor<3x6x5xf64>) -> tensor<2x4x5xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x4x5xf32>, tensor<2x4x5xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 7 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_ncw_fcw() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<2x6x9xbf16>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<5x6x3xbf16>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<2x6x9xbf16>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.truncf %v : f32 to bf16
    tensor.yield %vt : bf16
  } : tensor<5x6x3xbf16>
  %lib = call @conv_ncw_fcw(%in, %w) : (tensor<2x6x9xbf16>, tensor<5x6x3xbf16>) -> tensor<2x5x5xf32>
  %ref = call @loops_ncw_fcw(%rin, %rw) : (tensor<2x6x9xbf16>, tensor<5x6x3xbf16>) -> tensor<2x5x5xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x5x5xf32>, tensor<2x5x5xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 8 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_dw_nwc_wcm() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x9x6xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x6x2xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x9x6xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x6x2xf64>
  %lib = call @conv_dw_nwc_wcm(%in, %w) : (tensor<2x9x6xf32>, tensor<3x6x2xf32>) -> tensor<2x7x6x2xf32>
  %ref = call @loops_dw_nwc_wcm(%rin, %rw) : (tensor<2x9x6xf64>, tensor<3x6x2xf64>) -> tensor<2x7x6x2xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x7x6x2xf32>, tensor<2x7x6x2xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 9 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_dw_ncw_cw() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x6x9xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<6x3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x6x9xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<6x3xf64>
  %lib = call @conv_dw_ncw_cw(%in, %w) : (tensor<2x6x9xf32>, tensor<6x3xf32>) -> tensor<2x6x4xf32>
  %ref = call @loops_dw_ncw_cw(%rin, %rw) : (tensor<2x6x9xf64>, tensor<6x3xf64>) -> tensor<2x6x4xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x6x4xf32>, tensor<2x6x4xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 10 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_dw_nwc_wc() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x9x6xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3x6xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x9x6xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3x6xf64>
  %lib = call @conv_dw_nwc_wc(%in, %w) : (tensor<2x9x6xf32>, tensor<3x6xf32>) -> tensor<2x7x6xf32>
  %ref = call @loops_dw_nwc_wc(%rin, %rw) : (tensor<2x9x6xf64>, tensor<3x6xf64>) -> tensor<2x7x6xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x7x6xf32>, tensor<2x7x6xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 11 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_plain_1d() {
  %in = tensor.generate {
  ^bb0(%i0: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l1, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<9xf32>
  %w = tensor.generate {
  ^bb0(%i0: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l1, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l1, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<9xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l1, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<3xf64>
  %lib = call @conv_plain_1d(%in, %w) : (tensor<9xf32>, tensor<3xf32>) -> tensor<7xf32>
  %ref = call @loops_plain_1d(%rin, %rw) : (tensor<9xf64>, tensor<3xf64>) -> tensor<7xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                        iterator_types = ["reduction"]}
      ins(%lib, %ref : tensor<7xf32>, tensor<7xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 12 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_generic_grouped_1d() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x2x3x10xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x3x4x3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x2x3x10xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x3x4x3xf64>
  %lib = call @conv_generic_grouped_1d(%in, %w) : (tensor<2x2x3x10xf32>, tensor<2x3x4x3xf32>) -> tensor<2x2x4x6xf32>
  %ref = call @loops_generic_grouped_1d(%rin, %rw) : (tensor<2x2x3x10xf64>, tensor<2x3x4x3xf64>) -> tensor<2x2x4x6xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x2x4x6xf32>, tensor<2x2x4x6xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 13 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_generic_weight_grad_1d() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x3x8xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x4x6xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x3x8xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l3, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x4x6xf64>
  %lib = call @conv_generic_weight_grad_1d(%in, %w) : (tensor<2x3x8xf32>, tensor<2x4x6xf32>) -> tensor<4x3x3xf32>
  %ref = call @loops_generic_weight_grad_1d(%rin, %rw) : (tensor<2x3x8xf64>, tensor<2x4x6xf64>) -> tensor<4x3x3xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> ()>, affine_map<(d0, d1, d2) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<4x3x3xf32>, tensor<4x3x3xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 14 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_generic_filter_first() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x9x9x3xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<4x3x3x3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x9x9x3xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<4x3x3x3xf64>
  %lib = call @conv_generic_filter_first(%in, %w) : (tensor<2x9x9x3xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32>
  %ref = call @loops_generic_filter_first(%rin, %rw) : (tensor<2x9x9x3xf64>, tensor<4x3x3x3xf64>) -> tensor<2x4x4x4xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x4x4x4xf32>, tensor<2x4x4x4xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 15 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_generic_strided_1x1() {
  %in = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<2x7x7x3xf32>
  %w = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    tensor.yield %v : f32
  } : tensor<5x3xf32>
  %rin = tensor.generate {
  ^bb0(%i0: index, %i1: index, %i2: index, %i3: index):
    %l0 = arith.constant 1 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c2 = arith.constant 13 : index
    %m2 = arith.muli %i2, %c2 : index
    %l3 = arith.addi %l2, %m2 : index
    %c3 = arith.constant 7 : index
    %m3 = arith.muli %i3, %c3 : index
    %l4 = arith.addi %l3, %m3 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l4, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<2x7x7x3xf64>
  %rw = tensor.generate {
  ^bb0(%i0: index, %i1: index):
    %l0 = arith.constant 5 : index
    %c0 = arith.constant 31 : index
    %m0 = arith.muli %i0, %c0 : index
    %l1 = arith.addi %l0, %m0 : index
    %c1 = arith.constant 17 : index
    %m1 = arith.muli %i1, %c1 : index
    %l2 = arith.addi %l1, %m1 : index
    %c17 = arith.constant 17 : index
    %r = arith.remui %l2, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f32
    %c8 = arith.constant 8.0 : f32
    %s = arith.subf %rf, %c8 : f32
    %v = arith.divf %s, %c8 : f32
    %vt = arith.extf %v : f32 to f64
    tensor.yield %vt : f64
  } : tensor<5x3xf64>
  %lib = call @conv_generic_strided_1x1(%in, %w) : (tensor<2x7x7x3xf32>, tensor<5x3xf32>) -> tensor<2x4x4x5xf32>
  %ref = call @loops_generic_strided_1x1(%rin, %rw) : (tensor<2x7x7x3xf64>, tensor<5x3xf64>) -> tensor<2x4x4x5xf64>
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> ()>, affine_map<(d0, d1, d2, d3) -> ()>],
                        iterator_types = ["reduction", "reduction", "reduction", "reduction"]}
      ins(%lib, %ref : tensor<2x4x4x5xf32>, tensor<2x4x4x5xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
  ^bb0(%a: f32, %b64: f64, %acc: f32, %big: f32):
    %b = arith.truncf %b64 : f64 to f32
    %d = arith.subf %a, %b : f32
    %ad = math.absf %d : f32
    %m = arith.maximumf %acc, %ad : f32
    %aa = math.absf %a : f32
    %n = arith.maximumf %big, %aa : f32
    linalg.yield %m, %n : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %dv = tensor.extract %diff[] : tensor<f32>
  %mv = tensor.extract %mag[] : tensor<f32>
  %zero = arith.cmpf oeq, %mv, %z : f32
  %zi = arith.extui %zero : i1 to i64
  %case = arith.constant 16 : i64
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @main() {
  call @check_dw_nhwc_hwc() : () -> ()
  call @check_dw_nhwc_hwcm() : () -> ()
  call @check_nhwc_hwcf() : () -> ()
  call @check_nhwgc_gfhwc() : () -> ()
  call @check_ngchw_fgchw() : () -> ()
  call @check_plain() : () -> ()
  call @check_nwc_wcf() : () -> ()
  call @check_ncw_fcw() : () -> ()
  call @check_dw_nwc_wcm() : () -> ()
  call @check_dw_ncw_cw() : () -> ()
  call @check_dw_nwc_wc() : () -> ()
  call @check_plain_1d() : () -> ()
  call @check_generic_grouped_1d() : () -> ()
  call @check_generic_weight_grad_1d() : () -> ()
  call @check_generic_filter_first() : () -> ()
  call @check_generic_strided_1x1() : () -> ()
  return
}
