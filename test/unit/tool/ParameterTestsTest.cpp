#include "ParameterTests.h"

#include <gtest/gtest.h>

using namespace roofcheck;
using namespace roofcheck::lint;

namespace {

Expr e(const char *text) { return Expr::parse(text); }

std::string shown(const std::optional<Where> &where) {
  if (!where)
    return "no table";
  switch (where->kind) {
  case Where::Kind::Never:
    return "never";
  case Where::Kind::Always:
    return "always";
  case Where::Kind::When:
    break;
  }
  return where->when.str();
}

} // namespace

TEST(ParameterTests, AProductOfTestsTakesItsShortestForm) {
  EXPECT_EQ(shown(whereHolds(e("ids * ids"))), "ids");
  EXPECT_EQ(shown(whereHolds(e("gate - gate * ids"))), "gate * (1 - ids)");
  // ne is the negation of eq: one atom, written as the comparison that holds.
  EXPECT_EQ(shown(whereHolds(e("1 - eq(stride, 0)"))), "ne(stride, 0)");
  EXPECT_EQ(shown(whereHolds(e("ne(stride, 0) * eq(stride, 0)"))), "never");
  EXPECT_EQ(shown(whereHolds(e("ids + 1 - ids"))), "always");
}

TEST(ParameterTests, NoneHoldsWhereEveryTestFails) {
  EXPECT_EQ(shown(whereNoneHolds({e("table")})), "1 - table");
  EXPECT_EQ(shown(whereNoneHolds({e("ids"), e("gate * ids"), e("eq(s, 0) * ids")})), "1 - ids");
  EXPECT_EQ(shown(whereNoneHolds({e("1 - inplace"), e("ne(s, 0)")})), "inplace * eq(s, 0)");
  // Something uncounted on both sides of a test: known for no launch.
  EXPECT_EQ(shown(whereNoneHolds({e("ids"), e("1 - ids")})), "never");
  // Either of two atoms failing: a sum of products that may overlap, nonzero exactly where the bytes are known.
  EXPECT_EQ(shown(whereNoneHolds({e("a * b")})), "1 - b + (1 - a)");
}

TEST(ParameterTests, WhatIsNoTestOfAtomsHasNoTable) {
  EXPECT_EQ(shown(whereHolds(e("n / 4"))), "no table");
  EXPECT_EQ(shown(whereHolds(e("2 * ids"))), "no table") << "not 0/1";
  EXPECT_EQ(shown(whereNoneHolds({e("a * b * c * d * e * f * g * h * i * j * k * l * m")})), "no table");
}
