// Expression language: parsing never crashes; what parses prints back to the same tree; simplification
// prints back too and never changes an integer value that both forms can compute.
#include "roofcheck/Expr.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

using namespace roofcheck;

namespace {
std::optional<Number> tryEvaluate(const Expr &e, const Bindings &b) {
  try {
    return e.evaluate(b);
  } catch (const Error &) {
    return std::nullopt;
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  Expr e;
  try {
    e = Expr::parse(text);
  } catch (const ParseError &) {
    return 0;
  }
  // Printing adds spaces and parentheses: text near the length limit can print past it, and then does
  // not read back (Quantity::of makes such an estimate unknown).
  auto readsBack = [](const Expr &tree) {
    std::string printed = tree.str();
    return printed.size() > Expr::MaxTextLength || Expr::parse(printed) == tree;
  };
  if (!readsBack(e))
    std::abort();
  Expr simple = e.simplified();
  if (!readsBack(simple))
    std::abort();
  Bindings bindings;
  int64_t next = -3;
  for (const std::string &name : e.symbols())
    bindings[name] = Number(next += 5);
  std::optional<Number> value = tryEvaluate(e, bindings), simpleValue = tryEvaluate(simple, bindings);
  if (value && simpleValue && value->isInteger() && simpleValue->isInteger() &&
      value->integer() != simpleValue->integer())
    std::abort();
  Expr bound = e.substituted(bindings);
  if (!readsBack(bound))
    std::abort();
  return 0;
}
