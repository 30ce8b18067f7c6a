//===- Npz.h - NumPy .npy arrays and .npz archives --------------*- C++ -*-===//
//
// What `np.save` / `np.savez` / `np.savez_compressed` write: an .npz is a zip
// archive (read with libzip) of .npy members, each a header (a Python dict
// literal with 'descr', 'fortran_order' and 'shape') and the raw values.
// Only what training data needs is accepted: C-order, little-endian
// numbers and booleans; everything else is refused with the reason.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_TRAIN_NPZ_H
#define AMP_TRAIN_NPZ_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace amp_train {

/// The element types of .npy files amp-train reads, by numpy's name.
enum class NpyType { Float16, Float32, Float64, Int32, Int64, Bool };

/// numpy's name of `type` ("float32", ...).
const char *getNpyTypeName(NpyType type);

/// The bytes of one element of `type`.
size_t getNpyTypeSize(NpyType type);

/// One array: C order, little-endian.
struct NpyArray {
  NpyType type = NpyType::Float32;
  std::vector<int64_t> shape;
  std::vector<unsigned char> bytes;

  int64_t getNumElements() const;
  /// "(4, 28, 28)", as numpy prints a shape.
  std::string describeShape() const;
};

/// Parses the bytes of an .npy file; on malformed or unsupported input,
/// returns nothing and says why in `error`.
std::optional<NpyArray> parseNpy(const unsigned char *data, size_t size,
                                 std::string &error);

/// The arrays of an .npz file by name (the member name without ".npy");
/// on a missing, damaged or unsupported file, returns nothing and says
/// which member and why in `error`.
std::optional<std::map<std::string, NpyArray>>
readNpz(const std::string &path, std::string &error);

} // namespace amp_train

#endif // AMP_TRAIN_NPZ_H
