// RUN: amp-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(amp-forward-identity-copies))' | FileCheck %s

#id1 = affine_map<(d0) -> (d0)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A weight gradient a convolution wrote, copied whole (through reshapes)
// for the overflow check and the update: both read the gradient itself,
// and the copy and its buffer are gone.
// CHECK-LABEL: func.func @gradient_copy
// CHECK: %[[G:.+]] = memref.alloc() : memref<3x2x3x3xf32>
// CHECK-NOT: memref.alloc
// CHECK: linalg.conv_2d_nchw_fchw {{.*}} outs(%[[G]] :
// CHECK: %[[FLAT:.+]] = memref.collapse_shape %[[G]]
// CHECK: linalg.generic {{.*}} ins(%[[FLAT]] : memref<54xf32>) outs(%arg3 :
// CHECK: %[[FLAT2:.+]] = memref.collapse_shape %[[G]]
// CHECK: linalg.generic {{.*}} ins(%arg2, %[[FLAT2]] : {{.*}}) outs(%arg2 :
// CHECK-NOT: linalg.generic
func.func @gradient_copy(%x: memref<3x2x3x3xf32>, %y: memref<2x2x1x1xf32>,
                         %m: memref<54xf32>, %found: memref<54xi1>) {
  %g = memref.alloc() : memref<3x2x3x3xf32>
  linalg.conv_2d_nchw_fchw ins(%x, %y : memref<3x2x3x3xf32>, memref<2x2x1x1xf32>) outs(%g : memref<3x2x3x3xf32>)
  %copy = memref.alloc() : memref<3x2x3x3xf32>
  %gf = memref.collapse_shape %g [[0, 1, 2, 3]] : memref<3x2x3x3xf32> into memref<54xf32>
  %cf = memref.collapse_shape %copy [[0, 1, 2, 3]] : memref<3x2x3x3xf32> into memref<54xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%gf : memref<54xf32>) outs(%cf : memref<54xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %c1 = memref.collapse_shape %copy [[0, 1, 2, 3]] : memref<3x2x3x3xf32> into memref<54xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%c1 : memref<54xf32>) outs(%found : memref<54xi1>) {
  ^bb0(%in: f32, %out: i1):
    %a = math.absf %in : f32
    %inf = arith.constant 0x7F800000 : f32
    %o = arith.cmpf uge, %a, %inf : f32
    linalg.yield %o : i1
  }
  %c2 = memref.collapse_shape %copy [[0, 1, 2, 3]] : memref<3x2x3x3xf32> into memref<54xf32>
  linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%m, %c2 : memref<54xf32>, memref<54xf32>) outs(%m : memref<54xf32>) {
  ^bb0(%mi: f32, %gi: f32, %out: f32):
    %n = arith.addf %mi, %gi : f32
    linalg.yield %n : f32
  }
  return
}

// -----

#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// An argument copied without reshapes: the reader reads the argument.
// CHECK-LABEL: func.func @argument_copy
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%arg1 :
// CHECK-NOT: linalg.generic
func.func @argument_copy(%a: memref<2x2x2x2xf32>, %out: memref<2x2x2x2xf32>) {
  %copy = memref.alloc() : memref<2x2x2x2xf32>
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%a : memref<2x2x2x2xf32>) outs(%copy : memref<2x2x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%copy : memref<2x2x2x2xf32>) outs(%out : memref<2x2x2x2xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  return
}

// -----

#id1 = affine_map<(d0) -> (d0)>

// The source is overwritten (an in-place update) before the copy's last
// reader: the copy stays.
// CHECK-LABEL: func.func @source_written_later
// CHECK: %[[COPY:.+]] = memref.alloc
// CHECK: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%[[COPY]] :
// CHECK: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%arg0 :
// CHECK: linalg.generic {{.*}} ins(%[[COPY]] : {{.*}}) outs(%arg1 :
func.func @source_written_later(%p: memref<8xf32>, %out: memref<8xf32>) {
  %copy = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%p : memref<8xf32>) outs(%copy : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%p : memref<8xf32>) outs(%p : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%copy : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}

// -----

#id1 = affine_map<(d0) -> (d0)>

// The copy is written after it is made (it is a scratch of its own): the
// copy stays; as it does where it is returned.
// CHECK-LABEL: func.func @copy_written_later
// CHECK: %[[COPY:.+]] = memref.alloc
// CHECK: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%[[COPY]] :
// CHECK: linalg.generic {{.*}} outs(%[[COPY]] :
// CHECK: linalg.generic {{.*}} ins(%[[COPY]] : {{.*}}) outs(%arg1 :
// CHECK-LABEL: func.func @copy_returned
// CHECK: %[[RET:.+]] = memref.alloc
// CHECK: linalg.generic {{.*}} ins(%arg0 : {{.*}}) outs(%[[RET]] :
// CHECK: return %[[RET]]
func.func @copy_written_later(%a: memref<8xf32>, %out: memref<8xf32>) {
  %copy = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%copy : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id1], iterator_types = ["parallel"]}
      outs(%copy : memref<8xf32>) {
  ^bb0(%o: f32):
    %n = arith.negf %o : f32
    linalg.yield %n : f32
  }
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%copy : memref<8xf32>) outs(%out : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return
}

func.func @copy_returned(%a: memref<8xf32>) -> memref<8xf32> {
  %copy = memref.alloc() : memref<8xf32>
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%a : memref<8xf32>) outs(%copy : memref<8xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  return %copy : memref<8xf32>
}

// -----

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#tr2 = affine_map<(d0, d1) -> (d1, d0)>

// A transpose is no whole copy in memory order; nor is a copy of part of a
// buffer (a subview), nor one that converts.
// CHECK-LABEL: func.func @not_whole_copies
// CHECK: %[[T:.+]] = memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[T]] :
// CHECK: linalg.generic {{.*}} ins(%[[T]] :
// CHECK: %[[S:.+]] = memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[S]] :
// CHECK: linalg.generic {{.*}} ins(%[[S]] :
// CHECK: %[[C:.+]] = memref.alloc
// CHECK: linalg.generic {{.*}} outs(%[[C]] :
// CHECK: linalg.generic {{.*}} ins(%[[C]] :
func.func @not_whole_copies(%a: memref<4x4xf32>, %b: memref<8x4xf32>,
                            %o1: memref<4x4xf32>, %o2: memref<4x4xf32>,
                            %o3: memref<4x4xbf16>) {
  %t = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#tr2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%t : memref<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<4x4xf32>) outs(%o1 : memref<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %half = memref.subview %b[0, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1]>>
  %s = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%half : memref<4x4xf32, strided<[4, 1]>>) outs(%s : memref<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%s : memref<4x4xf32>) outs(%o2 : memref<4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  %c = memref.alloc() : memref<4x4xbf16>
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x4xf32>) outs(%c : memref<4x4xbf16>) {
  ^bb0(%in: f32, %o: bf16):
    %n = arith.truncf %in : f32 to bf16
    linalg.yield %n : bf16
  }
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<4x4xbf16>) outs(%o3 : memref<4x4xbf16>) {
  ^bb0(%in: bf16, %o: bf16):
    linalg.yield %in : bf16
  }
  return
}
