func.func @f(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %c: tensor<2x4xf32>) -> tensor<2x4xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<2x3xf32>, tensor<3x4xf32>) outs(%c : tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = tensor.empty() : tensor<2x4xf32>
  %2 = linalg.tanh ins(%0 : tensor<2x4xf32>) outs(%1 : tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = arith.addf %2, %c : tensor<2x4xf32>
  %4 = linalg.exp ins(%3 : tensor<2x4xf32>) outs(%1 : tensor<2x4xf32>) -> tensor<2x4xf32>
  return %4 : tensor<2x4xf32>
}
