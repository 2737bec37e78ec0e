#include "roofcheck/Bindings.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <regex>
#include <sstream>
#include <vector>

namespace roofcheck {

namespace {

/// "const  unsigned   int" -> "unsigned int"; "std::size_t" -> "size_t".
std::string canonicalType(const std::string &type) {
  std::istringstream words(type);
  std::string word, out;
  while (words >> word) {
    if (word == "const" || word == "volatile" || word == "__restrict__" || word == "__restrict" || word == "restrict")
      continue;
    if (word.rfind("std::", 0) == 0)
      word = word.substr(5);
    out += (out.empty() ? "" : " ") + word;
  }
  return out;
}

std::vector<uint8_t> bytesOf(const std::string &hex) {
  if (hex.size() % 2 != 0)
    throw Error("argument bytes \"" + hex + "\": odd number of hex digits");
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < hex.size(); i += 2) {
    auto digit = [&](char c) -> int {
      if (c >= '0' && c <= '9')
        return c - '0';
      if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
      if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
      throw Error("argument bytes \"" + hex + "\": not hexadecimal");
    };
    bytes.push_back(static_cast<uint8_t>(digit(hex[i]) * 16 + digit(hex[i + 1])));
  }
  return bytes;
}

} // namespace

ScalarKind scalarKind(const std::string &type) {
  if (type.find_first_of("*&[") != std::string::npos)
    return ScalarKind::NotScalar;
  std::string t = canonicalType(type);
  if (t == "float")
    return ScalarKind::Float;
  if (t == "double")
    return ScalarKind::Double;
  static const char *const signedTypes[] = {"char", "signed char", "short", "short int", "signed short", "int",
                                            "signed", "signed int", "long", "long int", "signed long", "long long",
                                            "long long int", "signed long long", "ptrdiff_t", "ssize_t", "int8_t",
                                            "int16_t", "int32_t", "int64_t", "intptr_t"};
  static const char *const unsignedTypes[] = {
      "bool", "unsigned char", "unsigned short", "unsigned short int", "unsigned", "unsigned int", "unsigned long",
      "unsigned long int", "unsigned long long", "unsigned long long int", "size_t", "uint8_t", "uint16_t",
      "uint32_t", "uint64_t", "uintptr_t", "uint"};
  for (const char *s : signedTypes)
    if (t == s)
      return ScalarKind::Signed;
  for (const char *s : unsignedTypes)
    if (t == s)
      return ScalarKind::Unsigned;
  return ScalarKind::NotScalar;
}

bool isPointerType(const std::string &type) {
  return type.find('*') != std::string::npos && type.find_first_of("&[(") == std::string::npos;
}

std::optional<Number> decodeArgument(const std::string &type, const std::string &hex) {
  std::vector<uint8_t> bytes = bytesOf(hex);
  size_t n = bytes.size();
  if (isPointerType(type))
    return n == 8 ? std::optional<Number>(int64_t{std::any_of(bytes.begin(), bytes.end(), [](uint8_t b) { return b; })})
                  : std::nullopt;
  ScalarKind kind = scalarKind(type);
  if (kind == ScalarKind::NotScalar || n == 0 || n > 8)
    return std::nullopt;
  uint64_t raw = 0;
  for (size_t i = 0; i < n; ++i)
    raw |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  switch (kind) {
  case ScalarKind::Float: {
    if (n != 4)
      return std::nullopt;
    uint32_t bits = static_cast<uint32_t>(raw);
    float f;
    std::memcpy(&f, &bits, 4);
    return Number::real(f);
  }
  case ScalarKind::Double: {
    if (n != 8)
      return std::nullopt;
    double d;
    std::memcpy(&d, &raw, 8);
    return Number::real(d);
  }
  case ScalarKind::Signed: {
    if (n != 1 && n != 2 && n != 4 && n != 8)
      return std::nullopt;
    // Sign-extend from the argument's width.
    unsigned shift = static_cast<unsigned>(64 - 8 * n);
    int64_t value = static_cast<int64_t>(raw << shift) >> shift;
    return Number(value);
  }
  case ScalarKind::Unsigned:
    if (raw > static_cast<uint64_t>(INT64_MAX))
      return Number::real(static_cast<double>(raw));
    return Number(static_cast<int64_t>(raw));
  case ScalarKind::NotScalar:
    break;
  }
  return std::nullopt;
}

Number parseNumber(const std::string &text, const std::string &what) {
  static const std::regex integer("[+-]?[0-9]+");
  static const std::regex real("[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?");
  try {
    if (std::regex_match(text, integer))
      return Number(static_cast<int64_t>(std::stoll(text)));
    if (std::regex_match(text, real))
      return Number::real(std::stod(text));
  } catch (const std::out_of_range &) {
    throw Error(what + ": \"" + text + "\" is out of range");
  }
  throw Error(what + ": \"" + text + "\" is not a number");
}

Dim3 parseDim3(const std::string &text, const std::string &what) {
  static const std::regex form("[0-9]+(,[0-9]+){0,2}");
  if (!std::regex_match(text, form))
    throw Error(what + ": \"" + text + "\" is not X[,Y[,Z]] with positive integers");
  Dim3 d{1, 1, 1};
  std::istringstream parts(text);
  std::string part;
  for (size_t i = 0; std::getline(parts, part, ','); ++i) {
    Number n = parseNumber(part, what);
    if (!n.isInteger() || n.integer() < 1 || n.integer() > INT32_MAX)
      throw Error(what + ": \"" + part + "\" must be a positive 32-bit integer");
    d[i] = n.integer();
  }
  return d;
}

void addDimensionBindings(Bindings &bindings, const std::string &symbol, const Dim3 &dims) {
  const char *axes[] = {".x", ".y", ".z"};
  for (int i = 0; i < 3; ++i)
    bindings[symbol + axes[i]] = Number(dims[i]);
}

Bindings dimensionBindings(const Dim3 &grid, const Dim3 &block) {
  Bindings b;
  addDimensionBindings(b, "gridDim", grid);
  addDimensionBindings(b, "blockDim", block);
  return b;
}

void addArgumentBinding(Bindings &bindings, const std::string &option) {
  // A name as the expressions write it: members after dots, array elements in brackets (extent.idx[2]).
  static const std::regex form("([A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*|\\[[0-9]+\\])*)=(.*)");
  std::smatch m;
  if (!std::regex_match(option, m, form))
    throw Error("--arg \"" + option + "\": expected NAME=VALUE");
  bindings[m[1].str()] = parseNumber(m[3].str(), "--arg " + m[1].str());
}

} // namespace roofcheck
