#include "roofcheck/Expr.h"
#include "roofcheck/Polynomial.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <numeric>
#include <optional>

namespace roofcheck {

struct Expr::Node {
  Kind kind = Kind::Integer;
  int64_t integer = 0;
  double real = 0.0;
  std::string name;
  Expr a, b; // empty (no node) for leaves
  Node() : a(std::shared_ptr<const Node>()), b(std::shared_ptr<const Node>()) {}
};

// ---------------------------------------------------------------------------------------------------
// Number

Number Number::real(double value) {
  Number n;
  n.isInteger_ = false;
  n.integer_ = 0;
  n.real_ = value;
  return n;
}

std::string Number::str() const {
  if (isInteger_)
    return std::to_string(integer_);
  if (std::isnan(real_))
    return "nan";
  if (std::isinf(real_))
    return real_ > 0 ? "inf" : "-inf";
  // The shortest %g form that reads back as the same double.
  char buffer[64];
  for (int precision = 6; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*g", precision, real_);
    if (std::strtod(buffer, nullptr) == real_)
      break;
  }
  std::string text = buffer;
  if (text.find_first_of(".eEn") == std::string::npos)
    text += ".0";
  return text;
}

bool Number::operator==(const Number &other) const {
  if (isInteger_ != other.isInteger_)
    return false;
  return isInteger_ ? integer_ == other.integer_ : real_ == other.real_;
}

UnboundSymbolsError::UnboundSymbolsError(std::set<std::string> names)
    : Error([&] {
        std::string message = "unbound symbol";
        if (names.size() > 1)
          message += "s";
        std::string separator = ": ";
        for (const auto &name : names) {
          message += separator + name;
          separator = ", ";
        }
        return message;
      }()),
      names_(std::move(names)) {}

// ---------------------------------------------------------------------------------------------------
// Construction and access

Expr::Expr() : node_(std::make_shared<Node>()) {}

Expr Expr::integer(int64_t value) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Integer;
  node->integer = value;
  return Expr(node);
}

Expr Expr::real(double value) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Real;
  node->real = value;
  return Expr(node);
}

Expr Expr::number(Number value) {
  return value.isInteger() ? integer(value.integer()) : real(value.toDouble());
}

Expr Expr::symbol(std::string name) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Symbol;
  node->name = std::move(name);
  return Expr(node);
}

Expr Expr::make(Kind kind, Expr a, Expr b) {
  auto node = std::make_shared<Node>();
  node->kind = kind;
  node->a = std::move(a);
  node->b = std::move(b);
  return Expr(node);
}

Expr Expr::min(Expr a, Expr b) { return make(Kind::Min, std::move(a), std::move(b)); }
Expr Expr::max(Expr a, Expr b) { return make(Kind::Max, std::move(a), std::move(b)); }
Expr Expr::ceilDiv(Expr a, Expr b) { return make(Kind::CeilDiv, std::move(a), std::move(b)); }
Expr Expr::less(Expr a, Expr b) { return make(Kind::Less, std::move(a), std::move(b)); }
Expr Expr::lessEqual(Expr a, Expr b) { return make(Kind::LessEqual, std::move(a), std::move(b)); }
Expr Expr::equal(Expr a, Expr b) { return make(Kind::Equal, std::move(a), std::move(b)); }
Expr Expr::notEqual(Expr a, Expr b) { return make(Kind::NotEqual, std::move(a), std::move(b)); }
Expr Expr::sum(std::string variable, Expr count, Expr body) {
  auto node = std::make_shared<Node>();
  node->kind = Kind::Sum;
  node->name = std::move(variable);
  node->a = std::move(count);
  node->b = std::move(body);
  return Expr(std::move(node));
}
Expr operator+(Expr a, Expr b) { return Expr::make(Expr::Kind::Add, std::move(a), std::move(b)); }
Expr operator-(Expr a, Expr b) { return Expr::make(Expr::Kind::Sub, std::move(a), std::move(b)); }
Expr operator*(Expr a, Expr b) { return Expr::make(Expr::Kind::Mul, std::move(a), std::move(b)); }
Expr operator/(Expr a, Expr b) { return Expr::make(Expr::Kind::Div, std::move(a), std::move(b)); }

Expr operator-(Expr a) {
  // A negated literal is a negative literal, so that printing and parsing agree on the tree.
  if (a.kind() == Expr::Kind::Integer && a.integerValue() != std::numeric_limits<int64_t>::min())
    return Expr::integer(-a.integerValue());
  if (a.kind() == Expr::Kind::Real)
    return Expr::real(-a.realValue());
  return Expr::make(Expr::Kind::Neg, std::move(a), Expr());
}

Expr::Kind Expr::kind() const { return node_->kind; }
int64_t Expr::integerValue() const { return node_->integer; }
double Expr::realValue() const { return node_->real; }
const std::string &Expr::name() const { return node_->name; }
const Expr &Expr::lhs() const { return node_->a; }
const Expr &Expr::rhs() const { return node_->b; }

bool Expr::operator==(const Expr &other) const {
  if (node_ == other.node_)
    return true;
  if (kind() != other.kind())
    return false;
  switch (kind()) {
  case Kind::Integer:
    return integerValue() == other.integerValue();
  case Kind::Real:
    return realValue() == other.realValue() || (std::isnan(realValue()) && std::isnan(other.realValue()));
  case Kind::Symbol:
    return name() == other.name();
  case Kind::Neg:
    return lhs() == other.lhs();
  case Kind::Sum:
    return name() == other.name() && lhs() == other.lhs() && rhs() == other.rhs();
  default:
    return lhs() == other.lhs() && rhs() == other.rhs();
  }
}

std::set<std::string> Expr::symbols() const {
  std::set<std::string> out;
  std::vector<const Expr *> stack{this};
  while (!stack.empty()) {
    const Expr *e = stack.back();
    stack.pop_back();
    switch (e->kind()) {
    case Kind::Integer:
    case Kind::Real:
      break;
    case Kind::Symbol:
      out.insert(e->name());
      break;
    case Kind::Neg:
      stack.push_back(&e->lhs());
      break;
    case Kind::Sum: {
      stack.push_back(&e->lhs());
      std::set<std::string> body = e->rhs().symbols();
      body.erase(e->name());
      out.insert(body.begin(), body.end());
      break;
    }
    default:
      stack.push_back(&e->lhs());
      stack.push_back(&e->rhs());
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Printing

namespace {

Expr comparison(Expr::Kind kind, Expr a, Expr b) {
  switch (kind) {
  case Expr::Kind::Less:
    return Expr::less(std::move(a), std::move(b));
  case Expr::Kind::LessEqual:
    return Expr::lessEqual(std::move(a), std::move(b));
  case Expr::Kind::Equal:
    return Expr::equal(std::move(a), std::move(b));
  default:
    return Expr::notEqual(std::move(a), std::move(b));
  }
}

int precedence(Expr::Kind kind) {
  switch (kind) {
  case Expr::Kind::Add:
  case Expr::Kind::Sub:
    return 1;
  case Expr::Kind::Mul:
  case Expr::Kind::Div:
    return 2;
  case Expr::Kind::Neg:
    return 3;
  case Expr::Kind::Integer:
  case Expr::Kind::Real:
    return 3; // a negative literal prints with a leading '-' and must be guarded like Neg
  default:
    return 4;
  }
}

const char *binaryOperator(Expr::Kind kind) {
  switch (kind) {
  case Expr::Kind::Add:
    return " + ";
  case Expr::Kind::Sub:
    return " - ";
  case Expr::Kind::Mul:
    return " * ";
  case Expr::Kind::Div:
    return " / ";
  default:
    return nullptr;
  }
}

const char *functionName(Expr::Kind kind) {
  switch (kind) {
  case Expr::Kind::Min:
    return "min";
  case Expr::Kind::Max:
    return "max";
  case Expr::Kind::CeilDiv:
    return "ceil_div";
  case Expr::Kind::Sum:
    return "sum";
  case Expr::Kind::Less:
    return "lt";
  case Expr::Kind::LessEqual:
    return "le";
  case Expr::Kind::Equal:
    return "eq";
  case Expr::Kind::NotEqual:
    return "ne";
  default:
    return nullptr;
  }
}

void print(const Expr &e, std::string &out);

void printOperand(const Expr &child, int minimumPrecedence, std::string &out) {
  bool literalNonNegative = (child.kind() == Expr::Kind::Integer && child.integerValue() >= 0) ||
                            (child.kind() == Expr::Kind::Real && !std::signbit(child.realValue()));
  int childPrecedence = literalNonNegative ? 4 : precedence(child.kind());
  bool parens = childPrecedence < minimumPrecedence;
  if (parens)
    out += '(';
  print(child, out);
  if (parens)
    out += ')';
}

void print(const Expr &e, std::string &out) {
  switch (e.kind()) {
  case Expr::Kind::Integer:
    out += std::to_string(e.integerValue());
    return;
  case Expr::Kind::Real:
    out += Number::real(e.realValue()).str();
    return;
  case Expr::Kind::Symbol:
    out += e.name();
    return;
  case Expr::Kind::Neg:
    out += '-';
    // "--x" reads back as Neg(Neg(x)); parentheses there would double the nesting depth on re-reading.
    printOperand(e.lhs(), 3, out);
    return;
  case Expr::Kind::Min:
  case Expr::Kind::Max:
  case Expr::Kind::CeilDiv:
  case Expr::Kind::Sum:
  case Expr::Kind::Less:
  case Expr::Kind::LessEqual:
  case Expr::Kind::Equal:
  case Expr::Kind::NotEqual:
    out += functionName(e.kind());
    out += '(';
    if (e.kind() == Expr::Kind::Sum)
      out += e.name() + ", ";
    print(e.lhs(), out);
    out += ", ";
    print(e.rhs(), out);
    out += ')';
    return;
  default: {
    int p = precedence(e.kind());
    // Left-associative: the left operand may share the precedence, the right one may not.
    printOperand(e.lhs(), p, out);
    out += binaryOperator(e.kind());
    printOperand(e.rhs(), p + 1, out);
  }
  }
}

} // namespace

std::string Expr::str() const {
  std::string out;
  print(*this, out);
  return out;
}

// ---------------------------------------------------------------------------------------------------
// Parsing: recursive descent with one token of look-ahead.

namespace {

class Parser {
public:
  explicit Parser(std::string_view text) : text_(text) {}

  Expr parseAll() {
    // Printing, simplification and evaluation recurse along the tree, which a long flat chain
    // ("a + a + ...") makes as deep as it is long: bound it.
    if (text_.size() > Expr::MaxTextLength)
      throw ParseError("expression longer than " + std::to_string(Expr::MaxTextLength) + " characters",
                       Expr::MaxTextLength + 1);
    skipSpace();
    if (pos_ == text_.size())
      fail("empty expression");
    Expr e = parseSum();
    skipSpace();
    if (pos_ != text_.size())
      fail(std::string("unexpected '") + text_[pos_] + "'");
    return e;
  }

private:
  static constexpr int maxDepth = 200;

  [[noreturn]] void fail(const std::string &message) const { throw ParseError(message, pos_ + 1); }

  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }

  bool accept(char c) {
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }

  void expect(char c) {
    if (!accept(c)) {
      if (pos_ == text_.size())
        fail(std::string("expected '") + c + "' at end of text");
      fail(std::string("expected '") + c + "', found '" + text_[pos_] + "'");
    }
  }

  struct DepthGuard {
    Parser &p;
    explicit DepthGuard(Parser &parser) : p(parser) {
      if (++p.depth_ > maxDepth)
        p.fail("expression nested too deeply");
    }
    ~DepthGuard() { --p.depth_; }
  };

  Expr parseSum() {
    DepthGuard guard(*this);
    Expr e = parseProduct();
    for (;;) {
      if (accept('+'))
        e = e + parseProduct();
      else if (accept('-'))
        e = e - parseProduct();
      else
        return e;
    }
  }

  Expr parseProduct() {
    Expr e = parseUnary();
    for (;;) {
      if (accept('*'))
        e = e * parseUnary();
      else if (accept('/'))
        e = e / parseUnary();
      else
        return e;
    }
  }

  Expr parseUnary() {
    DepthGuard guard(*this);
    if (accept('-'))
      return -parseUnary();
    if (accept('+'))
      return parseUnary();
    return parsePrimary();
  }

  Expr parsePrimary() {
    skipSpace();
    if (pos_ == text_.size())
      fail("expected a number, a name or '(' at end of text");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      Expr e = parseSum();
      expect(')');
      return e;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.')
      return parseNumber();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_')
      return parseName();
    fail(std::string("unexpected '") + c + "'");
  }

  Expr parseNumber() {
    size_t start = pos_;
    bool isReal = false;
    while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      isReal = true;
      ++pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      isReal = true;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-'))
        ++pos_;
      size_t digits = pos_;
      while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
        ++pos_;
      if (digits == pos_)
        fail("exponent without digits");
    }
    std::string literal(text_.substr(start, pos_ - start));
    if (literal == ".") {
      pos_ = start;
      fail("unexpected '.'");
    }
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      fail("a name cannot start with a digit");
    if (!isReal) {
      errno = 0;
      char *end = nullptr;
      unsigned long long value = std::strtoull(literal.c_str(), &end, 10);
      if (errno == ERANGE || value > static_cast<unsigned long long>(std::numeric_limits<int64_t>::max())) {
        pos_ = start;
        fail("integer literal '" + literal + "' does not fit in 64 bits");
      }
      return Expr::integer(static_cast<int64_t>(value));
    }
    double value = std::strtod(literal.c_str(), nullptr);
    if (!std::isfinite(value)) {
      pos_ = start;
      fail("number '" + literal + "' is out of range");
    }
    return Expr::real(value);
  }

  std::string identifier() {
    size_t start = pos_;
    while (pos_ < text_.size() &&
           (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // Member names such as gridDim.x, and array elements such as extent.idx[2], are one symbol.
  std::string dottedName() {
    std::string name = identifier();
    for (;;) {
      if (pos_ + 1 < text_.size() && text_[pos_] == '.' &&
          (std::isalpha(static_cast<unsigned char>(text_[pos_ + 1])) || text_[pos_ + 1] == '_')) {
        ++pos_;
        name += "." + identifier();
      } else if (pos_ < text_.size() && text_[pos_] == '[') {
        size_t digits = ++pos_;
        while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_])))
          ++pos_;
        if (digits == pos_ || pos_ == text_.size() || text_[pos_] != ']')
          fail("expected an element number and ']' in '" + name + "['");
        name += "[" + std::string(text_.substr(digits, pos_ - digits)) + "]";
        ++pos_;
      } else {
        return name;
      }
    }
  }

  Expr parseName() {
    size_t start = pos_;
    std::string name = dottedName();
    skipSpace();
    if (pos_ < text_.size() && text_[pos_] == '(') {
      static const Expr::Kind functions[] = {Expr::Kind::Min,  Expr::Kind::Max,       Expr::Kind::CeilDiv,
                                             Expr::Kind::Sum,  Expr::Kind::Less,      Expr::Kind::LessEqual,
                                             Expr::Kind::Equal, Expr::Kind::NotEqual};
      const Expr::Kind *known = std::find_if(std::begin(functions), std::end(functions),
                                             [&](Expr::Kind k) { return name == functionName(k); });
      if (known == std::end(functions)) {
        pos_ = start;
        fail("unknown function '" + name + "' (known: min, max, ceil_div, sum, lt, le, eq, ne)");
      }
      Expr::Kind kind = *known;
      ++pos_;
      std::string variable;
      if (kind == Expr::Kind::Sum) {
        skipSpace();
        if (pos_ == text_.size() || !(std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
          fail("expected the name of sum's variable");
        variable = dottedName();
        expect(',');
      }
      Expr a = parseSum();
      expect(',');
      Expr b = parseSum();
      expect(')');
      switch (kind) {
      case Expr::Kind::Min:
        return Expr::min(a, b);
      case Expr::Kind::Max:
        return Expr::max(a, b);
      case Expr::Kind::Sum:
        return Expr::sum(std::move(variable), a, b);
      case Expr::Kind::CeilDiv:
        return Expr::ceilDiv(a, b);
      default:
        return comparison(kind, a, b);
      }
    }
    return Expr::symbol(std::move(name));
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;
};

} // namespace

Expr Expr::parse(std::string_view text) { return Parser(text).parseAll(); }

// ---------------------------------------------------------------------------------------------------
// Arithmetic on Numbers, shared by evaluation and simplification.

namespace {

class OverflowError : public Error {
public:
  using Error::Error;
};

int64_t floorDivide(int64_t a, int64_t b) {
  if (a == std::numeric_limits<int64_t>::min() && b == -1)
    throw OverflowError("integer overflow in division");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

Number negate(const Number &x) {
  if (!x.isInteger())
    return Number::real(-x.toDouble());
  if (x.integer() == std::numeric_limits<int64_t>::min())
    throw OverflowError("integer overflow in -(" + x.str() + ")");
  return -x.integer();
}

Number applyUnchecked(Expr::Kind kind, const Number &x, const Number &y);

/// Every value the language produces can be printed as a literal and read back: no infinities or NaNs,
/// and no INT64_MIN (whose magnitude has no literal).
Number apply(Expr::Kind kind, const Number &x, const Number &y) {
  Number r = applyUnchecked(kind, x, y);
  if (r.isInteger() ? r.integer() == std::numeric_limits<int64_t>::min() : !std::isfinite(r.toDouble()))
    throw OverflowError("overflow: " + x.str() +
                        (binaryOperator(kind) ? binaryOperator(kind) : std::string(" ") + functionName(kind) + " ") +
                        y.str() + " is out of range");
  return r;
}

Number applyUnchecked(Expr::Kind kind, const Number &x, const Number &y) {
  bool integers = x.isInteger() && y.isInteger();
  int64_t r = 0;
  switch (kind) {
  case Expr::Kind::Add:
    if (!integers)
      return Number::real(x.toDouble() + y.toDouble());
    if (__builtin_add_overflow(x.integer(), y.integer(), &r))
      throw OverflowError("integer overflow in " + x.str() + " + " + y.str());
    return r;
  case Expr::Kind::Sub:
    if (!integers)
      return Number::real(x.toDouble() - y.toDouble());
    if (__builtin_sub_overflow(x.integer(), y.integer(), &r))
      throw OverflowError("integer overflow in " + x.str() + " - " + y.str());
    return r;
  case Expr::Kind::Mul:
    if (!integers)
      return Number::real(x.toDouble() * y.toDouble());
    if (__builtin_mul_overflow(x.integer(), y.integer(), &r))
      throw OverflowError("integer overflow in " + x.str() + " * " + y.str());
    return r;
  case Expr::Kind::Div:
  case Expr::Kind::CeilDiv:
    if (y.toDouble() == 0.0)
      throw Error("division by zero: " + x.str() + (kind == Expr::Kind::Div ? " / " : " ceil_div ") + y.str());
    if (!integers) {
      double q = x.toDouble() / y.toDouble();
      return Number::real(kind == Expr::Kind::Div ? q : std::ceil(q));
    }
    if (kind == Expr::Kind::Div)
      return floorDivide(x.integer(), y.integer());
    return negate(floorDivide(negate(x).integer(), y.integer()));
  case Expr::Kind::Min:
    if (integers)
      return std::min(x.integer(), y.integer());
    return Number::real(std::min(x.toDouble(), y.toDouble()));
  case Expr::Kind::Max:
    if (integers)
      return std::max(x.integer(), y.integer());
    return Number::real(std::max(x.toDouble(), y.toDouble()));
  case Expr::Kind::Less:
    return int64_t{integers ? x.integer() < y.integer() : x.toDouble() < y.toDouble()};
  case Expr::Kind::LessEqual:
    return int64_t{integers ? x.integer() <= y.integer() : x.toDouble() <= y.toDouble()};
  case Expr::Kind::Equal:
    return int64_t{integers ? x.integer() == y.integer() : x.toDouble() == y.toDouble()};
  case Expr::Kind::NotEqual:
    return int64_t{integers ? x.integer() != y.integer() : x.toDouble() != y.toDouble()};
  default:
    throw Error("internal: not a binary operator");
  }
}

} // namespace

// ---------------------------------------------------------------------------------------------------
// Evaluation

Number Expr::evaluate(const Bindings &bindings) const {
  std::set<std::string> unbound;
  for (const auto &name : symbols())
    if (!bindings.count(name))
      unbound.insert(name);
  if (!unbound.empty())
    throw UnboundSymbolsError(std::move(unbound));

  struct Evaluator {
    const Bindings &bindings;
    std::vector<std::pair<const std::string *, Number>> sumVariables; // innermost last
    int64_t termsLeft = MaxSumTerms;
    Number operator()(const Expr &e) {
      switch (e.kind()) {
      case Kind::Integer:
        return e.integerValue();
      case Kind::Real:
        return Number::real(e.realValue());
      case Kind::Symbol:
        for (auto bound = sumVariables.rbegin(); bound != sumVariables.rend(); ++bound)
          if (*bound->first == e.name())
            return bound->second;
        return bindings.at(e.name());
      case Kind::Neg:
        return negate((*this)(e.lhs()));
      case Kind::Sum:
        return sum(e);
      default:
        return apply(e.kind(), (*this)(e.lhs()), (*this)(e.rhs()));
      }
    }
    Number sum(const Expr &e) {
      Number count = (*this)(e.lhs());
      if (!count.isInteger())
        throw Error("sum over " + e.name() + " with a count that is not an integer: " + count.str());
      if (count.integer() > termsLeft)
        throw Error("sum over " + e.name() + " of " + count.str() + " terms: more than " +
                    std::to_string(MaxSumTerms) + " in one evaluation");
      Number total = int64_t{0};
      sumVariables.emplace_back(&e.name(), int64_t{0});
      for (int64_t v = 0; v < count.integer(); ++v) {
        --termsLeft;
        sumVariables.back().second = v;
        total = apply(Kind::Add, total, (*this)(e.rhs()));
      }
      sumVariables.pop_back();
      return total;
    }
  };
  try {
    return Evaluator{bindings, {}}(*this);
  } catch (const OverflowError &overflow) {
    throw Error(std::string(overflow.what()) + " while evaluating " + str());
  }
}

// ---------------------------------------------------------------------------------------------------
// Simplification: a polynomial normal form whose variables ("atoms") are symbols and the
// non-polynomial sub-expressions, each simplified on its own.

namespace {

/// Number arithmetic for the normal form, with apply()'s overflow checks; only integer zeros vanish (a real
/// 0.0 stays: the expression was inexact).
struct NumberArithmetic {
  static Number add(const Number &a, const Number &b) { return apply(Expr::Kind::Add, a, b); }
  static Number multiply(const Number &a, const Number &b) { return apply(Expr::Kind::Mul, a, b); }
  static Number negate(const Number &a) { return roofcheck::negate(a); }
  static bool isZero(const Number &a) { return a.isInteger() && a.integer() == 0; }
};

/// The normal form: a polynomial over atom texts, and the expression each text stands for.
struct Normal {
  using Terms = roofcheck::Polynomial<std::string, Number, NumberArithmetic>;
  Terms poly;
  std::map<std::string, Expr> atoms;

  static Normal constant(const Number &value) { return {Terms::constant(value), {}}; }
  static Normal atom(const Expr &e) {
    std::string key = e.str();
    return {Terms::atom(key), {{key, e}}};
  }
  bool isConstant() const { return poly.asConstant().has_value(); }
  Number constantValue() const { return *poly.asConstant(); }
};

constexpr size_t maxTerms = 512;

Normal add(const Normal &x, const Normal &y, bool subtract) {
  Normal out{subtract ? x.poly - y.poly : x.poly + y.poly, x.atoms};
  out.atoms.insert(y.atoms.begin(), y.atoms.end());
  return out;
}

Normal multiply(const Normal &x, const Normal &y) {
  if (x.poly.terms.size() * y.poly.terms.size() > maxTerms)
    throw OverflowError("expansion too large");
  Normal out{x.poly * y.poly, x.atoms};
  out.atoms.insert(y.atoms.begin(), y.atoms.end());
  return out;
}

// coefficient * factor * factor ..., built left to right so that it prints without parentheses.
Expr termExpr(const Normal::Terms::Monomial &m, const Number &coefficient, const Normal &p) {
  bool unit = coefficient.isInteger() && (coefficient.integer() == 1 || coefficient.integer() == -1);
  std::optional<Expr> product;
  if (m.empty() || !unit)
    product = Expr::number(coefficient);
  for (const std::string &atom : m)
    product = product ? *product * p.atoms.at(atom) : p.atoms.at(atom);
  if (unit && coefficient.integer() == -1 && !m.empty())
    return -*product;
  return *product;
}

Expr toExpr(const Normal &p) {
  if (p.poly.terms.empty())
    return Expr::integer(0);
  // Canonical order: highest degree first, the constant last, monomials of one degree by their atoms and
  // powers; except that a positive term leads when there is one, so that "n - 2 * m" does not print as
  // "-2 * m + n".
  struct Term {
    std::map<std::string, int> powers; ///< the sort key: atom -> power
    const Normal::Terms::Monomial *monomial;
    Number coefficient;
  };
  std::vector<Term> terms;
  for (const auto &[m, c] : p.poly.terms) {
    Term term{{}, &m, c};
    for (const std::string &atom : m)
      ++term.powers[atom];
    terms.push_back(std::move(term));
  }
  std::sort(terms.begin(), terms.end(), [](const Term &a, const Term &b) {
    if (a.monomial->size() != b.monomial->size())
      return a.monomial->size() > b.monomial->size();
    return a.powers < b.powers;
  });
  auto firstPositive =
      std::find_if(terms.begin(), terms.end(), [](const Term &t) { return t.coefficient.toDouble() >= 0; });
  if (firstPositive != terms.end())
    std::rotate(terms.begin(), firstPositive, firstPositive + 1);
  Expr sum = termExpr(*terms[0].monomial, terms[0].coefficient, p);
  for (size_t i = 1; i < terms.size(); ++i) {
    const Term &term = terms[i];
    if (term.coefficient.toDouble() < 0)
      sum = sum - termExpr(*term.monomial, negate(term.coefficient), p);
    else
      sum = sum + termExpr(*term.monomial, term.coefficient, p);
  }
  return sum;
}

Normal toNormal(const Expr &e);

// Exact division of every coefficient by an integer constant, when the result stays integral.
bool divideExactly(const Normal &p, int64_t divisor, Normal &out) {
  out.atoms = p.atoms;
  for (const auto &[m, c] : p.poly.terms) {
    if (!c.isInteger() || c.integer() % divisor != 0)
      return false;
    out.poly.terms[m] = floorDivide(c.integer(), divisor);
  }
  return true;
}

// The greatest common divisor of a divisor and every coefficient, 1 where a coefficient is not an integer.
int64_t commonFactor(const Normal &p, int64_t divisor) {
  uint64_t common = divisor < 0 ? 0 - uint64_t(divisor) : uint64_t(divisor);
  for (const auto &[m, c] : p.poly.terms) {
    if (!c.isInteger())
      return 1;
    int64_t v = c.integer();
    common = std::gcd(common, v < 0 ? 0 - uint64_t(v) : uint64_t(v));
  }
  return common > uint64_t(std::numeric_limits<int64_t>::max()) ? 1 : int64_t(common);
}

Normal simplifyFunction(const Expr &e) {
  Normal a = toNormal(e.lhs());
  Normal b = toNormal(e.rhs());
  if (a.isConstant() && b.isConstant())
    return Normal::constant(apply(e.kind(), a.constantValue(), b.constantValue()));
  Expr sa = toExpr(a), sb = toExpr(b);
  switch (e.kind()) {
  case Expr::Kind::Div: {
    if (b.isConstant()) {
      Number d = b.constantValue();
      if (d.isInteger() && d.integer() == 1)
        return a;
      if (d.isInteger() && d.integer() != 0) {
        Normal q;
        if (divideExactly(a, d.integer(), q))
          return q;
        // A factor common to every coefficient and the divisor cancels, (645 * n) / 160 = (129 * n) / 32:
        // the same rational number, so the same floor.
        if (int64_t common = commonFactor(a, d.integer()); common > 1 && divideExactly(a, common, q))
          return Normal::atom(toExpr(q) / Expr::integer(d.integer() / common));
      }
    }
    return Normal::atom(sa / sb); // even x / x stays: it is not 1 when x is 0
  }
  case Expr::Kind::Min:
  case Expr::Kind::Max: {
    if (sa == sb)
      return a;
    // Operands a constant apart: the larger (or smaller) is known whatever the symbols are.
    if (Normal gap = add(a, b, true); gap.isConstant()) {
      bool aAbove = gap.constantValue().toDouble() > 0;
      return (e.kind() == Expr::Kind::Max) == aAbove ? a : b;
    }
    // Absorption: max(a, min(a, b)) = a and min(a, max(a, b)) = a, whatever b is (the count of a prefix that
    // covers a shorter prefix of the same positions).
    Expr::Kind dual = e.kind() == Expr::Kind::Min ? Expr::Kind::Max : Expr::Kind::Min;
    auto absorbs = [&](const Expr &outer, const Expr &inner) {
      return inner.kind() == dual && (inner.lhs() == outer || inner.rhs() == outer);
    };
    if (absorbs(sa, sb))
      return a;
    if (absorbs(sb, sa))
      return b;
    return Normal::atom(e.kind() == Expr::Kind::Min ? Expr::min(sa, sb) : Expr::max(sa, sb));
  }
  case Expr::Kind::CeilDiv:
    if (b.isConstant() && b.constantValue().isInteger() && b.constantValue().integer() == 1)
      return a;
    return Normal::atom(Expr::ceilDiv(sa, sb));
  case Expr::Kind::Less:
  case Expr::Kind::LessEqual:
  case Expr::Kind::Equal:
  case Expr::Kind::NotEqual:
    return Normal::atom(comparison(e.kind(), sa, sb));
  default:
    break;
  }
  return Normal::atom(sa / sb);
}

// A body free of the variable is count times itself (none when the count is not positive); otherwise the sum
// stays, its parts simplified.
Normal simplifySum(const Expr &e) {
  Expr count = toExpr(toNormal(e.lhs())), body = toExpr(toNormal(e.rhs()));
  if (!body.symbols().count(e.name()))
    return multiply(toNormal(Expr::max(count, Expr::integer(0))), toNormal(body));
  return Normal::atom(Expr::sum(e.name(), count, body));
}

Normal toNormal(const Expr &e) {
  switch (e.kind()) {
  case Expr::Kind::Integer:
    return Normal::constant(e.integerValue());
  case Expr::Kind::Real:
    return Normal::constant(Number::real(e.realValue()));
  case Expr::Kind::Symbol:
    return Normal::atom(e);
  case Expr::Kind::Neg:
    return multiply(Normal::constant(int64_t{-1}), toNormal(e.lhs()));
  case Expr::Kind::Add:
    return add(toNormal(e.lhs()), toNormal(e.rhs()), false);
  case Expr::Kind::Sub:
    return add(toNormal(e.lhs()), toNormal(e.rhs()), true);
  case Expr::Kind::Mul:
    return multiply(toNormal(e.lhs()), toNormal(e.rhs()));
  case Expr::Kind::Sum:
    return simplifySum(e);
  default:
    return simplifyFunction(e);
  }
}

} // namespace

Expr Expr::simplified() const {
  try {
    return toExpr(toNormal(*this));
  } catch (const OverflowError &) {
    // Constants too large to fold or a product too large to expand: simplify the parts only.
    switch (kind()) {
    case Kind::Integer:
    case Kind::Real:
    case Kind::Symbol:
      return *this;
    case Kind::Neg:
      return -lhs().simplified();
    case Kind::Sum:
      return Expr::sum(name(), lhs().simplified(), rhs().simplified());
    default:
      return make(kind(), lhs().simplified(), rhs().simplified());
    }
  } catch (const Error &) {
    return *this; // a constant division by zero stays visible to evaluate()
  }
}

Expr Expr::ratio(const Expr &numerator, const Expr &denominator) {
  Expr quotient = Expr::real(1.0) * numerator / denominator; // the real 1.0 keeps '/' from flooring
  try {
    Normal a = toNormal(numerator), b = toNormal(denominator);
    if (a.poly.terms.empty()) // no FLOP: 0 wherever bytes move
      return Expr::integer(0);
    if (b.poly.terms.empty())
      return quotient.simplified();
    // The atoms every monomial of both holds, as often as each holds them.
    std::vector<std::string> common = a.poly.terms.begin()->first;
    auto keepShared = [&common](const Normal &p) {
      for (const auto &[m, c] : p.poly.terms) {
        std::vector<std::string> shared;
        std::set_intersection(common.begin(), common.end(), m.begin(), m.end(), std::back_inserter(shared));
        common = std::move(shared);
      }
    };
    keepShared(a);
    keepShared(b);
    auto without = [&common](const Normal &p) {
      Normal out{{}, p.atoms};
      for (const auto &[m, c] : p.poly.terms) {
        std::vector<std::string> rest;
        std::set_difference(m.begin(), m.end(), common.begin(), common.end(), std::back_inserter(rest));
        out.poly.addTerm(rest, c);
      }
      return out;
    };
    return (Expr::real(1.0) * toExpr(without(a)) / toExpr(without(b))).simplified();
  } catch (const OverflowError &) {
    return quotient.simplified();
  } catch (const Error &) {
    return quotient; // a constant division by zero stays visible to evaluate()
  }
}

Expr Expr::substituted(const Bindings &bindings) const {
  struct Substituter {
    const Bindings &bindings;
    Expr operator()(const Expr &e) const {
      switch (e.kind()) {
      case Kind::Integer:
      case Kind::Real:
        return e;
      case Kind::Symbol: {
        auto it = bindings.find(e.name());
        return it == bindings.end() ? e : Expr::number(it->second);
      }
      case Kind::Neg:
        return -(*this)(e.lhs());
      case Kind::Sum: { // the variable is not the outer symbol of the same name
        Bindings inner = bindings;
        inner.erase(e.name());
        return Expr::sum(e.name(), (*this)(e.lhs()), Substituter{inner}(e.rhs()));
      }
      default:
        return make(e.kind(), (*this)(e.lhs()), (*this)(e.rhs()));
      }
    }
  };
  return Substituter{bindings}(*this).simplified();
}

} // namespace roofcheck
