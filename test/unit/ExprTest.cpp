#include "roofcheck/Expr.h"

#include <gtest/gtest.h>

#include <limits>

using roofcheck::Bindings;
using roofcheck::Error;
using roofcheck::Expr;
using roofcheck::Number;
using roofcheck::ParseError;
using roofcheck::UnboundSymbolsError;

namespace {

size_t columnOf(const std::string &text) {
  try {
    Expr::parse(text);
  } catch (const ParseError &e) {
    return e.column();
  }
  ADD_FAILURE() << "no ParseError for '" << text << "'";
  return 0;
}

} // namespace

TEST(ExprParse, PrintsCanonicalText) {
  EXPECT_EQ(Expr::parse("2*N*N*N").str(), "2 * N * N * N");
  EXPECT_EQ(Expr::parse("a-(b-c)").str(), "a - (b - c)");
  EXPECT_EQ(Expr::parse("(a-b)-c").str(), "a - b - c");
  EXPECT_EQ(Expr::parse("a/(b*c)").str(), "a / (b * c)");
  EXPECT_EQ(Expr::parse("-(a+b)").str(), "-(a + b)");
  EXPECT_EQ(Expr::parse("ceil_div( n , blockDim.x )*blockDim.x").str(), "ceil_div(n, blockDim.x) * blockDim.x");
  EXPECT_EQ(Expr::parse("min(a, max(b, 3))").str(), "min(a, max(b, 3))");
  EXPECT_EQ(Expr::parse("0.5 * x").str(), "0.5 * x");
  EXPECT_EQ(Expr::parse("2.0").str(), "2.0");
  EXPECT_EQ(Expr::parse("1e9").str(), "1e+09");
}

TEST(ExprParse, RoundTripsStructurally) {
  const char *cases[] = {"a + b * c",          "(a + b) * c",       "a - (b + c)",         "a / b / c",
                         "a / (b / c)",        "-a * b",            "-(a * b)",            "a - -3",
                         "-3 * x",             "x * -3",            "--x",                 "ceil_div(n, 256)",
                         "gridDim.x * blockDim.x", "min(n - i, 32) * 4", "0.1 + 0.2",         "12 * N * N",
                         "9223372036854775807", "1.5e-300 * q",     "max(-(a), -b)",       "a * (b * c)"};
  for (const char *text : cases) {
    Expr once = Expr::parse(text);
    Expr twice = Expr::parse(once.str());
    EXPECT_EQ(once, twice) << text << " printed as " << once.str();
    EXPECT_EQ(once.str(), twice.str()) << text;
  }
}

TEST(ExprParse, MalformedTextReportsTheColumn) {
  EXPECT_EQ(columnOf("a + * b"), 5u);
  EXPECT_EQ(columnOf("(a + b"), 7u);
  EXPECT_EQ(columnOf("a b"), 3u);
  EXPECT_EQ(columnOf(""), 1u);
  EXPECT_EQ(columnOf("   "), 4u);
  EXPECT_EQ(columnOf("foo(a, b)"), 1u);
  EXPECT_EQ(columnOf("min(a)"), 6u);
  EXPECT_EQ(columnOf("3x"), 2u);
  EXPECT_EQ(columnOf("1e"), 3u);
  EXPECT_EQ(columnOf("a $ b"), 3u);
  EXPECT_EQ(columnOf("99999999999999999999"), 1u);
  EXPECT_EQ(columnOf("."), 1u);
  try {
    Expr::parse("a + * b");
  } catch (const ParseError &e) {
    EXPECT_STREQ(e.what(), "column 5: unexpected '*'");
  }
}

TEST(ExprParse, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '(');
  EXPECT_THROW(Expr::parse(deep + "1" + std::string(100000, ')')), ParseError);
  std::string negations(100000, '-');
  EXPECT_THROW(Expr::parse(negations + "x"), ParseError);
  std::string chain = "a";
  for (int i = 0; i < 10000; ++i)
    chain += " + a";
  EXPECT_STREQ([&] {
    try {
      Expr::parse(chain);
    } catch (const ParseError &e) {
      return std::string(e.what());
    }
    return std::string();
  }().c_str(), "column 16385: expression longer than 16384 characters");
}

TEST(ExprParse, PrintingNeverNestsDeeperThanTheInput) {
  // Found by fuzz-expr: nested negations printed as -(-(y)) read back twice as deep as they were written.
  std::string deep = std::string(150, '-') + "y";
  Expr e = Expr::parse(deep);
  EXPECT_EQ(e.str(), deep);
  EXPECT_EQ(Expr::parse(e.str()), e);
  EXPECT_EQ(Expr::parse("-(-(a * b))").str(), "--(a * b)");
}

TEST(ExprEvaluate, IntegersStayExactAndDivisionFloors) {
  Bindings b{{"n", Number(int64_t{10})}, {"blockDim.x", Number(int64_t{4})}};
  EXPECT_EQ(Expr::parse("n / blockDim.x").evaluate(b), Number(int64_t{2}));
  EXPECT_EQ(Expr::parse("ceil_div(n, blockDim.x)").evaluate(b), Number(int64_t{3}));
  EXPECT_EQ(Expr::parse("-7 / 2").evaluate(), Number(int64_t{-4}));
  EXPECT_EQ(Expr::parse("ceil_div(-7, 2)").evaluate(), Number(int64_t{-3}));
  EXPECT_EQ(Expr::parse("min(n, 3) + max(n, 3)").evaluate(b), Number(int64_t{13}));
  Number big = Expr::parse("2 * N * N * N").evaluate({{"N", Number(int64_t{65536})}});
  ASSERT_TRUE(big.isInteger());
  EXPECT_EQ(big.integer(), int64_t{562949953421312});
}

TEST(ExprEvaluate, DoublesOnceAnythingIsInexact) {
  Number ai = Expr::parse("2 * N * N * N / (12.0 * N * N)").evaluate({{"N", Number(int64_t{4096})}});
  EXPECT_FALSE(ai.isInteger());
  EXPECT_DOUBLE_EQ(ai.toDouble(), 4096.0 / 6.0);
  Number scaled = Expr::parse("x * 3").evaluate({{"x", Number::real(0.5)}});
  EXPECT_FALSE(scaled.isInteger());
  EXPECT_DOUBLE_EQ(scaled.toDouble(), 1.5);
  EXPECT_DOUBLE_EQ(Expr::parse("ceil_div(7.0, 2)").evaluate().toDouble(), 4.0);
}

TEST(ExprEvaluate, OverflowIsAnErrorNotAWrap) {
  Bindings b{{"n", Number(int64_t{1} << 40)}};
  try {
    Expr::parse("n * n").evaluate(b);
    FAIL() << "no overflow error";
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("integer overflow"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Expr::parse("9223372036854775807 + 1").evaluate(), Error);
  EXPECT_THROW(Expr::parse("-9223372036854775807 - 2").evaluate(), Error);
  EXPECT_THROW(Expr::parse("n / 0").evaluate(b), Error);
  EXPECT_THROW(Expr::parse("ceil_div(n, 0)").evaluate(b), Error);
  // Results that have no literal are overflows too: INT64_MIN and infinities.
  EXPECT_THROW(Expr::parse("-9223372036854775807 - 1").evaluate(), Error);
  EXPECT_THROW(Expr::parse("1e308 * 10").evaluate(), Error);
}

TEST(ExprEvaluate, UnboundSymbolsAreNamed) {
  try {
    Expr::parse("rows * cols + n * gridDim.x").evaluate({{"n", Number(int64_t{1})}});
    FAIL() << "no error";
  } catch (const UnboundSymbolsError &e) {
    EXPECT_EQ(e.names(), (std::set<std::string>{"cols", "gridDim.x", "rows"}));
    EXPECT_STREQ(e.what(), "unbound symbols: cols, gridDim.x, rows");
  }
  EXPECT_EQ(Expr::parse("3 * (4 + 5)").evaluate(), Number(int64_t{27}));
}

TEST(ExprSimplify, FoldsConstantsAndCollectsLikeTerms) {
  EXPECT_EQ(Expr::parse("2 * n + 3 * n").simplified().str(), "5 * n");
  EXPECT_EQ(Expr::parse("n * m - m * n").simplified().str(), "0");
  EXPECT_EQ(Expr::parse("(a + 1) * (a + 1)").simplified().str(), "a * a + 2 * a + 1");
  EXPECT_EQ(Expr::parse("4 * 3 + x * 2 * 5").simplified().str(), "10 * x + 12");
  EXPECT_EQ(Expr::parse("(4 * n + 8) / 4").simplified().str(), "n + 2");
  EXPECT_EQ(Expr::parse("(4 * n + 7) / 4").simplified().str(), "(4 * n + 7) / 4");
  EXPECT_EQ(Expr::parse("(645 * n) / 160").simplified().str(), "129 * n / 32");
  EXPECT_EQ(Expr::parse("(6 * n + 4) / -8").simplified().str(), "(3 * n + 2) / -4");
  EXPECT_EQ(Expr::parse("n - 2 * m").simplified().str(), "n - 2 * m");
  EXPECT_EQ(Expr::parse("min(n, n) + ceil_div(n, 1)").simplified().str(), "2 * n");
  EXPECT_EQ(Expr::parse("min(2 + 2, 5)").simplified().str(), "4");
  // Absorption holds for any b; anything else stays as written.
  EXPECT_EQ(Expr::parse("max(n, min(n, g * b))").simplified().str(), "n");
  EXPECT_EQ(Expr::parse("max(min(b * g, n), n)").simplified().str(), "n");
  EXPECT_EQ(Expr::parse("min(2 * n, max(n + n, m))").simplified().str(), "2 * n");
  EXPECT_EQ(Expr::parse("max(n, min(m, g))").simplified().str(), "max(n, min(m, g))");
  EXPECT_EQ(Expr::parse("max(n, max(n, g))").simplified().str(), "max(n, max(n, g))");
  EXPECT_EQ(Expr::parse("max(min(n, g), min(n, g) - 1)").simplified().str(), "min(n, g)");
  EXPECT_EQ(Expr::parse("min(n + 2, n - 1)").simplified().str(), "n - 1");
  EXPECT_EQ(Expr::parse("x / x").simplified().str(), "x / x");
  EXPECT_EQ(Expr::parse("0.5 * x + 0.5 * x").simplified().str(), "1.0 * x");
  EXPECT_EQ(Expr::parse("0 - 2 * m - n").simplified().str(), "-2 * m - n");
  EXPECT_EQ(Expr::parse("2 * N * N * N").simplified().str(), "2 * N * N * N");
}

TEST(ExprSimplify, NeverChangesTheValue) {
  const char *cases[] = {"(a + b) * (a - b) - a * a",  "ceil_div(a * 4, 2) + (a + b) / 3",
                         "min(a - b, b - a) * 2 + max(a, 7)", "a * b * 8 / 4 - (3 - a) * (b + 1)",
                         "-(a - 2 * b) / 5 + -a",      "(6 * a - 4 * b) / 8 + (15 * a) / -10"};
  for (int64_t a = -7; a <= 7; a += 2)
    for (int64_t b = -5; b <= 9; b += 3)
      for (const char *text : cases) {
        Bindings bindings{{"a", Number(a)}, {"b", Number(b)}};
        Expr e = Expr::parse(text);
        EXPECT_EQ(e.evaluate(bindings), e.simplified().evaluate(bindings)) << text << " a=" << a << " b=" << b;
      }
}

TEST(ExprSimplify, KeepsWhatItCannotFold) {
  EXPECT_EQ(Expr::parse("9223372036854775807 + 1").simplified().str(), "9223372036854775807 + 1");
  EXPECT_EQ(Expr::parse("1 / 0").simplified().str(), "1 / 0");
  EXPECT_EQ(Expr::parse("1e308 * 10").simplified().str(), "1e+308 * 10");
  EXPECT_EQ(Expr::parse("-9223372036854775807 - 1").simplified().str(), "-9223372036854775807 - 1");
}

TEST(ExprRatio, CancelsFactorsCommonToEveryTerm) {
  // An elementwise kernel's FLOPs per byte do not depend on its size.
  EXPECT_EQ(Expr::ratio(Expr::parse("min(n, blockDim.x * gridDim.x)"), Expr::parse("12 * min(n, blockDim.x * gridDim.x)"))
                .str(),
            Expr::real(1.0 / 12).str());
  EXPECT_EQ(Expr::ratio(Expr::parse("n * n * 2"), Expr::parse("8 * n")).str(), "2.0 * n / 8");
  EXPECT_EQ(Expr::ratio(Expr::parse("b * min(n, t)"), Expr::parse("12 * min(n, t)")).str(), "1.0 * b / 12");
  EXPECT_EQ(Expr::ratio(Expr::parse("0"), Expr::parse("12 * min(n, t)")).str(), "0");
  // A factor only some terms hold stays.
  EXPECT_EQ(Expr::ratio(Expr::parse("2 * m * n * k"), Expr::parse("4 * m * k + 4 * k * n + 4 * m * n")).str(),
            "2.0 * k * m * n / (4 * k * m + 4 * k * n + 4 * m * n)");
  EXPECT_EQ(Expr::ratio(Expr::parse("3 * b * n"), Expr::parse("b * n + 2 * b * m")).str(), "3.0 * n / (2 * m + n)");
  // Wherever the denominator is not zero, the value is the quotient's.
  const std::pair<const char *, const char *> cases[] = {
      {"3 * b * n", "b * n + 2 * b * m"}, {"n * n * 2", "8 * n"}, {"min(n, b) * m", "4 * min(n, b) * m * m"}};
  for (const auto &[numerator, denominator] : cases)
    for (int64_t n = 1; n <= 9; n += 4)
      for (int64_t m = 1; m <= 3; ++m)
        for (int64_t b = 1; b <= 5; b += 2) {
          Bindings bindings{{"n", Number(n)}, {"m", Number(m)}, {"b", Number(b)}};
          Expr quotient = Expr::real(1.0) * Expr::parse(numerator) / Expr::parse(denominator);
          Expr reduced = Expr::ratio(Expr::parse(numerator), Expr::parse(denominator));
          EXPECT_NEAR(quotient.evaluate(bindings).toDouble(), reduced.evaluate(bindings).toDouble(), 1e-12)
              << numerator << " / " << denominator;
        }
}

TEST(ExprSubstitute, BindsWhatItCanAndKeepsTheRest) {
  Expr e = Expr::parse("n * blockDim.x + m");
  EXPECT_EQ(e.substituted({{"blockDim.x", Number(int64_t{256})}}).str(), "m + 256 * n");
  EXPECT_EQ(e.symbols(), (std::set<std::string>{"blockDim.x", "m", "n"}));
}

TEST(NumberText, RealsReadBack) {
  for (double d : {0.1, 1.0 / 3.0, 1e300, 5e-324, 2.0, 123456789.125}) {
    Number n = Number::real(d);
    EXPECT_EQ(Expr::parse(n.str()).realValue(), d) << n.str();
  }
}

TEST(ExprParse, ArrayElementsArePartOfTheName) {
  // CUTLASS's problem size is `int idx[3]` inside a struct parameter: its k is params.problem_size.idx[2].
  Expr k = Expr::parse("params.problem_size.idx[2] / 8");
  EXPECT_EQ(k.symbols(), (std::set<std::string>{"params.problem_size.idx[2]"}));
  EXPECT_EQ(k.str(), "params.problem_size.idx[2] / 8");
  EXPECT_EQ(k.evaluate({{"params.problem_size.idx[2]", 64}}).integer(), 8);
  EXPECT_EQ(Expr::parse("a[0][1].b").symbols(), (std::set<std::string>{"a[0][1].b"}));
  EXPECT_EQ(columnOf("a[x]"), 3u);
  EXPECT_EQ(columnOf("a[2"), 4u);
  EXPECT_EQ(columnOf("a[]"), 3u);
}

TEST(ExprSum, AddsTheBodyOverItsVariable) {
  // A triangle: block b of gridDim.x walks b + 1 tiles.
  Expr triangle = Expr::parse("sum(blockIdx.x, gridDim.x, blockIdx.x + 1) * blockDim.x");
  EXPECT_EQ(triangle.str(), "sum(blockIdx.x, gridDim.x, blockIdx.x + 1) * blockDim.x");
  EXPECT_EQ(Expr::parse(triangle.str()), triangle);
  EXPECT_EQ(triangle.symbols(), (std::set<std::string>{"blockDim.x", "gridDim.x"}));
  EXPECT_EQ(triangle.evaluate({{"gridDim.x", 4}, {"blockDim.x", 32}}).integer(), (1 + 2 + 3 + 4) * 32);
  // No term when the count is not positive; the variable shadows an outer binding of the same name.
  EXPECT_EQ(Expr::parse("sum(v, n, v)").evaluate({{"n", -3}}).integer(), 0);
  EXPECT_EQ(Expr::parse("sum(v, 3, v) + v").evaluate({{"v", 100}}).integer(), 0 + 1 + 2 + 100);
  // Nested sums: the inner count may name the outer variable.
  EXPECT_EQ(Expr::parse("sum(i, 4, sum(j, i, 1))").evaluate().integer(), 0 + 1 + 2 + 3);
  // A split of K = 100 into slices of 32 over gridDim.z = 4 blocks: 32 + 32 + 32 + 4.
  Expr slices = Expr::parse("sum(blockIdx.z, gridDim.z, min(k, (blockIdx.z + 1) * s) - blockIdx.z * s)");
  EXPECT_EQ(slices.evaluate({{"gridDim.z", 4}, {"k", 100}, {"s", 32}}).integer(), 100);
}

TEST(ExprSum, BadCountsAreErrorsNotHangs) {
  EXPECT_THROW(Expr::parse("sum(v, 2.5, v)").evaluate(), Error);
  EXPECT_THROW(Expr::parse("sum(v, n, v)").evaluate({{"n", Expr::MaxSumTerms + 1}}), Error);
  // The limit is on all terms of one evaluation, nested ones included.
  EXPECT_THROW(Expr::parse("sum(i, 5000, sum(j, 5000, 1))").evaluate(), Error);
  EXPECT_EQ(columnOf("sum(2, n, v)"), 5u);
  EXPECT_EQ(columnOf("sum(v, n)"), 9u);
}

TEST(ExprSum, SimplifiesItsPartsAndDropsAVariableTheBodyLacks) {
  EXPECT_EQ(Expr::parse("sum(b, n, 2 * b + b)").simplified().str(), "sum(b, n, 3 * b)");
  EXPECT_EQ(Expr::parse("sum(b, n, m)").simplified().str(), "m * max(n, 0)");
  EXPECT_EQ(Expr::parse("sum(b, 4, m)").simplified().str(), "4 * m");
  // Substitution binds the free symbols, never the variable.
  EXPECT_EQ(Expr::parse("sum(b, n, b * w)").substituted({{"b", 7}, {"w", 2}}).str(), "sum(b, n, 2 * b)");
  EXPECT_EQ(Expr::parse("sum(b, n, b * w)").substituted({{"n", 3}, {"w", 2}}).evaluate().integer(), 6);
  EXPECT_NE(Expr::parse("sum(a, n, 1)"), Expr::parse("sum(b, n, 1)"));
}

TEST(ExprCompare, OneWhereTheComparisonHoldsAsCComparesThem) {
  Expr e = Expr::parse("eq( op ,2)*x + ne(op, 2) * 3 + lt(n, 0.5) + le(m, m) ");
  EXPECT_EQ(e.str(), "eq(op, 2) * x + ne(op, 2) * 3 + lt(n, 0.5) + le(m, m)");
  EXPECT_EQ(Expr::parse(e.str()), e);
  EXPECT_EQ(e.symbols(), (std::set<std::string>{"m", "n", "op", "x"}));
  EXPECT_EQ(e.evaluate({{"op", 2}, {"x", 10}, {"n", 1}, {"m", 5}}), Number(int64_t{11}));
  EXPECT_EQ(e.evaluate({{"op", 3}, {"x", 10}, {"n", 0}, {"m", 5}}), Number(int64_t{5}));
  // Integers compare exactly, past a double's 53 bits; a real on either side compares as doubles.
  EXPECT_EQ(Expr::parse("lt(9007199254740992, 9007199254740993)").evaluate().integer(), 1);
  EXPECT_EQ(Expr::parse("le(max_bias, 0.0)").evaluate({{"max_bias", Number::real(0.125)}}).integer(), 0);
  EXPECT_EQ(Expr::parse("eq(x, 1)").evaluate({{"x", Number::real(1.0)}}).integer(), 1);
  EXPECT_EQ(columnOf("gt(a, b)"), 1u);
  EXPECT_EQ(columnOf("eq(a)"), 5u);
}

TEST(ExprCompare, FoldsConstantsAndKeepsTheRestAsParts) {
  EXPECT_EQ(Expr::parse("eq(2 + 1, 3) * n + lt(4, 3) * m").simplified().str(), "n");
  EXPECT_EQ(Expr::parse("eq(op, 1 + 1) * (n + n)").simplified().str(), "2 * eq(op, 2) * n");
  // A test and its complement add up to the count without the test, whatever the parameter is.
  Expr sides = Expr::parse("eq(bias, 0) * 3 * n + (1 - eq(bias, 0)) * 5 * n");
  for (int64_t bias : {0, 1})
    EXPECT_EQ(sides.simplified().evaluate({{"bias", bias}, {"n", 7}}).integer(), bias ? 35 : 21);
}
