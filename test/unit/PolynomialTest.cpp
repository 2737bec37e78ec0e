#include "roofcheck/Polynomial.h"

#include <gtest/gtest.h>

#include <string>

using IndexPolynomial = roofcheck::Polynomial<int, int64_t>;
using NamedPolynomial = roofcheck::Polynomial<std::string, int64_t>;

TEST(Polynomial, ProductsKeepAtomsSortedWithTheirPowers) {
  // (x + 1)(x - 1) = x² - 1, the x² monomial written {x, x}.
  IndexPolynomial x = IndexPolynomial::atom(7);
  IndexPolynomial product = (x + IndexPolynomial::constant(1)) * (x - IndexPolynomial::constant(1));
  ASSERT_EQ(product.terms.size(), 2u);
  EXPECT_EQ(product.terms.at({7, 7}), 1);
  EXPECT_EQ(product.terms.at({}), -1);
  // y·x and x·y are one monomial, its atoms in ascending order.
  NamedPolynomial xy = NamedPolynomial::atom("x") * NamedPolynomial::atom("y");
  NamedPolynomial yx = NamedPolynomial::atom("y") * NamedPolynomial::atom("x");
  EXPECT_EQ(xy, yx);
  EXPECT_EQ(xy.terms.begin()->first, (NamedPolynomial::Monomial{"x", "y"}));
}

TEST(Polynomial, ZeroCoefficientsAreNeverStored) {
  IndexPolynomial x = IndexPolynomial::atom(1);
  EXPECT_TRUE((x - x).isZero());
  EXPECT_TRUE(x.scaled(0).isZero());
  EXPECT_TRUE(IndexPolynomial::constant(0).isZero());
  IndexPolynomial sum = x.scaled(3) + x.scaled(-3) + IndexPolynomial::constant(2);
  EXPECT_EQ(sum.terms.size(), 1u);
  EXPECT_EQ(sum.asConstant(), 2);
}

TEST(Polynomial, ConstantOnlyWithoutAtoms) {
  EXPECT_EQ(IndexPolynomial().asConstant(), 0);
  EXPECT_EQ(IndexPolynomial::constant(-5).asConstant(), -5);
  EXPECT_FALSE((IndexPolynomial::atom(2) + IndexPolynomial::constant(1)).asConstant().has_value());
}
