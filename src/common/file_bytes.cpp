// read_file and write_file.
#include "src/common/file_bytes.h"

#include <fstream>
#include <sstream>

#include "src/common/error.h"

namespace pkb {

std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  out.close();
  if (!out) throw Error(path.string() + ": cannot write");
}

void replace_file(const std::filesystem::path& path, const std::string& bytes) {
  std::filesystem::path temporary = path;
  temporary += ".tmp";
  write_file(temporary, bytes);
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) throw Error(path.string() + ": cannot replace: " + error.message());
}

}  // namespace pkb
