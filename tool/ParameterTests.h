// Tests of a kernel's parameters as the formulas write them: 0/1 expressions built from atoms (a pointer standing
// for whether it is given, a bool member, a comparison `eq(op, 1)`) with +, - and *. Products of such tests
// grow with every test they combine (`ids * ids - ids`); read as functions of their atoms, they have a shortest
// form, and may never hold at all.
#pragma once

#include "roofcheck/Expr.h"

#include <optional>
#include <vector>

namespace roofcheck::lint {

/// Where something holds, as a test of parameters.
struct Where {
  enum class Kind { Never, Always, When } kind = Kind::Always;
  Expr when; ///< Kind::When only: nonzero exactly where it holds
};

/// Where none of the tests holds. nullopt when a test is not a 0/1 expression of atoms (a division, a count)
/// or names more atoms than a table of their values can go through.
std::optional<Where> whereNoneHolds(const std::vector<Expr> &tests);

/// Where the test holds, in its shortest form of products of atoms and their negations (`1 - ids`,
/// `ne(stride, 0)`); nullopt as above.
std::optional<Where> whereHolds(const Expr &test);

} // namespace roofcheck::lint
