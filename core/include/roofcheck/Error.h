// Errors that core functions throw. Every command catches them at its top level and turns them into one
// line on stderr and exit code 2 (bad input) — the project's error convention from DESIGN.md.
#pragma once

#include <stdexcept>
#include <string>

namespace roofcheck {

/// Bad input: malformed text, a document with the wrong schema or a missing field, an evaluation that
/// cannot produce a value. The message is complete and user-facing.
class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Malformed expression text, with the 1-based column of the offending character.
class ParseError : public Error {
public:
  ParseError(const std::string &message, size_t column)
      : Error("column " + std::to_string(column) + ": " + message), column_(column) {}
  size_t column() const { return column_; }

private:
  size_t column_;
};

} // namespace roofcheck
