// Every float op of MLIR 22's TOSA dialect is in the default policy (no
// 'not in the precision policy' remark), and each one, fed a low value
// (%l is a tanh between two matmuls), is rewritten into IR that verifies:
// infer and clear ops run low, deny ops stay f32, contractions accumulate
// in f32. The last RUN line lowers the result to linalg, which checks that
// tosa-to-linalg accepts every retyped op. (tosa.scatter, which has no
// upstream lowering, is tested in amp-autocast.mlir.)
// RUN: amp-opt %s --amp-autocast --verify-diagnostics | FileCheck %s
// RUN: amp-opt %s --amp-autocast | amp-opt --tosa-to-linalg-pipeline -o /dev/null

// CHECK: %[[L:.*]] = tosa.tanh %{{.*}} : (tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: tosa.argmax {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.avg_pool2d {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.max_pool2d {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.conv2d {{.*}} : (tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>, tensor<1xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.depthwise_conv2d {{.*}} : (tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>, tensor<1xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.transpose_conv2d {{.*}} : (tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>, tensor<1xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.conv3d {{.*}} : (tensor<{{[0-9x]+}}xf16>, tensor<{{[0-9x]+}}xf16>, tensor<1xf32>, tensor<1xf16>, tensor<1xf16>) -> tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.fft2d {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.rfft2d {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.clamp {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.erf {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.sigmoid {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.tanh {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.add {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.maximum {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.minimum {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.mul {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.pow {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.sub {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.abs {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.ceil {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.cos {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.exp {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.floor {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.log {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.negate {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.reciprocal {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.rsqrt {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.sin {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.select {{.*}} : (tensor<1x4x4xi1>, tensor<1x4x4xf16>, tensor<1x4x4xf16>) -> tensor<1x4x4xf16>
// CHECK: tosa.equal {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.greater {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.greater_equal {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.reduce_max {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.reduce_min {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.reduce_product {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.reduce_sum {{.*}} : (tensor<{{[0-9x]+}}xf32>
// CHECK: tosa.concat {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.pad {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.reshape {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.reverse {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.slice {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.tile {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.transpose {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.gather {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.resize {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.identity {{.*}} : (tensor<{{[0-9x]+}}xf16>
// CHECK: tosa.dim {{.*}} : (tensor<{{[0-9x]+}}xf16>
func.func @every_tosa_float_op(%a: tensor<1x4x4xf32>, %p: tensor<1x4x4xi1>, %idx: tensor<1x2xi32>, %w4: tensor<1x1x1x1xf32>, %w5: tensor<1x1x1x1x1xf32>, %bias: tensor<1xf32>) -> (tensor<1x4x4xf32>, tensor<1x4xi32>, tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>, tensor<1x1x4x4x1xf32>, tensor<1x4x4xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xi1>, tensor<1x4x4xi1>, tensor<1x4x4xi1>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x8x4xf32>, tensor<1x6x4xf32>, tensor<1x16xf32>, tensor<1x4x4xf32>, tensor<1x2x4xf32>, tensor<1x8x4xf32>, tensor<1x4x4xf32>, tensor<1x2x4xf32>, tensor<1x7x7x1xf32>, tensor<1x4x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %padding = tosa.const_shape {values = dense<[0, 0, 1, 1, 0, 0]> : tensor<6xindex>} : () -> !tosa.shape<6>
  %shape16 = tosa.const_shape {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %shape4 = tosa.const_shape {values = dense<[1, 4, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %shape5 = tosa.const_shape {values = dense<[1, 1, 4, 4, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %start = tosa.const_shape {values = dense<[0, 1, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %size = tosa.const_shape {values = dense<[1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %multiples = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %scale = tosa.const_shape {values = dense<[2, 1, 2, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %offset = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %border = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %m1 = tosa.matmul %a, %a, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %l = tosa.tanh %m1 : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %m2 = tosa.matmul %l, %l, %zp, %zp : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %l4 = tosa.reshape %l, %shape4 : (tensor<1x4x4xf32>, !tosa.shape<4>) -> tensor<1x4x4x1xf32>
  %l5 = tosa.reshape %l, %shape5 : (tensor<1x4x4xf32>, !tosa.shape<5>) -> tensor<1x1x4x4x1xf32>
  %argmax = tosa.argmax %l {axis = 2 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4xi32>
  %avg_pool2d = tosa.avg_pool2d %l4, %zp, %zp {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
  %max_pool2d = tosa.max_pool2d %l4 {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>) -> tensor<1x3x3x1xf32>
  %conv2d = tosa.conv2d %l4, %w4, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  %depthwise_conv2d = tosa.depthwise_conv2d %l4, %w4, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  %transpose_conv2d = tosa.transpose_conv2d %l4, %w4, %bias, %zp, %zp {acc_type = f32, out_pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  %conv3d = tosa.conv3d %l5, %w5, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1, 1>, pad = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x1x4x4x1xf32>, tensor<1x1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x4x1xf32>
  %fft2d:2 = tosa.fft2d %l, %l {inverse = false} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> (tensor<1x4x4xf32>, tensor<1x4x4xf32>)
  %rfft2d:2 = tosa.rfft2d %l : (tensor<1x4x4xf32>) -> (tensor<1x4x3xf32>, tensor<1x4x3xf32>)
  %clamp = tosa.clamp %l {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %erf = tosa.erf %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sigmoid = tosa.sigmoid %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %tanh = tosa.tanh %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %add = tosa.add %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %maximum = tosa.maximum %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %minimum = tosa.minimum %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %mul = tosa.mul %l, %l, %shift : (tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1xi8>) -> tensor<1x4x4xf32>
  %pow = tosa.pow %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sub = tosa.sub %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %abs = tosa.abs %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %ceil = tosa.ceil %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %cos = tosa.cos %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %exp = tosa.exp %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %floor = tosa.floor %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %log = tosa.log %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %negate = tosa.negate %l, %zp, %zp : (tensor<1x4x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4xf32>
  %reciprocal = tosa.reciprocal %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %rsqrt = tosa.rsqrt %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %sin = tosa.sin %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %select = tosa.select %p, %l, %l : (tensor<1x4x4xi1>, tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %equal = tosa.equal %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xi1>
  %greater = tosa.greater %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xi1>
  %greater_equal = tosa.greater_equal %l, %l : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x4x4xi1>
  %reduce_max = tosa.reduce_max %l {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %reduce_min = tosa.reduce_min %l {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %reduce_product = tosa.reduce_product %l {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %reduce_sum = tosa.reduce_sum %l {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x1x4xf32>
  %concat = tosa.concat %l, %l {axis = 1 : i32} : (tensor<1x4x4xf32>, tensor<1x4x4xf32>) -> tensor<1x8x4xf32>
  %pad = tosa.pad %l, %padding, %zp : (tensor<1x4x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<1x6x4xf32>
  %reshape = tosa.reshape %l, %shape16 : (tensor<1x4x4xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
  %reverse = tosa.reverse %l {axis = 1 : i32} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %slice = tosa.slice %l, %start, %size : (tensor<1x4x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x2x4xf32>
  %tile = tosa.tile %l, %multiples : (tensor<1x4x4xf32>, !tosa.shape<3>) -> tensor<1x8x4xf32>
  %transpose = tosa.transpose %l {perms = array<i32: 0, 2, 1>} : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %gather = tosa.gather %l, %idx : (tensor<1x4x4xf32>, tensor<1x2xi32>) -> tensor<1x2x4xf32>
  %resize = tosa.resize %l4, %scale, %offset, %border {mode = BILINEAR} : (tensor<1x4x4x1xf32>, !tosa.shape<4>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x7x7x1xf32>
  %identity = tosa.identity %l : (tensor<1x4x4xf32>) -> tensor<1x4x4xf32>
  %dim = tosa.dim %l {axis = 1 : i32} : (tensor<1x4x4xf32>) -> !tosa.shape<1>
  return %m2, %argmax, %avg_pool2d, %max_pool2d, %conv2d, %depthwise_conv2d, %transpose_conv2d, %conv3d, %fft2d#0, %rfft2d#0, %clamp, %erf, %sigmoid, %tanh, %add, %maximum, %minimum, %mul, %pow, %sub, %abs, %ceil, %cos, %exp, %floor, %log, %negate, %reciprocal, %rsqrt, %sin, %select, %equal, %greater, %greater_equal, %reduce_max, %reduce_min, %reduce_product, %reduce_sum, %concat, %pad, %reshape, %reverse, %slice, %tile, %transpose, %gather, %resize, %identity : tensor<1x4x4xf32>, tensor<1x4xi32>, tensor<1x3x3x1xf32>, tensor<1x3x3x1xf32>, tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>, tensor<1x4x4x1xf32>, tensor<1x1x4x4x1xf32>, tensor<1x4x4xf32>, tensor<1x4x3xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xf32>, tensor<1x4x4xi1>, tensor<1x4x4xi1>, tensor<1x4x4xi1>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x1x4xf32>, tensor<1x8x4xf32>, tensor<1x6x4xf32>, tensor<1x16xf32>, tensor<1x4x4xf32>, tensor<1x2x4xf32>, tensor<1x8x4xf32>, tensor<1x4x4xf32>, tensor<1x2x4xf32>, tensor<1x7x7x1xf32>, tensor<1x4x4xf32>
}
