// cubin_registers (see cubin_registers.h): a minimal ELF64 reader. The .nv.info section is a
// list of records {u8 format, u8 attribute, u16 size, payload}; format 0x04 carries `size` bytes
// of payload, and attribute 0x2f (EIATTR_REGCOUNT) holds {u32 symbol index, u32 registers}.
#include "harness/sim/cubin_registers.h"

#include <cstring>
#include <vector>

namespace pkb::harness {
namespace {

constexpr std::uint8_t kFormatSizedValue = 0x04;
constexpr std::uint8_t kAttributeRegcount = 0x2F;
constexpr std::uint32_t kSectionSymtab = 2;

template <class T>
bool read_at(const std::string& bytes, std::uint64_t offset, T& out) {
  if (offset + sizeof(T) > bytes.size()) return false;
  std::memcpy(&out, bytes.data() + offset, sizeof(T));
  return true;
}

struct Section {
  std::uint32_t name, type, link;
  std::uint64_t offset, size;
};

std::string c_string(const std::string& bytes, std::uint64_t offset) {
  if (offset >= bytes.size()) return "";
  const auto end = bytes.find('\0', offset);
  return bytes.substr(offset, end == std::string::npos ? std::string::npos : end - offset);
}

}  // namespace

std::map<std::string, std::uint32_t> cubin_registers(const std::string& cubin) {
  std::map<std::string, std::uint32_t> out;
  if (cubin.size() < 64 || cubin.compare(0, 4, "\x7f" "ELF") != 0 || cubin[4] != 2) return out;
  std::uint64_t section_offset = 0;
  std::uint16_t entry_size = 0, count = 0, names_index = 0;
  if (!read_at(cubin, 0x28, section_offset) || !read_at(cubin, 0x3A, entry_size) ||
      !read_at(cubin, 0x3C, count) || !read_at(cubin, 0x3E, names_index))
    return out;
  std::vector<Section> sections;
  for (std::uint16_t i = 0; i < count; ++i) {
    const std::uint64_t at = section_offset + std::uint64_t{i} * entry_size;
    Section s{};
    if (!read_at(cubin, at, s.name) || !read_at(cubin, at + 4, s.type) || !read_at(cubin, at + 24, s.offset) ||
        !read_at(cubin, at + 32, s.size) || !read_at(cubin, at + 40, s.link))
      return out;
    sections.push_back(s);
  }
  if (names_index >= sections.size()) return out;
  std::vector<std::string> symbols;
  for (const Section& s : sections) {
    if (s.type != kSectionSymtab || s.link >= sections.size()) continue;
    for (std::uint64_t at = s.offset; at + 24 <= s.offset + s.size; at += 24) {
      std::uint32_t name = 0;
      read_at(cubin, at, name);
      symbols.push_back(c_string(cubin, sections[s.link].offset + name));
    }
  }
  for (const Section& s : sections) {
    if (c_string(cubin, sections[names_index].offset + s.name) != ".nv.info") continue;
    for (std::uint64_t at = s.offset; at + 4 <= s.offset + s.size;) {
      std::uint8_t format = 0, attribute = 0;
      std::uint16_t size = 0;
      read_at(cubin, at, format);
      read_at(cubin, at + 1, attribute);
      read_at(cubin, at + 2, size);
      at += 4;
      if (format != kFormatSizedValue) continue;  // the others keep their value in `size`
      if (attribute == kAttributeRegcount && size >= 8) {
        std::uint32_t symbol = 0, registers = 0;
        read_at(cubin, at, symbol);
        read_at(cubin, at + 4, registers);
        if (symbol < symbols.size()) out[symbols[symbol]] = registers;
      }
      at += size;
    }
  }
  return out;
}

}  // namespace pkb::harness
