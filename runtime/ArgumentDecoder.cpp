#include "ArgumentDecoder.h"

#include <algorithm>
#include <cstring>

namespace roofcheck::runtime {

std::string hexBytes(const uint8_t *bytes, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(digits[bytes[i] >> 4]);
    hex.push_back(digits[bytes[i] & 0xf]);
  }
  return hex;
}

std::optional<int64_t> littleEndianValue(const uint8_t *bytes, size_t size) {
  if (size != 1 && size != 2 && size != 4 && size != 8)
    return std::nullopt;
  uint64_t raw = 0;
  for (size_t i = 0; i < size; ++i)
    raw |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  if (size < 8 && (raw >> (8 * size - 1)) & 1) // sign-extend
    raw |= ~uint64_t(0) << (8 * size);
  return static_cast<int64_t>(raw);
}

KernelArgument decodeArgument(int index, const ParamLayout &layout, const uint8_t *bytes, ParamKind kind) {
  KernelArgument arg;
  arg.index = index;
  arg.offset = layout.offset;
  arg.size = layout.size;
  size_t size = static_cast<size_t>(layout.size);
  arg.hex = hexBytes(bytes, size);
  if (kind != ParamKind::Pointer)
    arg.value = littleEndianValue(bytes, size);
  return arg;
}

namespace {
ParamKind kindAt(const std::vector<ParamKind> &kinds, size_t i) {
  return i < kinds.size() ? kinds[i] : ParamKind::Unknown;
}
} // namespace

std::vector<uint8_t> packArguments(const std::vector<ParamLayout> &layouts, const void *const *values) {
  std::vector<uint8_t> packed;
  if (!values)
    return packed;
  size_t end = 0;
  for (const ParamLayout &l : layouts)
    if (l.offset >= 0 && l.size >= 0)
      end = std::max(end, static_cast<size_t>(l.offset + l.size));
  packed.resize(end);
  for (size_t i = 0; i < layouts.size(); ++i)
    if (values[i] && layouts[i].offset >= 0 && layouts[i].size > 0)
      std::memcpy(packed.data() + layouts[i].offset, values[i], static_cast<size_t>(layouts[i].size));
  return packed;
}

std::vector<KernelArgument> decodeArgumentBuffer(const std::vector<ParamLayout> &layouts, const uint8_t *buffer,
                                                 size_t bufferSize, const std::vector<ParamKind> &kinds) {
  std::vector<KernelArgument> args;
  if (!buffer)
    return args;
  for (size_t i = 0; i < layouts.size(); ++i) {
    const ParamLayout &l = layouts[i];
    if (l.offset < 0 || l.size < 0 || static_cast<uint64_t>(l.offset + l.size) > bufferSize)
      continue;
    args.push_back(decodeArgument(static_cast<int>(i), l, buffer + l.offset, kindAt(kinds, i)));
  }
  return args;
}

} // namespace roofcheck::runtime
