// The expression language in which every symbolic quantity of roofcheck is written (DESIGN.md):
// integers, decimal numbers, identifiers (kernel parameter names, gridDim.x, blockDim.y, ...),
// + - * / (floor division when both sides are integers), min(a,b), max(a,b), ceil_div(a,b), parentheses, and
// sum(v, n, body): body summed over v = 0 .. n-1 (a count that differs from block to block, summed over blocks).
// The static tool writes it; audit, report and the runtime parse and evaluate it.
#pragma once

#include "roofcheck/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace roofcheck {

/// A value of the language: an exact 64-bit integer, or a double once anything inexact is involved.
class Number {
public:
  Number() = default;
  Number(int64_t value) : isInteger_(true), integer_(value), real_(static_cast<double>(value)) {}
  static Number real(double value);

  bool isInteger() const { return isInteger_; }
  int64_t integer() const { return integer_; } ///< Only meaningful when isInteger().
  double toDouble() const { return real_; }
  std::string str() const; ///< Re-parses to the same Number (a real always shows '.' or 'e').

  bool operator==(const Number &other) const;

private:
  bool isInteger_ = true;
  int64_t integer_ = 0;
  double real_ = 0.0;
};

/// Names bound to values for evaluation ("n" -> 4096, "blockDim.x" -> 256).
using Bindings = std::map<std::string, Number>;

/// Evaluation needed symbols that were not bound; names() lists every one of them.
class UnboundSymbolsError : public Error {
public:
  explicit UnboundSymbolsError(std::set<std::string> names);
  const std::set<std::string> &names() const { return names_; }

private:
  std::set<std::string> names_;
};

/// An immutable expression tree. Copies share structure.
class Expr {
public:
  enum class Kind { Integer, Real, Symbol, Add, Sub, Mul, Div, Neg, Min, Max, CeilDiv, Sum, Less, LessEqual, Equal, NotEqual };

  /// The integer 0.
  Expr();
  static Expr integer(int64_t value);
  static Expr real(double value);
  static Expr number(Number value);
  static Expr symbol(std::string name);
  static Expr min(Expr a, Expr b);
  static Expr max(Expr a, Expr b);
  static Expr ceilDiv(Expr a, Expr b);
  /// 1 where the comparison holds, else 0 (`lt`, `le`, `eq`, `ne`), compared as C compares them: as integers
  /// when both are, else as doubles. What a count does only on one side of a test of its parameters
  /// (`if (use_bias)`) is counted times the test.
  static Expr less(Expr a, Expr b);
  static Expr lessEqual(Expr a, Expr b);
  static Expr equal(Expr a, Expr b);
  static Expr notEqual(Expr a, Expr b);
  /// body summed over `variable` = 0, 1, ..., count - 1 (no term when count <= 0); `variable` is bound inside
  /// body only. Evaluation adds the terms one by one, at most MaxSumTerms in one evaluation.
  static Expr sum(std::string variable, Expr count, Expr body);
  static constexpr int64_t MaxSumTerms = int64_t{1} << 22;
  friend Expr operator+(Expr a, Expr b);
  friend Expr operator-(Expr a, Expr b);
  friend Expr operator*(Expr a, Expr b);
  friend Expr operator/(Expr a, Expr b);
  friend Expr operator-(Expr a);

  /// Parses text; malformed text throws ParseError with the 1-based column.
  static Expr parse(std::string_view text);
  /// The longest text parse() reads: a tree that prints longer does not read back.
  static constexpr size_t MaxTextLength = 16384;

  Kind kind() const;
  int64_t integerValue() const;      ///< Kind::Integer only.
  double realValue() const;          ///< Kind::Real only.
  const std::string &name() const;   ///< Kind::Symbol, and Sum's variable.
  const Expr &lhs() const;           ///< Binary kinds, Neg's operand, Sum's count.
  const Expr &rhs() const;           ///< Binary kinds only, and Sum's body.
  bool isConstant() const { return kind() == Kind::Integer || kind() == Kind::Real; }

  /// Text that parse() turns back into an equal tree.
  std::string str() const;

  /// Constant folding and collection of like terms (polynomial normal form over the non-polynomial
  /// parts: symbols, min/max/ceil_div, comparisons and divisions that are not exact). Never changes the value.
  Expr simplified() const;

  /// Replaces bound symbols by their values and simplifies; unbound symbols stay.
  Expr substituted(const Bindings &bindings) const;

  /// The real quotient of two counts, simplified, with the factors common to every term of both cancelled
  /// (8 * min(n, t) bytes for min(n, t) FLOPs: 0.125): for a ratio that means something only where the
  /// denominator is not zero, such as FLOPs per byte, where the cancelled factor is the launch's size.
  static Expr ratio(const Expr &numerator, const Expr &denominator);

  /// Evaluates with 64-bit integers while exact and doubles otherwise. Throws UnboundSymbolsError
  /// naming every unbound symbol, and Error on integer overflow or division by zero.
  Number evaluate(const Bindings &bindings = {}) const;

  /// The free symbols (a sum's variable is not free in its body).
  std::set<std::string> symbols() const;

  /// Structural equality (the same tree), not mathematical equivalence.
  bool operator==(const Expr &other) const;
  bool operator!=(const Expr &other) const { return !(*this == other); }

  struct Node;

private:
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  static Expr make(Kind kind, Expr a, Expr b);
  std::shared_ptr<const Node> node_;
};

} // namespace roofcheck
