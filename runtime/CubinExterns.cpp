#include "CubinExterns.h"

#include <cstring>

namespace roofcheck::runtime {

namespace {

// ELF64 little-endian, as nvcc writes cubins; offsets from the ELF specification.
constexpr uint32_t SymbolTable = 2; // SHT_SYMTAB
constexpr size_t SymbolSize = 24;   // Elf64_Sym
constexpr size_t SectionHeaderSize = 64;
// .nv.info attributes: a format byte, an attribute byte, then for EIFMT_SVAL a 16-bit size and the value.
constexpr uint8_t FormatNoValue = 1, FormatByteValue = 2, FormatHalfValue = 3, FormatSizedValue = 4;
constexpr uint8_t AttributeExterns = 0x0f; // EIATTR_EXTERNS: 32-bit symbol indices

class Elf {
public:
  Elf(const uint8_t *data, size_t size) : data_(data), size_(size) {}

  template <typename T> bool read(size_t offset, T &value) const {
    if (offset > size_ || sizeof(T) > size_ - offset)
      return false;
    std::memcpy(&value, data_ + offset, sizeof(T));
    return true;
  }

  /// The NUL-terminated string at offset, empty where it runs past the end.
  std::string_view string(size_t offset) const {
    if (offset >= size_)
      return {};
    const void *end = std::memchr(data_ + offset, 0, size_ - offset);
    return end ? std::string_view(reinterpret_cast<const char *>(data_ + offset),
                                  static_cast<const uint8_t *>(end) - (data_ + offset))
               : std::string_view();
  }

  bool contains(size_t offset, size_t length) const { return offset <= size_ && length <= size_ - offset; }
  const uint8_t *at(size_t offset) const { return data_ + offset; }

private:
  const uint8_t *data_;
  size_t size_;
};

struct Section {
  uint32_t name = 0, type = 0, link = 0;
  uint64_t offset = 0, size = 0;
};

} // namespace

std::vector<std::string> kernelsCalling(const uint8_t *cubin, size_t size, std::string_view external) {
  Elf elf(cubin, size);
  uint8_t elfClass = 0, encoding = 0;
  if (size < 64 || std::memcmp(cubin, "\x7f" "ELF", 4) != 0 || !elf.read(4, elfClass) || elfClass != 2 ||
      !elf.read(5, encoding) || encoding != 1)
    return {};
  uint64_t sectionTable = 0;
  uint16_t sectionCount = 0, namesIndex = 0;
  if (!elf.read(0x28, sectionTable) || !elf.read(0x3c, sectionCount) || !elf.read(0x3e, namesIndex) ||
      !elf.contains(sectionTable, size_t{sectionCount} * SectionHeaderSize) || namesIndex >= sectionCount)
    return {};
  std::vector<Section> sections(sectionCount);
  for (size_t i = 0; i < sectionCount; ++i) {
    size_t header = sectionTable + i * SectionHeaderSize;
    Section &s = sections[i];
    if (!elf.read(header, s.name) || !elf.read(header + 4, s.type) || !elf.read(header + 0x18, s.offset) ||
        !elf.read(header + 0x20, s.size) || !elf.read(header + 0x28, s.link) || !elf.contains(s.offset, s.size))
      return {};
  }
  const Section *symbols = nullptr;
  for (const Section &s : sections)
    if (s.type == SymbolTable && s.link < sectionCount)
      symbols = &s;
  if (!symbols)
    return {};
  const Section &symbolNames = sections[symbols->link];
  auto symbolName = [&](uint32_t index) -> std::string_view {
    uint32_t name = 0;
    size_t entry = size_t{index} * SymbolSize;
    if (entry + SymbolSize > symbols->size || !elf.read(symbols->offset + entry, name) || name >= symbolNames.size)
      return {};
    return elf.string(symbolNames.offset + name);
  };

  std::vector<std::string> kernels;
  constexpr std::string_view infoPrefix = ".nv.info.";
  for (const Section &s : sections) {
    std::string_view name = elf.string(sections[namesIndex].offset + s.name);
    if (name.substr(0, infoPrefix.size()) != infoPrefix)
      continue;
    bool calls = false;
    for (size_t at = 0; at + 2 <= s.size && !calls;) {
      uint8_t format = *elf.at(s.offset + at), attribute = *elf.at(s.offset + at + 1);
      size_t valueSize = 0, valueAt = at + 2;
      if (format == FormatNoValue || format == FormatByteValue || format == FormatHalfValue)
        valueSize = 2; // entries are 4-byte aligned: none, a byte and a half-word all take two bytes
      else if (format == FormatSizedValue) {
        uint16_t sized = 0;
        if (at + 4 > s.size || !elf.read(s.offset + at + 2, sized))
          break;
        valueSize = sized;
        valueAt = at + 4;
      } else
        break; // an attribute format this parser does not know: the rest cannot be walked
      if (valueAt + valueSize > s.size)
        break;
      if (attribute == AttributeExterns && format == FormatSizedValue)
        for (size_t i = 0; i + 4 <= valueSize && !calls; i += 4) {
          uint32_t index = 0;
          elf.read(s.offset + valueAt + i, index);
          calls = symbolName(index) == external;
        }
      at = valueAt + valueSize;
    }
    if (calls)
      kernels.emplace_back(name.substr(infoPrefix.size()));
  }
  return kernels;
}

} // namespace roofcheck::runtime
