#include "ArgumentDecoder.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/MeasuredRecords.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace roofcheck;
using namespace roofcheck::runtime;

TEST(ArgumentDecoder, HexIsMemoryOrder) {
  int32_t ten = 10;
  EXPECT_EQ(hexBytes(reinterpret_cast<uint8_t *>(&ten), 4), "0a000000");
  EXPECT_EQ(hexBytes(nullptr, 0), "");
}

TEST(ArgumentDecoder, ValuesAreSignExtended) {
  uint8_t minusOne[8];
  std::memset(minusOne, 0xff, sizeof minusOne);
  EXPECT_EQ(littleEndianValue(minusOne, 1), -1);
  EXPECT_EQ(littleEndianValue(minusOne, 2), -1);
  EXPECT_EQ(littleEndianValue(minusOne, 4), -1);
  EXPECT_EQ(littleEndianValue(minusOne, 8), -1);
  uint8_t big[8] = {0x00, 0x00, 0x00, 0x80, 0, 0, 0, 0}; // 2^31 as 8 bytes, INT_MIN as 4
  EXPECT_EQ(littleEndianValue(big, 8), int64_t(1) << 31);
  EXPECT_EQ(littleEndianValue(big, 4), INT32_MIN);
  EXPECT_FALSE(littleEndianValue(big, 3));
  EXPECT_FALSE(littleEndianValue(big, 16));
}

namespace {
// kernelParams as the shim handles them: packed in the launch callback, decoded later.
std::vector<KernelArgument> decodeArguments(const std::vector<ParamLayout> &layouts, const void *const *values,
                                            const std::vector<ParamKind> &kinds) {
  std::vector<uint8_t> packed = packArguments(layouts, values);
  return decodeArgumentBuffer(layouts, packed.data(), packed.size(), kinds);
}
} // namespace

// The layout nvcc gives `k(float *p, int n, short s, double d)`: offsets 0, 8, 12, 16.
TEST(ArgumentDecoder, KernelParamsDecodedByLayout) {
  std::vector<ParamLayout> layout = {{0, 8}, {8, 4}, {12, 2}, {16, 8}};
  float *p = reinterpret_cast<float *>(0x7f0000001000);
  int n = 1 << 20;
  short s = -3;
  double d = 1.5;
  const void *values[] = {&p, &n, &s, &d};
  auto args = decodeArguments(layout, values,
                              {ParamKind::Pointer, ParamKind::Scalar, ParamKind::Scalar, ParamKind::Scalar});
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[0].hex, "00100000007f0000");
  EXPECT_FALSE(args[0].value); // a pointer keeps its bytes, not a value
  EXPECT_EQ(args[1].value, 1048576);
  EXPECT_EQ(args[1].offset, 8);
  EXPECT_EQ(args[1].size, 4);
  EXPECT_EQ(args[2].value, -3);
  EXPECT_EQ(args[2].hex, "fdff");
  EXPECT_EQ(args[3].hex, "000000000000f83f"); // 1.5 as IEEE double
  EXPECT_EQ(args[3].index, 3);
}

TEST(ArgumentDecoder, UnknownEightByteParameterKeepsItsValue) {
  int64_t count = 123456789012;
  const void *values[] = {&count};
  auto args = decodeArguments({{0, 8}}, values, {});
  ASSERT_EQ(args.size(), 1u);
  EXPECT_EQ(args[0].value, 123456789012);
}

TEST(ArgumentDecoder, OddSizedStructHasHexOnly) {
  struct Three {
    uint8_t a, b, c;
  } three{1, 2, 3};
  const void *values[] = {&three};
  auto args = decodeArguments({{0, 3}}, values, {ParamKind::Scalar});
  ASSERT_EQ(args.size(), 1u);
  EXPECT_EQ(args[0].hex, "010203");
  EXPECT_FALSE(args[0].value);
}

TEST(ArgumentDecoder, LargeStructReachesTheFileThroughAnArgumentRecord) {
  // A parameter block as CUTLASS's Params, 88 bytes: its whole bytes, which the writer puts in an argument
  // record once and the reader gives back to every launch that names it.
  struct Params {
    const float *in;
    float *out;
    int32_t rows, cols;
    int64_t reserved[8];
  } params{nullptr, nullptr, 1000, 512, {}};
  static_assert(sizeof(Params) == 88);
  const void *values[] = {&params};
  std::vector<KernelArgument> args = decodeArguments({{0, 88}}, values, {ParamKind::Scalar});
  ASSERT_EQ(args.size(), 1u);
  EXPECT_EQ(args[0].hex.substr(32, 16), "e803000000020000");
  Launch l;
  l.name = "gemm(Params)";
  l.mangled = "_Z4gemm6Params";
  l.args = args;
  MeasuredRecordWriter writer;
  std::string text;
  writer.append(text, l);
  l.index = 1;
  writer.append(text, l);
  MeasuredHeader header;
  MeasuredFile file = parseMeasuredLines(toJson(header).dump() + "\n" + text, "m.jsonl");
  ASSERT_EQ(file.launches.size(), 2u);
  EXPECT_EQ(file.launches[1].args, args);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4) << text; // kernel, argument, two launches
}

TEST(ArgumentDecoder, NoParamsPointerGivesNoArguments) {
  EXPECT_TRUE(packArguments({{0, 4}}, nullptr).empty());
  EXPECT_TRUE(decodeArguments({{0, 4}}, nullptr, {}).empty());
}

TEST(ArgumentDecoder, PackingPutsEachValueAtItsOffset) {
  int n = 0x01020304;
  char c = 9;
  const void *values[] = {&c, &n, nullptr};
  std::vector<uint8_t> packed = packArguments({{0, 1}, {4, 4}, {8, 2}}, values);
  // The gap after the char stays zero; a null value too.
  EXPECT_EQ(hexBytes(packed.data(), packed.size()), "09000000" "04030201" "0000");
}

TEST(ArgumentDecoder, PackedBufferUsesOffsetsAndSkipsWhatDoesNotFit) {
  alignas(8) uint8_t buffer[16] = {};
  int value = 7;
  short small = 8;
  std::memcpy(buffer + 8, &value, 4);
  std::memcpy(buffer + 12, &small, 2);
  auto args = decodeArgumentBuffer({{0, 8}, {8, 4}, {12, 2}, {16, 8}}, buffer, sizeof buffer,
                                   {ParamKind::Pointer, ParamKind::Scalar, ParamKind::Scalar, ParamKind::Scalar});
  ASSERT_EQ(args.size(), 3u); // the double at 16 lies past the 16-byte buffer
  EXPECT_EQ(args[1].value, 7);
  EXPECT_EQ(args[2].value, 8);
  EXPECT_TRUE(decodeArgumentBuffer({{0, 4}}, nullptr, 0, {}).empty());
}
