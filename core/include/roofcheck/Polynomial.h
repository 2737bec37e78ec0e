// A polynomial in commuting atoms, the normal form behind two parts of roofcheck: Expr::simplified (atoms
// are symbols and the sub-expressions that are not polynomial, coefficients are Numbers) and the static
// estimator's addresses, bounds and trip counts (atoms are numbered values of the device IR, coefficients
// are 64-bit integers).
#pragma once

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <vector>

namespace roofcheck {

/// Coefficient arithmetic for built-in numbers; another coefficient type brings its own (add, multiply,
/// negate, isZero as static functions).
template <typename Coefficient> struct BuiltinArithmetic {
  static Coefficient add(const Coefficient &a, const Coefficient &b) { return a + b; }
  static Coefficient multiply(const Coefficient &a, const Coefficient &b) { return a * b; }
  static Coefficient negate(const Coefficient &a) { return -a; }
  static bool isZero(const Coefficient &a) { return a == Coefficient{}; }
};

/// Σ coefficient · monomial, zero coefficients never stored. A monomial is its atoms in ascending order,
/// an atom repeated once per power (x²y is {x, x, y}); the constant term's monomial is empty.
template <typename Atom, typename Coefficient, typename Arithmetic = BuiltinArithmetic<Coefficient>>
struct Polynomial {
  using Monomial = std::vector<Atom>;
  std::map<Monomial, Coefficient> terms;

  static Polynomial constant(const Coefficient &c) {
    Polynomial p;
    p.addTerm({}, c);
    return p;
  }
  static Polynomial atom(const Atom &a) {
    Polynomial p;
    p.terms.emplace(Monomial{a}, Coefficient{1});
    return p;
  }
  bool isZero() const { return terms.empty(); }
  /// The value of a polynomial without atoms; nullopt when it has one.
  std::optional<Coefficient> asConstant() const {
    if (terms.empty())
      return Coefficient{};
    if (terms.size() == 1 && terms.begin()->first.empty())
      return terms.begin()->second;
    return std::nullopt;
  }
  void addTerm(const Monomial &m, const Coefficient &c) {
    auto found = terms.find(m);
    if (found == terms.end()) {
      if (!Arithmetic::isZero(c))
        terms.emplace(m, c);
      return;
    }
    found->second = Arithmetic::add(found->second, c);
    if (Arithmetic::isZero(found->second))
      terms.erase(found);
  }
  Polynomial operator+(const Polynomial &o) const {
    Polynomial r = *this;
    for (const auto &[m, c] : o.terms)
      r.addTerm(m, c);
    return r;
  }
  Polynomial operator-(const Polynomial &o) const {
    Polynomial r = *this;
    for (const auto &[m, c] : o.terms)
      r.addTerm(m, Arithmetic::negate(c));
    return r;
  }
  Polynomial scaled(const Coefficient &k) const {
    Polynomial r;
    for (const auto &[m, c] : terms)
      r.addTerm(m, Arithmetic::multiply(c, k));
    return r;
  }
  Polynomial operator*(const Polynomial &o) const {
    Polynomial r;
    for (const auto &[ma, ca] : terms)
      for (const auto &[mb, cb] : o.terms) {
        Monomial m;
        m.reserve(ma.size() + mb.size());
        std::merge(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(m));
        r.addTerm(m, Arithmetic::multiply(ca, cb));
      }
    return r;
  }
  bool operator==(const Polynomial &o) const { return terms == o.terms; }
};

} // namespace roofcheck
