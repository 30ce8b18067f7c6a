//===- Npz.cpp - NumPy .npy arrays and .npz archives ----------------------===//

#include "Npz.h"

#include <zip.h>

#include <unistd.h>

#include <cctype>
#include <cstring>
#include <limits>
#include <memory>

using namespace amp_train;

const char *amp_train::getNpyTypeName(NpyType type) {
  switch (type) {
  case NpyType::Float16:
    return "float16";
  case NpyType::Float32:
    return "float32";
  case NpyType::Float64:
    return "float64";
  case NpyType::Int32:
    return "int32";
  case NpyType::Int64:
    return "int64";
  case NpyType::Bool:
    return "bool";
  }
  return "?";
}

size_t amp_train::getNpyTypeSize(NpyType type) {
  switch (type) {
  case NpyType::Float16:
    return 2;
  case NpyType::Float32:
  case NpyType::Int32:
    return 4;
  case NpyType::Float64:
  case NpyType::Int64:
    return 8;
  case NpyType::Bool:
    return 1;
  }
  return 1;
}

int64_t NpyArray::getNumElements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

std::string NpyArray::describeShape() const {
  std::string text = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + (shape.size() == 1 ? ",)" : ")");
}

namespace {

/// The header of an .npy file: a Python dict literal such as
/// {'descr': '<f4', 'fortran_order': False, 'shape': (4, 784), }
class HeaderParser {
public:
  explicit HeaderParser(std::string text) : text(std::move(text)) {}

  bool parse(std::string &descr, bool &fortranOrder,
             std::vector<int64_t> &shape, std::string &error) {
    bool seenDescr = false, seenOrder = false, seenShape = false;
    skipSpace();
    if (!consume('{'))
      return fail("does not start with '{'", error);
    while (true) {
      skipSpace();
      if (consume('}'))
        break;
      std::string key;
      if (!parseString(key) || (skipSpace(), !consume(':')))
        return fail("is not a dict of quoted keys", error);
      skipSpace();
      if (key == "descr") {
        if (!parseString(descr))
          return fail("has a 'descr' that is not a string (structured "
                      "arrays are not supported)",
                      error);
        seenDescr = true;
      } else if (key == "fortran_order") {
        if (!parseBool(fortranOrder))
          return fail("has a 'fortran_order' that is not True or False",
                      error);
        seenOrder = true;
      } else if (key == "shape") {
        if (!parseShape(shape))
          return fail("has a 'shape' that is not a tuple of sizes", error);
        seenShape = true;
      } else {
        return fail("has an unknown key '" + key + "'", error);
      }
      skipSpace();
      if (consume(','))
        continue;
      skipSpace();
      if (!consume('}'))
        return fail("has no ',' or '}' after '" + key + "'", error);
      break;
    }
    skipSpace();
    if (position != text.size())
      return fail("has text after its dict", error);
    if (!seenDescr || !seenOrder || !seenShape)
      return fail("lacks one of 'descr', 'fortran_order' and 'shape'", error);
    return true;
  }

private:
  bool fail(const std::string &what, std::string &error) {
    error = "its header " + what;
    return false;
  }
  void skipSpace() {
    while (position < text.size() &&
           (text[position] == ' ' || text[position] == '\n' ||
            text[position] == '\t' || text[position] == '\r'))
      ++position;
  }
  bool consume(char c) {
    if (position < text.size() && text[position] == c) {
      ++position;
      return true;
    }
    return false;
  }
  bool parseString(std::string &value) {
    if (position >= text.size() ||
        (text[position] != '\'' && text[position] != '"'))
      return false;
    char quote = text[position++];
    size_t end = text.find(quote, position);
    if (end == std::string::npos)
      return false;
    value = text.substr(position, end - position);
    position = end + 1;
    return value.find('\\') == std::string::npos;
  }
  bool parseBool(bool &value) {
    for (auto [word, meaning] : {std::pair<const char *, bool>{"True", true},
                                 std::pair<const char *, bool>{"False", false}})
      if (text.compare(position, std::strlen(word), word) == 0) {
        position += std::strlen(word);
        value = meaning;
        return true;
      }
    return false;
  }
  bool parseShape(std::vector<int64_t> &shape) {
    shape.clear();
    if (!consume('('))
      return false;
    while (true) {
      skipSpace();
      if (consume(')'))
        return true;
      if (position >= text.size() || !std::isdigit(text[position]))
        return false;
      int64_t size = 0;
      while (position < text.size() && std::isdigit(text[position])) {
        // Sizes beyond 2^53 cannot be in memory anyway.
        if (size > (int64_t(1) << 53))
          return false;
        size = size * 10 + (text[position++] - '0');
      }
      shape.push_back(size);
      skipSpace();
      if (!consume(',')) {
        skipSpace();
        return consume(')');
      }
    }
  }

  std::string text;
  size_t position = 0;
};

/// The element type of numpy's type string `descr`.
std::optional<NpyType> parseDescr(const std::string &descr,
                                  std::string &error) {
  static const std::pair<const char *, NpyType> kTypes[] = {
      {"<f2", NpyType::Float16}, {"<f4", NpyType::Float32},
      {"<f8", NpyType::Float64}, {"<i4", NpyType::Int32},
      {"<i8", NpyType::Int64},   {"|b1", NpyType::Bool}};
  for (auto [name, type] : kTypes)
    if (descr == name)
      return type;
  if (!descr.empty() && descr[0] == '>')
    error = "its values are big-endian ('" + descr +
            "'): save them little-endian (.astype('<" + descr.substr(1) +
            "'))";
  else
    error = "it holds '" + descr +
            "'; amp-train reads float16, float32, float64, int32, int64 and "
            "bool arrays";
  return std::nullopt;
}

} // namespace

std::optional<NpyArray> amp_train::parseNpy(const unsigned char *data,
                                            size_t size, std::string &error) {
  static const char kMagic[] = "\x93NUMPY";
  if (size < 10 || std::memcmp(data, kMagic, 6) != 0) {
    error = "it is not an .npy array (no \\x93NUMPY magic)";
    return std::nullopt;
  }
  int major = data[6];
  size_t headerStart = major == 1 ? 10 : 12;
  if (major < 1 || major > 3 || size < headerStart) {
    error = "it is .npy format version " + std::to_string(major) + "." +
            std::to_string(data[7]) + "; amp-train reads versions 1 to 3";
    return std::nullopt;
  }
  size_t headerSize = data[8] | (size_t(data[9]) << 8);
  if (major > 1)
    headerSize |= (size_t(data[10]) << 16) | (size_t(data[11]) << 24);
  if (headerSize > size - headerStart) {
    error = "it is truncated: its header of " + std::to_string(headerSize) +
            " bytes does not fit in " + std::to_string(size) + " bytes";
    return std::nullopt;
  }
  std::string descr;
  bool fortranOrder = false;
  NpyArray array;
  HeaderParser parser(std::string(
      reinterpret_cast<const char *>(data + headerStart), headerSize));
  if (!parser.parse(descr, fortranOrder, array.shape, error))
    return std::nullopt;
  std::optional<NpyType> type = parseDescr(descr, error);
  if (!type)
    return std::nullopt;
  array.type = *type;
  if (fortranOrder) {
    error = "it is in Fortran order: save a C-order array "
            "(np.ascontiguousarray)";
    return std::nullopt;
  }
  size_t payload = size - headerStart - headerSize;
  size_t elementSize = getNpyTypeSize(array.type);
  uint64_t expected = elementSize;
  for (int64_t dim : array.shape) {
    if (dim != 0 && expected > payload / uint64_t(dim)) {
      error = "it is truncated: shape " + array.describeShape() +
              " needs more than its " + std::to_string(payload) +
              " bytes of values";
      return std::nullopt;
    }
    expected *= uint64_t(dim);
  }
  if (expected != payload) {
    error = "it has " + std::to_string(payload) + " bytes of values, but " +
            std::string(getNpyTypeName(array.type)) + " of shape " +
            array.describeShape() + " takes " + std::to_string(expected) +
            (expected > payload ? " (truncated)" : "");
    return std::nullopt;
  }
  array.bytes.assign(data + headerStart + headerSize, data + size);
  return array;
}

/// The bytes of physical memory: no member claiming more is read.
static uint64_t getPhysicalMemory() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return std::numeric_limits<uint64_t>::max();
  return uint64_t(pages) * uint64_t(pageSize);
}

std::optional<std::map<std::string, NpyArray>>
amp_train::readNpz(const std::string &path, std::string &error) {
  int code = 0;
  std::unique_ptr<zip_t, int (*)(zip_t *)> archive(
      zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code), zip_close);
  if (!archive) {
    zip_error_t zipError;
    zip_error_init_with_code(&zipError, code);
    error = "cannot read '" + path + "' as an .npz (zip) file: " +
            zip_error_strerror(&zipError);
    zip_error_fini(&zipError);
    return std::nullopt;
  }
  std::map<std::string, NpyArray> arrays;
  zip_int64_t entries = zip_get_num_entries(archive.get(), 0);
  for (zip_int64_t i = 0; i < entries; ++i) {
    zip_stat_t stat;
    if (zip_stat_index(archive.get(), i, 0, &stat) != 0 ||
        !(stat.valid & ZIP_STAT_NAME) || !(stat.valid & ZIP_STAT_SIZE)) {
      error = "'" + path + "': cannot read member " + std::to_string(i) +
              ": " + zip_strerror(archive.get());
      return std::nullopt;
    }
    std::string member = stat.name;
    auto where = [&] { return "'" + path + "': member '" + member + "': "; };
    if (member.size() <= 4 || member.compare(member.size() - 4, 4, ".npy")) {
      error = where() + "not an .npy array (an .npz holds only name.npy "
                        "members, as np.savez writes them)";
      return std::nullopt;
    }
    if (stat.size > getPhysicalMemory()) {
      error = where() + "claims " + std::to_string(stat.size) +
              " bytes, more than this machine's memory";
      return std::nullopt;
    }
    zip_file_t *file = zip_fopen_index(archive.get(), i, 0);
    if (!file) {
      error = where() + zip_strerror(archive.get());
      return std::nullopt;
    }
    // Read in chunks, the buffer growing with what arrives: a size the
    // directory lies about costs nothing. libzip checks the CRC at the end.
    std::vector<unsigned char> bytes;
    constexpr size_t kChunk = size_t(1) << 20;
    zip_int64_t read = 0;
    do {
      size_t done = bytes.size();
      bytes.resize(done + kChunk);
      read = zip_fread(file, bytes.data() + done, kChunk);
      bytes.resize(done + (read > 0 ? size_t(read) : 0));
    } while (read > 0 && bytes.size() <= stat.size);
    std::string readError = read < 0 ? zip_file_strerror(file) : "";
    zip_fclose(file);
    if (read < 0 || bytes.size() != stat.size) {
      error = where() + (read < 0 ? readError
                                  : "holds " + std::to_string(bytes.size()) +
                                        " bytes, its directory says " +
                                        std::to_string(stat.size));
      return std::nullopt;
    }
    std::string npyError;
    std::optional<NpyArray> array =
        parseNpy(bytes.data(), bytes.size(), npyError);
    if (!array) {
      error = where() + npyError;
      return std::nullopt;
    }
    std::string name = member.substr(0, member.size() - 4);
    if (!arrays.emplace(name, std::move(*array)).second) {
      error = where() + "appears twice";
      return std::nullopt;
    }
  }
  return arrays;
}
