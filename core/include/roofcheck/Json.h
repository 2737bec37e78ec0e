// Reading JSON with messages that name the offending field ("kernels[2].flops.fp32: missing"),
// and writing files atomically (a reader never sees a partial file).
#pragma once

#include "roofcheck/Error.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace roofcheck {

using Json = nlohmann::ordered_json;

/// A view of one JSON object (or array element) that knows its path in the document.
class FieldReader {
public:
  FieldReader(const Json &value, std::string path);

  const std::string &path() const { return path_; }
  const Json &json() const { return value_; }
  bool has(const std::string &key) const;

  std::string string(const std::string &key) const;
  std::optional<std::string> optionalString(const std::string &key) const;
  int64_t integer(const std::string &key) const;
  std::optional<int64_t> optionalInteger(const std::string &key) const; ///< absent or null
  double number(const std::string &key) const;                          ///< finite
  std::optional<double> optionalNumber(const std::string &key) const;   ///< absent or null; finite
  double positiveNumber(const std::string &key) const;                  ///< finite and > 0
  bool boolean(const std::string &key) const;
  FieldReader object(const std::string &key) const;
  std::optional<FieldReader> optionalObject(const std::string &key) const;
  std::vector<FieldReader> array(const std::string &key) const;      ///< elements as readers
  std::vector<FieldReader> optionalArray(const std::string &key) const; ///< absent = empty
  const Json &raw(const std::string &key) const;                     ///< any type, must exist

  /// Throws Error("<path>.<key>: <message>").
  [[noreturn]] void fail(const std::string &key, const std::string &message) const;

private:
  const Json &require(const std::string &key) const;
  std::string childPath(const std::string &key) const;

  const Json &value_;
  std::string path_;
};

/// Requires `"schema": expected` at the top of a document; names what was found otherwise.
void requireSchema(const Json &document, const std::string &expected, const std::string &source);

/// Parses a whole file as JSON; errors name the file (and line/column for syntax errors).
Json readJsonFile(const std::string &path);

/// Writes text to path through a temporary file in the same directory and a rename, so that the
/// destination holds either its old content or the whole new content, never a part.
void writeFileAtomically(const std::string &path, const std::string &text);

/// Pretty JSON (two-space indent) followed by a newline, written atomically.
void writeJsonFile(const std::string &path, const Json &document);

} // namespace roofcheck
