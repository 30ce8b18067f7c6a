// Every convolution layout that libamprt runs through views of its
// operands (depthwise NHWC with and without a channel multiplier, the HWCF
// filter layout, grouped NHWC, grouped NCHW with FGCHW filters, the plain
// one-image convolution, the 1-D ones as 2-D calls with a unit H, and
// convolutions written as linalg.generics, as torch-mlir leaves 1-D and
// grouped ones and their gradients), each against the same convolution in
// f64, which libamprt does not have and which therefore runs as the loops
// of upstream's lowering. Operands are multiples of 1/8 in [-1, 1] and
// every sum of their products is exact in f32, so the library and the
// loops must agree to the bit, whatever order either sums in: a wrong view
// (a swapped dimension, a missed stride, dilation or pad) shows as a
// nonzero difference.
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

// Element i of an operand: ((7919 i + seed) mod 17 - 8) / 8, in f64 (exact
// in f32 and bf16 too), written into `values`.
func.func @operand_values(%values: memref<?xf64>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %size = memref.dim %values, %c0 : memref<?xf64>
  scf.for %i = %c0 to %size step %c1 {
    %c7919 = arith.constant 7919 : index
    %c17 = arith.constant 17 : index
    %scaled = arith.muli %i, %c7919 : index
    %shifted = arith.addi %scaled, %seed : index
    %r = arith.remui %shifted, %c17 : index
    %ri = arith.index_cast %r : index to i64
    %rf = arith.sitofp %ri : i64 to f64
    %c8 = arith.constant 8.0 : f64
    %s = arith.subf %rf, %c8 : f64
    %v = arith.divf %s, %c8 : f64
    memref.store %v, %values[%i] : memref<?xf64>
  }
  return
}

// Prints "case, max |lib - ref|, 1 if lib is all zeros".
func.func @report(%case: i64, %lib: tensor<?xf32>, %ref: tensor<?xf64>) {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<f32>
  %init = linalg.fill ins(%z : f32) outs(%e : tensor<f32>) -> tensor<f32>
  %diff, %mag = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>, affine_map<(d0) -> ()>],
                                iterator_types = ["reduction"]}
      ins(%lib, %ref : tensor<?xf32>, tensor<?xf64>) outs(%init, %init : tensor<f32>, tensor<f32>) {
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
  call @printI64(%case) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%dv) : (f32) -> ()
  call @printComma() : () -> ()
  call @printI64(%zi) : (i64) -> ()
  call @printNewline() : () -> ()
  return
}

func.func @check_dw_nhwc_hwc() {
  %in_buffer = memref.alloc() : memref<972xf64>
  %in_any = memref.cast %in_buffer : memref<972xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<972xf64> to tensor<972xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<972xf64> to tensor<972xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3]] output_shape [2, 9, 9, 6] : tensor<972xf32> into tensor<2x9x9x6xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3]] output_shape [2, 9, 9, 6] : tensor<972xf64> into tensor<2x9x9x6xf64>
  %w_buffer = memref.alloc() : memref<54xf64>
  %w_any = memref.cast %w_buffer : memref<54xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<54xf64> to tensor<54xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<54xf64> to tensor<54xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2]] output_shape [3, 3, 6] : tensor<54xf32> into tensor<3x3x6xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2]] output_shape [3, 3, 6] : tensor<54xf64> into tensor<3x3x6xf64>
  %lib = call @conv_dw_nhwc_hwc(%in, %w) : (tensor<2x9x9x6xf32>, tensor<3x3x6xf32>) -> tensor<2x3x3x6xf32>
  %ref = call @loops_dw_nhwc_hwc(%in_ref, %w_ref) : (tensor<2x9x9x6xf64>, tensor<3x3x6xf64>) -> tensor<2x3x3x6xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3]] : tensor<2x3x3x6xf32> into tensor<108xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3]] : tensor<2x3x3x6xf64> into tensor<108xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<108xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<108xf64> to tensor<?xf64>
  %case = arith.constant 1 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_dw_nhwc_hwcm() {
  %in_buffer = memref.alloc() : memref<588xf64>
  %in_any = memref.cast %in_buffer : memref<588xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<588xf64> to tensor<588xf64>
  %in_bf16 = arith.truncf %in_f64 : tensor<588xf64> to tensor<588xbf16>
  %in = tensor.expand_shape %in_bf16 [[0, 1, 2, 3]] output_shape [2, 7, 7, 6] : tensor<588xbf16> into tensor<2x7x7x6xbf16>
  %in_ref = tensor.expand_shape %in_bf16 [[0, 1, 2, 3]] output_shape [2, 7, 7, 6] : tensor<588xbf16> into tensor<2x7x7x6xbf16>
  %w_buffer = memref.alloc() : memref<108xf64>
  %w_any = memref.cast %w_buffer : memref<108xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<108xf64> to tensor<108xf64>
  %w_bf16 = arith.truncf %w_f64 : tensor<108xf64> to tensor<108xbf16>
  %w = tensor.expand_shape %w_bf16 [[0, 1, 2, 3]] output_shape [3, 3, 6, 2] : tensor<108xbf16> into tensor<3x3x6x2xbf16>
  %w_ref = tensor.expand_shape %w_bf16 [[0, 1, 2, 3]] output_shape [3, 3, 6, 2] : tensor<108xbf16> into tensor<3x3x6x2xbf16>
  %lib = call @conv_dw_nhwc_hwcm(%in, %w) : (tensor<2x7x7x6xbf16>, tensor<3x3x6x2xbf16>) -> tensor<2x7x7x6x2xf32>
  %ref = call @loops_dw_nhwc_hwcm(%in_ref, %w_ref) : (tensor<2x7x7x6xbf16>, tensor<3x3x6x2xbf16>) -> tensor<2x7x7x6x2xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3, 4]] : tensor<2x7x7x6x2xf32> into tensor<1176xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3, 4]] : tensor<2x7x7x6x2xf64> into tensor<1176xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<1176xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<1176xf64> to tensor<?xf64>
  %case = arith.constant 2 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_nhwc_hwcf() {
  %in_buffer = memref.alloc() : memref<972xf64>
  %in_any = memref.cast %in_buffer : memref<972xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<972xf64> to tensor<972xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<972xf64> to tensor<972xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3]] output_shape [2, 9, 9, 6] : tensor<972xf32> into tensor<2x9x9x6xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3]] output_shape [2, 9, 9, 6] : tensor<972xf64> into tensor<2x9x9x6xf64>
  %w_buffer = memref.alloc() : memref<270xf64>
  %w_any = memref.cast %w_buffer : memref<270xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<270xf64> to tensor<270xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<270xf64> to tensor<270xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2, 3]] output_shape [3, 3, 6, 5] : tensor<270xf32> into tensor<3x3x6x5xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2, 3]] output_shape [3, 3, 6, 5] : tensor<270xf64> into tensor<3x3x6x5xf64>
  %lib = call @conv_nhwc_hwcf(%in, %w) : (tensor<2x9x9x6xf32>, tensor<3x3x6x5xf32>) -> tensor<2x5x5x5xf32>
  %ref = call @loops_nhwc_hwcf(%in_ref, %w_ref) : (tensor<2x9x9x6xf64>, tensor<3x3x6x5xf64>) -> tensor<2x5x5x5xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3]] : tensor<2x5x5x5xf32> into tensor<250xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3]] : tensor<2x5x5x5xf64> into tensor<250xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<250xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<250xf64> to tensor<?xf64>
  %case = arith.constant 3 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_nhwgc_gfhwc() {
  %in_buffer = memref.alloc() : memref<972xf64>
  %in_any = memref.cast %in_buffer : memref<972xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<972xf64> to tensor<972xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<972xf64> to tensor<972xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3, 4]] output_shape [2, 9, 9, 3, 2] : tensor<972xf32> into tensor<2x9x9x3x2xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3, 4]] output_shape [2, 9, 9, 3, 2] : tensor<972xf64> into tensor<2x9x9x3x2xf64>
  %w_buffer = memref.alloc() : memref<216xf64>
  %w_any = memref.cast %w_buffer : memref<216xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<216xf64> to tensor<216xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<216xf64> to tensor<216xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2, 3, 4]] output_shape [3, 4, 3, 3, 2] : tensor<216xf32> into tensor<3x4x3x3x2xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2, 3, 4]] output_shape [3, 4, 3, 3, 2] : tensor<216xf64> into tensor<3x4x3x3x2xf64>
  %lib = call @conv_nhwgc_gfhwc(%in, %w) : (tensor<2x9x9x3x2xf32>, tensor<3x4x3x3x2xf32>) -> tensor<2x7x7x3x4xf32>
  %ref = call @loops_nhwgc_gfhwc(%in_ref, %w_ref) : (tensor<2x9x9x3x2xf64>, tensor<3x4x3x3x2xf64>) -> tensor<2x7x7x3x4xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3, 4]] : tensor<2x7x7x3x4xf32> into tensor<1176xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3, 4]] : tensor<2x7x7x3x4xf64> into tensor<1176xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<1176xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<1176xf64> to tensor<?xf64>
  %case = arith.constant 4 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_ngchw_fgchw() {
  %in_buffer = memref.alloc() : memref<972xf64>
  %in_any = memref.cast %in_buffer : memref<972xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<972xf64> to tensor<972xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<972xf64> to tensor<972xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3, 4]] output_shape [2, 3, 2, 9, 9] : tensor<972xf32> into tensor<2x3x2x9x9xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3, 4]] output_shape [2, 3, 2, 9, 9] : tensor<972xf64> into tensor<2x3x2x9x9xf64>
  %w_buffer = memref.alloc() : memref<216xf64>
  %w_any = memref.cast %w_buffer : memref<216xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<216xf64> to tensor<216xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<216xf64> to tensor<216xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2, 3, 4]] output_shape [4, 3, 2, 3, 3] : tensor<216xf32> into tensor<4x3x2x3x3xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2, 3, 4]] output_shape [4, 3, 2, 3, 3] : tensor<216xf64> into tensor<4x3x2x3x3xf64>
  %lib = call @conv_ngchw_fgchw(%in, %w) : (tensor<2x3x2x9x9xf32>, tensor<4x3x2x3x3xf32>) -> tensor<2x3x4x4x4xf32>
  %ref = call @loops_ngchw_fgchw(%in_ref, %w_ref) : (tensor<2x3x2x9x9xf64>, tensor<4x3x2x3x3xf64>) -> tensor<2x3x4x4x4xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3, 4]] : tensor<2x3x4x4x4xf32> into tensor<384xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3, 4]] : tensor<2x3x4x4x4xf64> into tensor<384xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<384xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<384xf64> to tensor<?xf64>
  %case = arith.constant 5 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_plain() {
  %in_buffer = memref.alloc() : memref<81xf64>
  %in_any = memref.cast %in_buffer : memref<81xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<81xf64> to tensor<81xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<81xf64> to tensor<81xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1]] output_shape [9, 9] : tensor<81xf32> into tensor<9x9xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1]] output_shape [9, 9] : tensor<81xf64> into tensor<9x9xf64>
  %w_buffer = memref.alloc() : memref<9xf64>
  %w_any = memref.cast %w_buffer : memref<9xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<9xf64> to tensor<9xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<9xf64> to tensor<9xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1]] output_shape [3, 3] : tensor<9xf32> into tensor<3x3xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1]] output_shape [3, 3] : tensor<9xf64> into tensor<3x3xf64>
  %lib = call @conv_plain(%in, %w) : (tensor<9x9xf32>, tensor<3x3xf32>) -> tensor<7x7xf32>
  %ref = call @loops_plain(%in_ref, %w_ref) : (tensor<9x9xf64>, tensor<3x3xf64>) -> tensor<7x7xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1]] : tensor<7x7xf32> into tensor<49xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1]] : tensor<7x7xf64> into tensor<49xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<49xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<49xf64> to tensor<?xf64>
  %case = arith.constant 6 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_nwc_wcf() {
  %in_buffer = memref.alloc() : memref<84xf64>
  %in_any = memref.cast %in_buffer : memref<84xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<84xf64> to tensor<84xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<84xf64> to tensor<84xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2]] output_shape [2, 7, 6] : tensor<84xf32> into tensor<2x7x6xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2]] output_shape [2, 7, 6] : tensor<84xf64> into tensor<2x7x6xf64>
  %w_buffer = memref.alloc() : memref<90xf64>
  %w_any = memref.cast %w_buffer : memref<90xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<90xf64> to tensor<90xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<90xf64> to tensor<90xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2]] output_shape [3, 6, 5] : tensor<90xf32> into tensor<3x6x5xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2]] output_shape [3, 6, 5] : tensor<90xf64> into tensor<3x6x5xf64>
  %lib = call @conv_nwc_wcf(%in, %w) : (tensor<2x7x6xf32>, tensor<3x6x5xf32>) -> tensor<2x4x5xf32>
  %ref = call @loops_nwc_wcf(%in_ref, %w_ref) : (tensor<2x7x6xf64>, tensor<3x6x5xf64>) -> tensor<2x4x5xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2]] : tensor<2x4x5xf32> into tensor<40xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2]] : tensor<2x4x5xf64> into tensor<40xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<40xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<40xf64> to tensor<?xf64>
  %case = arith.constant 7 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_ncw_fcw() {
  %in_buffer = memref.alloc() : memref<108xf64>
  %in_any = memref.cast %in_buffer : memref<108xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<108xf64> to tensor<108xf64>
  %in_bf16 = arith.truncf %in_f64 : tensor<108xf64> to tensor<108xbf16>
  %in = tensor.expand_shape %in_bf16 [[0, 1, 2]] output_shape [2, 6, 9] : tensor<108xbf16> into tensor<2x6x9xbf16>
  %in_ref = tensor.expand_shape %in_bf16 [[0, 1, 2]] output_shape [2, 6, 9] : tensor<108xbf16> into tensor<2x6x9xbf16>
  %w_buffer = memref.alloc() : memref<90xf64>
  %w_any = memref.cast %w_buffer : memref<90xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<90xf64> to tensor<90xf64>
  %w_bf16 = arith.truncf %w_f64 : tensor<90xf64> to tensor<90xbf16>
  %w = tensor.expand_shape %w_bf16 [[0, 1, 2]] output_shape [5, 6, 3] : tensor<90xbf16> into tensor<5x6x3xbf16>
  %w_ref = tensor.expand_shape %w_bf16 [[0, 1, 2]] output_shape [5, 6, 3] : tensor<90xbf16> into tensor<5x6x3xbf16>
  %lib = call @conv_ncw_fcw(%in, %w) : (tensor<2x6x9xbf16>, tensor<5x6x3xbf16>) -> tensor<2x5x5xf32>
  %ref = call @loops_ncw_fcw(%in_ref, %w_ref) : (tensor<2x6x9xbf16>, tensor<5x6x3xbf16>) -> tensor<2x5x5xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2]] : tensor<2x5x5xf32> into tensor<50xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2]] : tensor<2x5x5xf64> into tensor<50xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<50xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<50xf64> to tensor<?xf64>
  %case = arith.constant 8 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_dw_nwc_wcm() {
  %in_buffer = memref.alloc() : memref<108xf64>
  %in_any = memref.cast %in_buffer : memref<108xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<108xf64> to tensor<108xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<108xf64> to tensor<108xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2]] output_shape [2, 9, 6] : tensor<108xf32> into tensor<2x9x6xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2]] output_shape [2, 9, 6] : tensor<108xf64> into tensor<2x9x6xf64>
  %w_buffer = memref.alloc() : memref<36xf64>
  %w_any = memref.cast %w_buffer : memref<36xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<36xf64> to tensor<36xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<36xf64> to tensor<36xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2]] output_shape [3, 6, 2] : tensor<36xf32> into tensor<3x6x2xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2]] output_shape [3, 6, 2] : tensor<36xf64> into tensor<3x6x2xf64>
  %lib = call @conv_dw_nwc_wcm(%in, %w) : (tensor<2x9x6xf32>, tensor<3x6x2xf32>) -> tensor<2x7x6x2xf32>
  %ref = call @loops_dw_nwc_wcm(%in_ref, %w_ref) : (tensor<2x9x6xf64>, tensor<3x6x2xf64>) -> tensor<2x7x6x2xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3]] : tensor<2x7x6x2xf32> into tensor<168xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3]] : tensor<2x7x6x2xf64> into tensor<168xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<168xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<168xf64> to tensor<?xf64>
  %case = arith.constant 9 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_dw_ncw_cw() {
  %in_buffer = memref.alloc() : memref<108xf64>
  %in_any = memref.cast %in_buffer : memref<108xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<108xf64> to tensor<108xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<108xf64> to tensor<108xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2]] output_shape [2, 6, 9] : tensor<108xf32> into tensor<2x6x9xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2]] output_shape [2, 6, 9] : tensor<108xf64> into tensor<2x6x9xf64>
  %w_buffer = memref.alloc() : memref<18xf64>
  %w_any = memref.cast %w_buffer : memref<18xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<18xf64> to tensor<18xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<18xf64> to tensor<18xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1]] output_shape [6, 3] : tensor<18xf32> into tensor<6x3xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1]] output_shape [6, 3] : tensor<18xf64> into tensor<6x3xf64>
  %lib = call @conv_dw_ncw_cw(%in, %w) : (tensor<2x6x9xf32>, tensor<6x3xf32>) -> tensor<2x6x4xf32>
  %ref = call @loops_dw_ncw_cw(%in_ref, %w_ref) : (tensor<2x6x9xf64>, tensor<6x3xf64>) -> tensor<2x6x4xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2]] : tensor<2x6x4xf32> into tensor<48xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2]] : tensor<2x6x4xf64> into tensor<48xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<48xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<48xf64> to tensor<?xf64>
  %case = arith.constant 10 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_dw_nwc_wc() {
  %in_buffer = memref.alloc() : memref<108xf64>
  %in_any = memref.cast %in_buffer : memref<108xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<108xf64> to tensor<108xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<108xf64> to tensor<108xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2]] output_shape [2, 9, 6] : tensor<108xf32> into tensor<2x9x6xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2]] output_shape [2, 9, 6] : tensor<108xf64> into tensor<2x9x6xf64>
  %w_buffer = memref.alloc() : memref<18xf64>
  %w_any = memref.cast %w_buffer : memref<18xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<18xf64> to tensor<18xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<18xf64> to tensor<18xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1]] output_shape [3, 6] : tensor<18xf32> into tensor<3x6xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1]] output_shape [3, 6] : tensor<18xf64> into tensor<3x6xf64>
  %lib = call @conv_dw_nwc_wc(%in, %w) : (tensor<2x9x6xf32>, tensor<3x6xf32>) -> tensor<2x7x6xf32>
  %ref = call @loops_dw_nwc_wc(%in_ref, %w_ref) : (tensor<2x9x6xf64>, tensor<3x6xf64>) -> tensor<2x7x6xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2]] : tensor<2x7x6xf32> into tensor<84xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2]] : tensor<2x7x6xf64> into tensor<84xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<84xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<84xf64> to tensor<?xf64>
  %case = arith.constant 11 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_plain_1d() {
  %in_buffer = memref.alloc() : memref<9xf64>
  %in_any = memref.cast %in_buffer : memref<9xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<9xf64> to tensor<9xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<9xf64> to tensor<9xf32>
  %in = tensor.cast %in_f32 : tensor<9xf32> to tensor<9xf32>
  %in_ref = tensor.cast %in_f64 : tensor<9xf64> to tensor<9xf64>
  %w_buffer = memref.alloc() : memref<3xf64>
  %w_any = memref.cast %w_buffer : memref<3xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<3xf64> to tensor<3xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<3xf64> to tensor<3xf32>
  %w = tensor.cast %w_f32 : tensor<3xf32> to tensor<3xf32>
  %w_ref = tensor.cast %w_f64 : tensor<3xf64> to tensor<3xf64>
  %lib = call @conv_plain_1d(%in, %w) : (tensor<9xf32>, tensor<3xf32>) -> tensor<7xf32>
  %ref = call @loops_plain_1d(%in_ref, %w_ref) : (tensor<9xf64>, tensor<3xf64>) -> tensor<7xf64>
  %lib_flat = tensor.cast %lib : tensor<7xf32> to tensor<7xf32>
  %ref_flat = tensor.cast %ref : tensor<7xf64> to tensor<7xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<7xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<7xf64> to tensor<?xf64>
  %case = arith.constant 12 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_generic_grouped_1d() {
  %in_buffer = memref.alloc() : memref<120xf64>
  %in_any = memref.cast %in_buffer : memref<120xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<120xf64> to tensor<120xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<120xf64> to tensor<120xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3]] output_shape [2, 2, 3, 10] : tensor<120xf32> into tensor<2x2x3x10xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3]] output_shape [2, 2, 3, 10] : tensor<120xf64> into tensor<2x2x3x10xf64>
  %w_buffer = memref.alloc() : memref<72xf64>
  %w_any = memref.cast %w_buffer : memref<72xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<72xf64> to tensor<72xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<72xf64> to tensor<72xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2, 3]] output_shape [2, 3, 4, 3] : tensor<72xf32> into tensor<2x3x4x3xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2, 3]] output_shape [2, 3, 4, 3] : tensor<72xf64> into tensor<2x3x4x3xf64>
  %lib = call @conv_generic_grouped_1d(%in, %w) : (tensor<2x2x3x10xf32>, tensor<2x3x4x3xf32>) -> tensor<2x2x4x6xf32>
  %ref = call @loops_generic_grouped_1d(%in_ref, %w_ref) : (tensor<2x2x3x10xf64>, tensor<2x3x4x3xf64>) -> tensor<2x2x4x6xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3]] : tensor<2x2x4x6xf32> into tensor<96xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3]] : tensor<2x2x4x6xf64> into tensor<96xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<96xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<96xf64> to tensor<?xf64>
  %case = arith.constant 13 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_generic_weight_grad_1d() {
  %in_buffer = memref.alloc() : memref<48xf64>
  %in_any = memref.cast %in_buffer : memref<48xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<48xf64> to tensor<48xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<48xf64> to tensor<48xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2]] output_shape [2, 3, 8] : tensor<48xf32> into tensor<2x3x8xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2]] output_shape [2, 3, 8] : tensor<48xf64> into tensor<2x3x8xf64>
  %w_buffer = memref.alloc() : memref<48xf64>
  %w_any = memref.cast %w_buffer : memref<48xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<48xf64> to tensor<48xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<48xf64> to tensor<48xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2]] output_shape [2, 4, 6] : tensor<48xf32> into tensor<2x4x6xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2]] output_shape [2, 4, 6] : tensor<48xf64> into tensor<2x4x6xf64>
  %lib = call @conv_generic_weight_grad_1d(%in, %w) : (tensor<2x3x8xf32>, tensor<2x4x6xf32>) -> tensor<4x3x3xf32>
  %ref = call @loops_generic_weight_grad_1d(%in_ref, %w_ref) : (tensor<2x3x8xf64>, tensor<2x4x6xf64>) -> tensor<4x3x3xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2]] : tensor<4x3x3xf32> into tensor<36xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2]] : tensor<4x3x3xf64> into tensor<36xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<36xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<36xf64> to tensor<?xf64>
  %case = arith.constant 14 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_generic_filter_first() {
  %in_buffer = memref.alloc() : memref<486xf64>
  %in_any = memref.cast %in_buffer : memref<486xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<486xf64> to tensor<486xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<486xf64> to tensor<486xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3]] output_shape [2, 9, 9, 3] : tensor<486xf32> into tensor<2x9x9x3xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3]] output_shape [2, 9, 9, 3] : tensor<486xf64> into tensor<2x9x9x3xf64>
  %w_buffer = memref.alloc() : memref<108xf64>
  %w_any = memref.cast %w_buffer : memref<108xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<108xf64> to tensor<108xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<108xf64> to tensor<108xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1, 2, 3]] output_shape [4, 3, 3, 3] : tensor<108xf32> into tensor<4x3x3x3xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1, 2, 3]] output_shape [4, 3, 3, 3] : tensor<108xf64> into tensor<4x3x3x3xf64>
  %lib = call @conv_generic_filter_first(%in, %w) : (tensor<2x9x9x3xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32>
  %ref = call @loops_generic_filter_first(%in_ref, %w_ref) : (tensor<2x9x9x3xf64>, tensor<4x3x3x3xf64>) -> tensor<2x4x4x4xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3]] : tensor<2x4x4x4xf32> into tensor<128xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3]] : tensor<2x4x4x4xf64> into tensor<128xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<128xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<128xf64> to tensor<?xf64>
  %case = arith.constant 15 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
  return
}

func.func @check_generic_strided_1x1() {
  %in_buffer = memref.alloc() : memref<294xf64>
  %in_any = memref.cast %in_buffer : memref<294xf64> to memref<?xf64>
  %in_seed = arith.constant 1 : index
  call @operand_values(%in_any, %in_seed) : (memref<?xf64>, index) -> ()
  %in_f64 = bufferization.to_tensor %in_buffer restrict : memref<294xf64> to tensor<294xf64>
  %in_f32 = arith.truncf %in_f64 : tensor<294xf64> to tensor<294xf32>
  %in = tensor.expand_shape %in_f32 [[0, 1, 2, 3]] output_shape [2, 7, 7, 3] : tensor<294xf32> into tensor<2x7x7x3xf32>
  %in_ref = tensor.expand_shape %in_f64 [[0, 1, 2, 3]] output_shape [2, 7, 7, 3] : tensor<294xf64> into tensor<2x7x7x3xf64>
  %w_buffer = memref.alloc() : memref<15xf64>
  %w_any = memref.cast %w_buffer : memref<15xf64> to memref<?xf64>
  %w_seed = arith.constant 5 : index
  call @operand_values(%w_any, %w_seed) : (memref<?xf64>, index) -> ()
  %w_f64 = bufferization.to_tensor %w_buffer restrict : memref<15xf64> to tensor<15xf64>
  %w_f32 = arith.truncf %w_f64 : tensor<15xf64> to tensor<15xf32>
  %w = tensor.expand_shape %w_f32 [[0, 1]] output_shape [5, 3] : tensor<15xf32> into tensor<5x3xf32>
  %w_ref = tensor.expand_shape %w_f64 [[0, 1]] output_shape [5, 3] : tensor<15xf64> into tensor<5x3xf64>
  %lib = call @conv_generic_strided_1x1(%in, %w) : (tensor<2x7x7x3xf32>, tensor<5x3xf32>) -> tensor<2x4x4x5xf32>
  %ref = call @loops_generic_strided_1x1(%in_ref, %w_ref) : (tensor<2x7x7x3xf64>, tensor<5x3xf64>) -> tensor<2x4x4x5xf64>
  %lib_flat = tensor.collapse_shape %lib [[0, 1, 2, 3]] : tensor<2x4x4x5xf32> into tensor<160xf32>
  %ref_flat = tensor.collapse_shape %ref [[0, 1, 2, 3]] : tensor<2x4x4x5xf64> into tensor<160xf64>
  %lib_dyn = tensor.cast %lib_flat : tensor<160xf32> to tensor<?xf32>
  %ref_dyn = tensor.cast %ref_flat : tensor<160xf64> to tensor<?xf64>
  %case = arith.constant 16 : i64
  call @report(%case, %lib_dyn, %ref_dyn) : (i64, tensor<?xf32>, tensor<?xf64>) -> ()
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
