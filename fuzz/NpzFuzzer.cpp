//===- NpzFuzzer.cpp - amp-train's .npz reader and argument binding -------===//
//
// Reads every input as an .npz file and, when it parses, binds its arrays
// to a small step (images [4, 3] f32, labels [4] i32, a learning rate): a
// damaged or hostile file must be refused with a reason, never crash or
// read out of bounds. Each array's bytes are also parsed alone as an .npy.
//
//===----------------------------------------------------------------------===//

#include "FuzzInput.h"

#include "Npz.h"
#include "StepData.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static amp_fuzz::InputFile file;
  std::string error;
  (void)amp_train::parseNpy(data, size, error);
  auto arrays = amp_train::readNpz(file.write(data, size), error);
  if (!arrays)
    return 0;
  static const int64_t images[] = {4, 3}, labels[] = {4};
  static const amp_tensor_info args[] = {
      {AMP_F32, AMP_ROLE_DATA, -1, 2, images, "images", 0},
      {AMP_I32, AMP_ROLE_DATA, -1, 1, labels, "labels", 0},
      {AMP_F32, AMP_ROLE_DATA, -1, 0, nullptr, "lr", 0}};
  static const amp_function_info step = {"train_step", 3, args, 0, nullptr,
                                         0.0f, 0, nullptr, 0, nullptr};
  (void)amp_train::bindNamedArrays(step, std::move(*arrays), 0.1f, error);
  return 0;
}
