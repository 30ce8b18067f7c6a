// RUN: amp-opt %s --amp-order-globals-by-first-use | FileCheck %s

// Every memref.global first, in the order the functions (in module order)
// first read them; unused ones last, by name. The functions keep their
// order.
// CHECK: memref.global "private" constant @read_first
// CHECK-NEXT: memref.global "private" constant @read_second
// CHECK-NEXT: memref.global "private" constant @read_in_other
// CHECK-NEXT: memref.global "private" constant @unused_a
// CHECK-NEXT: memref.global "private" constant @unused_b
// CHECK-NEXT: func.func @step
// CHECK: func.func @predict
// CHECK-NOT: memref.global
memref.global "private" constant @unused_b : memref<2xf32> = dense<[1.0, 2.0]>
memref.global "private" constant @read_in_other : memref<2xi32> = dense<[1, 2]>
func.func @step() -> (memref<2xf32>, memref<2xf32>, memref<2xf32>) {
  %a = memref.get_global @read_first : memref<2xf32>
  %b = memref.get_global @read_second : memref<2xf32>
  %c = memref.get_global @read_first : memref<2xf32>
  return %a, %b, %c : memref<2xf32>, memref<2xf32>, memref<2xf32>
}
memref.global "private" constant @read_second : memref<2xf32> = dense<[3.0, 4.0]>
memref.global "private" constant @unused_a : memref<2xf32> = dense<[5.0, 6.0]>
func.func @predict() -> (memref<2xi32>, memref<2xf32>) {
  %a = memref.get_global @read_in_other : memref<2xi32>
  %b = memref.get_global @read_second : memref<2xf32>
  return %a, %b : memref<2xi32>, memref<2xf32>
}
memref.global "private" constant @read_first : memref<2xf32> = dense<[7.0, 8.0]>
