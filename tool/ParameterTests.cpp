#include "ParameterTests.h"

#include <cstdint>
#include <map>
#include <string>

namespace roofcheck::lint {
namespace {

/// Atoms a table of values goes through: 2^12 rows.
constexpr size_t MostAtoms = 12;

/// The atoms of 0/1 tests: symbols and comparisons, `ne(a, b)` read as `1 - eq(a, b)` so that the two are one.
class TestAtoms {
public:
  /// Takes the atoms of a test; false where it is not made of atoms with +, - and *.
  bool take(const Expr &e) {
    switch (e.kind()) {
    case Expr::Kind::Integer:
      return true;
    case Expr::Kind::Symbol:
    case Expr::Kind::Equal:
    case Expr::Kind::Less:
    case Expr::Kind::LessEqual:
      add(e);
      return true;
    case Expr::Kind::NotEqual:
      add(Expr::equal(e.lhs(), e.rhs()));
      return true;
    case Expr::Kind::Add:
    case Expr::Kind::Sub:
    case Expr::Kind::Mul:
      return take(e.lhs()) && take(e.rhs());
    case Expr::Kind::Neg:
      return take(e.lhs());
    default:
      return false;
    }
  }

  size_t size() const { return atoms_.size(); }

  /// The test's value where atom i holds exactly where bit i of row is set.
  int64_t value(const Expr &e, uint32_t row) const {
    switch (e.kind()) {
    case Expr::Kind::Integer:
      return e.integerValue();
    case Expr::Kind::NotEqual:
      return 1 - bit(Expr::equal(e.lhs(), e.rhs()), row);
    case Expr::Kind::Add:
      return value(e.lhs(), row) + value(e.rhs(), row);
    case Expr::Kind::Sub:
      return value(e.lhs(), row) - value(e.rhs(), row);
    case Expr::Kind::Mul:
      return value(e.lhs(), row) * value(e.rhs(), row);
    case Expr::Kind::Neg:
      return -value(e.lhs(), row);
    default:
      return bit(e, row);
    }
  }

  /// Atom i, or where it does not hold.
  Expr literal(size_t i, bool holds) const {
    const Expr &atom = atoms_[i];
    if (holds)
      return atom;
    return atom.kind() == Expr::Kind::Equal ? Expr::notEqual(atom.lhs(), atom.rhs()) : Expr::integer(1) - atom;
  }

private:
  void add(const Expr &atom) {
    if (index_.emplace(atom.str(), atoms_.size()).second)
      atoms_.push_back(atom);
  }
  int64_t bit(const Expr &atom, uint32_t row) const { return (row >> index_.at(atom.str())) & 1; }

  std::vector<Expr> atoms_;
  std::map<std::string, size_t> index_;
};

/// The rows where a function of the atoms holds, written as a sum of products of literals: each product a
/// row widened along every atom the function does not depend on there (the sum is nonzero exactly where the
/// function holds; products may overlap).
Where cover(const std::vector<bool> &holds, const TestAtoms &atoms) {
  const size_t n = atoms.size();
  bool any = false, all = true;
  for (bool h : holds) {
    any = any || h;
    all = all && h;
  }
  if (!any)
    return {Where::Kind::Never, Expr()};
  if (all)
    return {Where::Kind::Always, Expr()};
  std::vector<bool> covered(holds.size(), false);
  std::optional<Expr> sum;
  for (uint32_t row = 0; row < holds.size(); ++row) {
    if (!holds[row] || covered[row])
      continue;
    uint32_t fixed = (uint32_t{1} << n) - 1; // the atoms the product names
    // Every row of the product: the fixed bits as in `row`, the free ones in every combination.
    auto members = [&](uint32_t mask, auto &&visit) {
      uint32_t free = ~mask & ((uint32_t{1} << n) - 1);
      for (uint32_t sub = free;; sub = (sub - 1) & free) {
        visit((row & mask) | sub);
        if (sub == 0)
          break;
      }
    };
    for (size_t i = 0; i < n; ++i) {
      uint32_t wider = fixed & ~(uint32_t{1} << i);
      bool inside = true;
      members(wider, [&](uint32_t r) { inside = inside && holds[r]; });
      if (inside)
        fixed = wider;
    }
    members(fixed, [&](uint32_t r) { covered[r] = true; });
    std::optional<Expr> product;
    for (size_t i = 0; i < n; ++i)
      if (fixed >> i & 1) {
        Expr literal = atoms.literal(i, row >> i & 1);
        product = product ? *product * literal : literal;
      }
    sum = sum ? *sum + *product : *product;
  }
  return {Where::Kind::When, *sum};
}

/// The table of `holdsAt` over every row of the atoms of `tests`; nullopt where a test is no 0/1 function of
/// atoms or there are too many of them.
template <typename HoldsAt>
std::optional<Where> tabulate(const std::vector<Expr> &tests, HoldsAt holdsAt) {
  TestAtoms atoms;
  for (const Expr &t : tests)
    if (!atoms.take(t))
      return std::nullopt;
  if (atoms.size() > MostAtoms)
    return std::nullopt;
  std::vector<bool> holds(size_t{1} << atoms.size());
  for (uint32_t row = 0; row < holds.size(); ++row) {
    std::vector<bool> values;
    for (const Expr &t : tests) {
      int64_t v = atoms.value(t, row);
      if (v != 0 && v != 1)
        return std::nullopt;
      values.push_back(v == 1);
    }
    holds[row] = holdsAt(values);
  }
  return cover(holds, atoms);
}

} // namespace

std::optional<Where> whereNoneHolds(const std::vector<Expr> &tests) {
  return tabulate(tests, [](const std::vector<bool> &values) {
    for (bool v : values)
      if (v)
        return false;
    return true;
  });
}

std::optional<Where> whereHolds(const Expr &test) {
  return tabulate({test}, [](const std::vector<bool> &values) { return values.front(); });
}

} // namespace roofcheck::lint
