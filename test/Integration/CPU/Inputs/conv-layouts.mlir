// The convolution layouts libamprt runs through views
// (conv-layouts.mlir): each function is one named linalg convolution.

func.func @conv_dw_nhwc_hwc(%in: tensor<2x9x9x6xf32>, %w: tensor<3x3x6xf32>) -> tensor<2x3x3x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x3x6xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x3x6xf32>) -> tensor<2x3x3x6xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwc {strides = dense<2> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<2x9x9x6xf32>, tensor<3x3x6xf32>) outs(%o : tensor<2x3x3x6xf32>) -> tensor<2x3x3x6xf32>
  return %r : tensor<2x3x3x6xf32>
}

// What tosa.depthwise_conv2d lowers to: a zero-padded input, a channel
// multiplier, bf16 operands.
func.func @conv_dw_nhwc_hwcm(%in: tensor<2x7x7x6xbf16>, %w: tensor<3x3x6x2xbf16>) -> tensor<2x7x7x6x2xf32> {
  %zb = arith.constant 0.0 : bf16
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zb : bf16
  } : tensor<2x7x7x6xbf16> to tensor<2x9x9x6xbf16>
  %e = tensor.empty() : tensor<2x7x7x6x2xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x6x2xf32>) -> tensor<2x7x7x6x2xf32>
  %r = linalg.depthwise_conv_2d_nhwc_hwcm {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<2x9x9x6xbf16>, tensor<3x3x6x2xbf16>) outs(%o : tensor<2x7x7x6x2xf32>) -> tensor<2x7x7x6x2xf32>
  return %r : tensor<2x7x7x6x2xf32>
}

func.func @conv_nhwc_hwcf(%in: tensor<2x9x9x6xf32>, %w: tensor<3x3x6x5xf32>) -> tensor<2x5x5x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x5x5x5xf32>) -> tensor<2x5x5x5xf32>
  %r = linalg.conv_2d_nhwc_hwcf {strides = dense<1> : tensor<2xi64>, dilations = dense<2> : tensor<2xi64>}
      ins(%in, %w : tensor<2x9x9x6xf32>, tensor<3x3x6x5xf32>) outs(%o : tensor<2x5x5x5xf32>) -> tensor<2x5x5x5xf32>
  return %r : tensor<2x5x5x5xf32>
}

func.func @conv_nhwgc_gfhwc(%in: tensor<2x9x9x3x2xf32>, %w: tensor<3x4x3x3x2xf32>) -> tensor<2x7x7x3x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x7x3x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x7x3x4xf32>) -> tensor<2x7x7x3x4xf32>
  %r = linalg.conv_2d_nhwgc_gfhwc {strides = dense<1> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x9x9x3x2xf32>, tensor<3x4x3x3x2xf32>) outs(%o : tensor<2x7x7x3x4xf32>) -> tensor<2x7x7x3x4xf32>
  return %r : tensor<2x7x7x3x4xf32>
}

func.func @conv_ngchw_fgchw(%in: tensor<2x3x2x9x9xf32>, %w: tensor<4x3x2x3x3xf32>) -> tensor<2x3x4x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x4x4x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x3x4x4x4xf32>) -> tensor<2x3x4x4x4xf32>
  %r = linalg.conv_2d_ngchw_fgchw {strides = dense<2> : tensor<2xi64>, dilations = dense<1> : tensor<2xi64>}
      ins(%in, %w : tensor<2x3x2x9x9xf32>, tensor<4x3x2x3x3xf32>) outs(%o : tensor<2x3x4x4x4xf32>) -> tensor<2x3x4x4x4xf32>
  return %r : tensor<2x3x4x4x4xf32>
}

func.func @conv_plain(%in: tensor<9x9xf32>, %w: tensor<3x3xf32>) -> tensor<7x7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7x7xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<7x7xf32>) -> tensor<7x7xf32>
  %r = linalg.conv_2d ins(%in, %w : tensor<9x9xf32>, tensor<3x3xf32>) outs(%o : tensor<7x7xf32>) -> tensor<7x7xf32>
  return %r : tensor<7x7xf32>
}

// 1-D, as 2-D calls with a unit H; one with its input zero-padded in W.
func.func @conv_nwc_wcf(%in: tensor<2x7x6xf32>, %w: tensor<3x6x5xf32>) -> tensor<2x4x5xf32> {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %in low[0, 1, 0] high[0, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index):
    tensor.yield %z : f32
  } : tensor<2x7x6xf32> to tensor<2x9x6xf32>
  %e = tensor.empty() : tensor<2x4x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  %r = linalg.conv_1d_nwc_wcf {strides = dense<2> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>}
      ins(%p, %w : tensor<2x9x6xf32>, tensor<3x6x5xf32>) outs(%o : tensor<2x4x5xf32>) -> tensor<2x4x5xf32>
  return %r : tensor<2x4x5xf32>
}

func.func @conv_ncw_fcw(%in: tensor<2x6x9xbf16>, %w: tensor<5x6x3xbf16>) -> tensor<2x5x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x5x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  %r = linalg.conv_1d_ncw_fcw {strides = dense<1> : tensor<1xi64>, dilations = dense<2> : tensor<1xi64>}
      ins(%in, %w : tensor<2x6x9xbf16>, tensor<5x6x3xbf16>) outs(%o : tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
  return %r : tensor<2x5x5xf32>
}

func.func @conv_dw_nwc_wcm(%in: tensor<2x9x6xf32>, %w: tensor<3x6x2xf32>) -> tensor<2x7x6x2xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x6x2xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x6x2xf32>) -> tensor<2x7x6x2xf32>
  %r = linalg.depthwise_conv_1d_nwc_wcm {strides = dense<1> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>}
      ins(%in, %w : tensor<2x9x6xf32>, tensor<3x6x2xf32>) outs(%o : tensor<2x7x6x2xf32>) -> tensor<2x7x6x2xf32>
  return %r : tensor<2x7x6x2xf32>
}

func.func @conv_dw_ncw_cw(%in: tensor<2x6x9xf32>, %w: tensor<6x3xf32>) -> tensor<2x6x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x6x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  %r = linalg.depthwise_conv_1d_ncw_cw {strides = dense<2> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>}
      ins(%in, %w : tensor<2x6x9xf32>, tensor<6x3xf32>) outs(%o : tensor<2x6x4xf32>) -> tensor<2x6x4xf32>
  return %r : tensor<2x6x4xf32>
}

func.func @conv_dw_nwc_wc(%in: tensor<2x9x6xf32>, %w: tensor<3x6xf32>) -> tensor<2x7x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x7x6xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x7x6xf32>) -> tensor<2x7x6xf32>
  %r = linalg.depthwise_conv_1d_nwc_wc {strides = dense<1> : tensor<1xi64>, dilations = dense<1> : tensor<1xi64>}
      ins(%in, %w : tensor<2x9x6xf32>, tensor<3x6xf32>) outs(%o : tensor<2x7x6xf32>) -> tensor<2x7x6xf32>
  return %r : tensor<2x7x6xf32>
}

func.func @conv_plain_1d(%in: tensor<9xf32>, %w: tensor<3xf32>) -> tensor<7xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<7xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %r = linalg.conv_1d ins(%in, %w : tensor<9xf32>, tensor<3xf32>) outs(%o : tensor<7xf32>) -> tensor<7xf32>
  return %r : tensor<7xf32>
}

// Convolutions as torch-mlir and fusion leave them, linalg.generics: a
// grouped 1-D convolution (groups as a loop of all three operands), a 1-D
// weight gradient (the batch is reduced, the taps are the output's), a
// strided convolution whose filter comes first, and a strided 1x1 one
// whose filter lost its unit taps.
func.func @conv_generic_grouped_1d(%in: tensor<2x2x3x10xf32>, %w: tensor<2x3x4x3xf32>) -> tensor<2x2x4x6xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2x4x6xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x2x4x6xf32>) -> tensor<2x2x4x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5 * 2 + d3)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d4, d2, d5)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %w : tensor<2x2x3x10xf32>, tensor<2x3x4x3xf32>) outs(%o : tensor<2x2x4x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %m, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2x2x4x6xf32>
  return %r : tensor<2x2x4x6xf32>
}

func.func @conv_generic_weight_grad_1d(%in: tensor<2x3x8xf32>, %w: tensor<2x4x6xf32>) -> tensor<4x3x3xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x3x3xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<4x3x3xf32>) -> tensor<4x3x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d3, d1, d2 + d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d3, d0, d4)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%in, %w : tensor<2x3x8xf32>, tensor<2x4x6xf32>) outs(%o : tensor<4x3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<4x3x3xf32>
  return %r : tensor<4x3x3xf32>
}

func.func @conv_generic_filter_first(%in: tensor<2x9x9x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x4x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x4xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x4x4xf32>) -> tensor<2x4x4x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d3, d4, d5, d6)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1 * 2 + d4, d2 * 2 + d5, d6)>,
                                        affine_map<(d0, d1, d2, d3, d4, d5, d6) -> (d0, d1, d2, d3)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%w, %in : tensor<4x3x3x3xf32>, tensor<2x9x9x3xf32>) outs(%o : tensor<2x4x4x4xf32>) {
  ^bb0(%b: f32, %a: f32, %acc: f32):
    %m = arith.mulf %b, %a : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x4x4xf32>
  return %r : tensor<2x4x4x4xf32>
}

func.func @conv_generic_strided_1x1(%in: tensor<2x7x7x3xf32>, %w: tensor<5x3xf32>) -> tensor<2x4x4x5xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4x4x5xf32>
  %o = linalg.fill ins(%z : f32) outs(%e : tensor<2x4x4x5xf32>) -> tensor<2x4x4x5xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4) -> (d0, d1 * 2, d2 * 2, d3)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d4, d3)>,
                                        affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d4)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction", "parallel"]}
      ins(%in, %w : tensor<2x7x7x3xf32>, tensor<5x3xf32>) outs(%o : tensor<2x4x4x5xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<2x4x4x5xf32>
  return %r : tensor<2x4x4x5xf32>
}
