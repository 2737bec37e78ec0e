#include "roofcheck/Bindings.h"

#include <gtest/gtest.h>

using namespace roofcheck;

TEST(ScalarKind, DropsQualifiersAndKnowsPointers) {
  EXPECT_EQ(scalarKind("int"), ScalarKind::Signed);
  EXPECT_EQ(scalarKind("const int"), ScalarKind::Signed);
  EXPECT_EQ(scalarKind("unsigned int"), ScalarKind::Unsigned);
  EXPECT_EQ(scalarKind("const  unsigned   long"), ScalarKind::Unsigned);
  EXPECT_EQ(scalarKind("std::size_t"), ScalarKind::Unsigned);
  EXPECT_EQ(scalarKind("long long"), ScalarKind::Signed);
  EXPECT_EQ(scalarKind("float"), ScalarKind::Float);
  EXPECT_EQ(scalarKind("const double"), ScalarKind::Double);
  EXPECT_EQ(scalarKind("const float *"), ScalarKind::NotScalar);
  EXPECT_EQ(scalarKind("float *__restrict__"), ScalarKind::NotScalar);
  EXPECT_EQ(scalarKind("const Params &"), ScalarKind::NotScalar);
  EXPECT_EQ(scalarKind("Params"), ScalarKind::NotScalar);
  EXPECT_EQ(scalarKind("__half"), ScalarKind::NotScalar);
}

TEST(DecodeArgument, ReadsLittleEndianBytesAsTheParameterType) {
  // 8192 = 0x00002000, in memory 00 20 00 00.
  EXPECT_EQ(decodeArgument("int", "00200000"), Number(int64_t{8192}));
  // -1 as int sign-extends; as unsigned it does not.
  EXPECT_EQ(decodeArgument("int", "ffffffff"), Number(int64_t{-1}));
  EXPECT_EQ(decodeArgument("unsigned int", "ffffffff"), Number(int64_t{4294967295}));
  EXPECT_EQ(decodeArgument("short", "feff"), Number(int64_t{-2}));
  EXPECT_EQ(decodeArgument("size_t", "0000000001000000"), Number(int64_t{1} << 32));
  EXPECT_EQ(decodeArgument("long", "ffffffffffffffff"), Number(int64_t{-1}));
  // 0.5f = 0x3f000000; 2.0 = 0x4000000000000000.
  EXPECT_EQ(decodeArgument("float", "0000003f"), Number::real(0.5));
  EXPECT_EQ(decodeArgument("double", "0000000000000040"), Number::real(2.0));
  EXPECT_EQ(decodeArgument("double", "0000000000000040")->str(), "2.0");
  // An unsigned 64-bit value beyond int64 stays a (real) number, not a wrapped negative one.
  auto huge = decodeArgument("unsigned long long", "ffffffffffffffff");
  ASSERT_TRUE(huge);
  EXPECT_FALSE(huge->isInteger());
  EXPECT_DOUBLE_EQ(huge->toDouble(), 18446744073709551615.0);
}

TEST(DecodeArgument, APointerIsWhetherItIsGiven) {
  EXPECT_EQ(decodeArgument("const float *", "0000a00b737f0000"), Number(int64_t{1}));
  EXPECT_EQ(decodeArgument("void *__restrict__", "0000000000000000"), Number(int64_t{0}));
  EXPECT_TRUE(isPointerType("const char *"));
  EXPECT_FALSE(isPointerType("int"));
  EXPECT_FALSE(isPointerType("float *&"));
}

TEST(DecodeArgument, RefusesWhatItCannotRead) {
  EXPECT_EQ(decodeArgument("const float &", "0000a00b737f0000"), std::nullopt);
  EXPECT_EQ(decodeArgument("const float *", "0000a00b"), std::nullopt); // a pointer is 8 bytes
  EXPECT_EQ(decodeArgument("float", "0000000000000040"), std::nullopt); // 8 bytes are not a float
  EXPECT_EQ(decodeArgument("double", "0000003f"), std::nullopt);
  EXPECT_EQ(decodeArgument("int", "000000"), std::nullopt);             // 3 bytes
  EXPECT_THROW(decodeArgument("int", "0020000"), Error);                // odd digits
  EXPECT_THROW(decodeArgument("int", "0020zz00"), Error);
}

TEST(ParseNumber, IntegersStayExact) {
  EXPECT_EQ(parseNumber("8192", "--arg n"), Number(int64_t{8192}));
  EXPECT_TRUE(parseNumber("8192", "--arg n").isInteger());
  EXPECT_EQ(parseNumber("-3", "x"), Number(int64_t{-3}));
  EXPECT_EQ(parseNumber("0.25", "x"), Number::real(0.25));
  EXPECT_EQ(parseNumber("1e3", "x"), Number::real(1000));
  EXPECT_THROW(parseNumber("", "x"), Error);
  EXPECT_THROW(parseNumber("12abc", "x"), Error);
  EXPECT_THROW(parseNumber("99999999999999999999", "x"), Error);
}

TEST(ParseDim3, MissingDimensionsAreOne) {
  EXPECT_EQ(parseDim3("256", "--block"), (Dim3{256, 1, 1}));
  EXPECT_EQ(parseDim3("32,8", "--block"), (Dim3{32, 8, 1}));
  EXPECT_EQ(parseDim3("4,4,2", "--grid"), (Dim3{4, 4, 2}));
  EXPECT_THROW(parseDim3("0,1", "--grid"), Error);
  EXPECT_THROW(parseDim3("1,2,3,4", "--grid"), Error);
  EXPECT_THROW(parseDim3("-1", "--grid"), Error);
}
