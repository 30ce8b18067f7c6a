//===- NpzTest.cpp - .npy/.npz reading and binding arrays to a step -------===//

#include "Npz.h"
#include "StepData.h"

#include <gtest/gtest.h>
#include <zip.h>

#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>

using namespace amp_train;

namespace {

/// The bytes of an .npy file (format 1.0) as np.save writes it.
std::string npy(const std::string &descr, const std::string &shape,
                const std::string &payload, const char *order = "False") {
  std::string header = "{'descr': '" + descr + "', 'fortran_order': " + order +
                       ", 'shape': " + shape + ", }";
  while ((10 + header.size() + 1) % 64)
    header += ' ';
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + payload;
}

template <typename T> std::string raw(std::vector<T> values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(T));
}

std::optional<NpyArray> parse(const std::string &bytes, std::string &error) {
  return parseNpy(reinterpret_cast<const unsigned char *>(bytes.data()),
                  bytes.size(), error);
}

/// An .npz in a temporary file: members stored (np.savez) or deflated
/// (np.savez_compressed).
std::string writeNpz(const std::vector<std::pair<std::string, std::string>>
                         &members,
                     bool compressed = false) {
  char path[] = "/tmp/amp-npz-test-XXXXXX.npz";
  int fd = mkstemps(path, 4);
  EXPECT_GE(fd, 0);
  close(fd);
  int code = 0;
  zip_t *archive = zip_open(path, ZIP_TRUNCATE, &code);
  EXPECT_NE(archive, nullptr);
  for (const auto &[name, bytes] : members) {
    zip_source_t *source =
        zip_source_buffer(archive, bytes.data(), bytes.size(), 0);
    zip_int64_t index =
        zip_file_add(archive, name.c_str(), source, ZIP_FL_OVERWRITE);
    EXPECT_GE(index, 0);
    zip_set_file_compression(archive, index,
                             compressed ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0);
  }
  EXPECT_EQ(zip_close(archive), 0);
  return path;
}

TEST(Npy, ParsesWhatNumpyWrites) {
  std::string error;
  std::optional<NpyArray> a =
      parse(npy("<f4", "(2, 3)", raw<float>({1, 2, 3, 4, 5, 6})), error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->type, NpyType::Float32);
  EXPECT_EQ(a->shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a->describeShape(), "(2, 3)");
  EXPECT_EQ(a->bytes.size(), 24u);
  std::optional<NpyArray> ids = parse(npy("<i8", "(4,)", raw<int64_t>({1, 2, 3, 4})), error);
  ASSERT_TRUE(ids) << error;
  EXPECT_EQ(ids->describeShape(), "(4,)");
  std::optional<NpyArray> scalar = parse(npy("<f4", "()", raw<float>({0.5f})), error);
  ASSERT_TRUE(scalar) << error;
  EXPECT_TRUE(scalar->shape.empty());
  std::optional<NpyArray> mask = parse(npy("|b1", "(2,)", std::string("\1\0", 2)), error);
  ASSERT_TRUE(mask) << error;
  EXPECT_EQ(mask->type, NpyType::Bool);
}

TEST(Npy, RefusesWhatItCannotRead) {
  struct Case {
    std::string bytes, error;
  };
  std::string four = raw<float>({1, 2, 3, 4});
  std::vector<Case> cases = {
      {"PK\3\4 not npy", "not an .npy array"},
      {npy("<f4", "(2, 2)", four).substr(0, 30), "is truncated: its header"},
      {npy("<f4", "(2, 3)", four),
       "is truncated: shape (2, 3) needs more than its 16 bytes of values"},
      {npy("<f4", "(1, 2)", four), "takes 8"},
      {npy(">f4", "(2, 2)", four), "big-endian"},
      {npy("<c8", "(2,)", four), "it holds '<c8'"},
      {npy("<f4", "(2, 2)", four, "True"), "Fortran order"},
      {npy("<f4", "(2, -2)", four), "'shape' that is not a tuple of sizes"},
      {npy("<f4", "(99999999999999999999, 2)", four),
       "'shape' that is not a tuple of sizes"},
      {npy("<f4", "(4294967296, 4294967296)", four), "is truncated: shape"},
      {npy("<f4", "[2, 2]", four), "'shape' that is not a tuple"},
      {npy("<f4", "(2, 2)", four, "maybe"), "'fortran_order' that is not"},
  };
  std::string structured = npy("<f4", "(2, 2)", four);
  structured.replace(structured.find("'<f4'"), 5, "[('a', '<f4')]");
  cases.push_back({structured, "structured arrays are not supported"});
  std::string version = npy("<f4", "(2, 2)", four);
  version[6] = 9;
  cases.push_back({version, "format version 9.0"});
  for (const Case &c : cases) {
    std::string error;
    EXPECT_FALSE(parse(c.bytes, error));
    EXPECT_NE(error.find(c.error), std::string::npos)
        << "got '" << error << "', expected '" << c.error << "'";
  }
}

TEST(Npz, ReadsStoredAndCompressedArchives) {
  for (bool compressed : {false, true}) {
    std::string path = writeNpz(
        {{"x.npy", npy("<f4", "(2, 2)", raw<float>({1, 2, 3, 4}))},
         {"labels.npy", npy("<i8", "(2,)", raw<int64_t>({7, 8}))}},
        compressed);
    std::string error;
    auto arrays = readNpz(path, error);
    ASSERT_TRUE(arrays) << error;
    EXPECT_EQ(arrays->size(), 2u);
    EXPECT_EQ(arrays->at("labels").type, NpyType::Int64);
    float third;
    std::memcpy(&third, &arrays->at("x").bytes[8], 4);
    EXPECT_EQ(third, 3.0f);
    unlink(path.c_str());
  }
}

TEST(Npz, RefusesDamagedArchives) {
  std::string error;
  EXPECT_FALSE(readNpz("/nonexistent/data.npz", error));
  EXPECT_NE(error.find("cannot read '/nonexistent/data.npz' as an .npz"),
            std::string::npos)
      << error;

  std::string notNpy = writeNpz({{"readme.txt", "hello"}});
  EXPECT_FALSE(readNpz(notNpy, error));
  EXPECT_NE(error.find("member 'readme.txt': not an .npy array"),
            std::string::npos)
      << error;
  unlink(notNpy.c_str());

  std::string badMember =
      writeNpz({{"x.npy", npy("<f4", "(3,)", raw<float>({1, 2}))}});
  EXPECT_FALSE(readNpz(badMember, error));
  EXPECT_NE(error.find("member 'x.npy': it is truncated: shape (3,)"),
            std::string::npos)
      << error;
  unlink(badMember.c_str());

  // Truncated, and one byte flipped in a deflated member (its CRC fails).
  std::string good = writeNpz(
      {{"x.npy", npy("<f4", "(64,)", raw<float>(std::vector<float>(64, 1)))}},
      true);
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  unlink(good.c_str());
  {
    std::ofstream out(good, std::ios::binary);
    out << bytes.substr(0, bytes.size() / 2);
  }
  EXPECT_FALSE(readNpz(good, error));
  EXPECT_NE(error.find("as an .npz (zip) file"), std::string::npos) << error;
  std::string flipped = bytes;
  flipped[40] ^= 0x10; // inside the deflated data (after the local header)
  {
    std::ofstream out(good, std::ios::binary);
    out << flipped;
  }
  EXPECT_FALSE(readNpz(good, error));
  EXPECT_NE(error.find("'x.npy'"), std::string::npos) << error;
  unlink(good.c_str());
}

/// A step (images [4, 3] f32, labels [4] i32, lr f32, a param) as an
/// artifact describes it.
struct FakeStep {
  int64_t imageShape[2] = {4, 3}, labelShape[1] = {4}, paramShape[1] = {3};
  amp_tensor_info args[4] = {
      {AMP_F32, AMP_ROLE_DATA, -1, 2, imageShape, "images", 0},
      {AMP_I32, AMP_ROLE_DATA, -1, 1, labelShape, "labels", 0},
      {AMP_F32, AMP_ROLE_DATA, -1, 0, nullptr, "lr", 0},
      {AMP_F32, AMP_ROLE_PARAM, -1, 1, paramShape, "w", 0},
  };
  amp_function_info info = {"train_step", 4, args, 0, nullptr, 0.0f, 0,
                            nullptr, 0, nullptr};
};

NpyArray array(NpyType type, std::vector<int64_t> shape, std::string bytes) {
  NpyArray a;
  a.type = type;
  a.shape = std::move(shape);
  a.bytes.assign(bytes.begin(), bytes.end());
  return a;
}

std::map<std::string, NpyArray> goodArrays() {
  std::map<std::string, NpyArray> arrays;
  arrays["images"] = array(NpyType::Float32, {5, 3},
                           raw<float>(std::vector<float>(15, 0.5f)));
  arrays["labels"] =
      array(NpyType::Int64, {5}, raw<int64_t>({0, 1, 2, 3, 4}));
  arrays["extra"] = array(NpyType::Float32, {1}, raw<float>({1}));
  return arrays;
}

TEST(StepData, BindsArraysByName) {
  FakeStep step;
  std::string error;
  auto bound = bindNamedArrays(step.info, goodArrays(), 0.1f, error);
  ASSERT_TRUE(bound) << error;
  EXPECT_EQ(bound->batch, 4);
  EXPECT_EQ(bound->data.examples, 5);
  EXPECT_EQ(bound->learningRate, "lr");
  EXPECT_EQ(bound->unused, (std::vector<std::string>{"extra"}));
  ASSERT_EQ(bound->data.columns.size(), 3u);
  EXPECT_EQ(bound->data.columns[0].exampleBytes, 12u);
  // int64 labels narrowed to the step's i32.
  EXPECT_EQ(bound->data.columns[1].exampleBytes, 4u);
  int32_t label;
  std::memcpy(&label, &bound->data.columns[1].values[4 * 4], 4);
  EXPECT_EQ(label, 4);
  EXPECT_FALSE(bound->data.columns[2].perExample);
  float lr;
  std::memcpy(&lr, bound->data.columns[2].values.data(), 4);
  EXPECT_EQ(lr, 0.1f);
}

TEST(StepData, NamesWhatDoesNotFit) {
  FakeStep step;
  struct Case {
    std::function<void(std::map<std::string, NpyArray> &)> change;
    std::string error;
  };
  std::vector<Case> cases = {
      {[](auto &a) { a.erase("labels"); },
       "the file has no array 'labels' for the step's data argument 'labels' "
       "(i32 (4,)); it holds extra, images"},
      {[](auto &a) { a["labels"].type = NpyType::Float32; },
       "array 'labels' is float32, but the step's data argument 'labels' (i32 "
       "(4,)) takes int32 or int64"},
      {[](auto &a) { a["images"].shape = {15}; },
       "array 'images' has shape (15,), but the step's data argument 'images' "
       "(f32 (4, 3)) takes (examples, 3), split along the first dimension "
       "into batches of 4"},
      {[](auto &a) {
         a["labels"] = array(NpyType::Int64, {4}, raw<int64_t>({0, 1, 2, 3}));
       },
       "array 'labels' holds 4 examples and array 'images' 5"},
      {[](auto &a) {
         a["labels"] = array(NpyType::Int64, {5},
                             raw<int64_t>({0, 1, int64_t(1) << 40, 3, 4}));
       },
       "array 'labels': element 2 is 1099511627776, beyond int32"},
      {[](auto &a) {
         a["lr"] = array(NpyType::Float32, {1}, raw<float>({0.1f}));
       },
       "array 'lr' has shape (1,), but the step's data argument 'lr' (f32 ()) "
       "takes ()"},
  };
  for (const Case &c : cases) {
    auto arrays = goodArrays();
    c.change(arrays);
    std::string error;
    EXPECT_FALSE(bindNamedArrays(step.info, arrays, 0.1f, error));
    EXPECT_NE(error.find(c.error), std::string::npos)
        << "got '" << error << "', expected '" << c.error << "'";
  }
  std::string error;
  EXPECT_FALSE(bindNamedArrays(step.info, goodArrays(), NAN, error));
  EXPECT_NE(error.find("it is the learning rate, pass --lr"),
            std::string::npos)
      << error;
}

} // namespace
