#include "roofcheck/OptionReader.h"

#include "roofcheck/Error.h"

#include <gtest/gtest.h>

using roofcheck::Error;
using roofcheck::OptionReader;

TEST(OptionReader, ValuesFollowTheOptionOrItsEqualsSign) {
  OptionReader r({"--out", "a.json", "--only=dram,l2", "-q", "x"});
  ASSERT_TRUE(r.next());
  ASSERT_TRUE(r.is("--out"));
  EXPECT_EQ(r.value("--out"), "a.json");
  ASSERT_TRUE(r.next());
  EXPECT_FALSE(r.is("--out"));
  EXPECT_FALSE(r.is("--on")); // a prefix of the name is another option
  ASSERT_TRUE(r.is("--only"));
  EXPECT_EQ(r.value("--only"), "dram,l2");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.argument(), "-q");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.argument(), "x");
  EXPECT_FALSE(r.next());
  EXPECT_FALSE(r.next());
}

TEST(OptionReader, AnEmptyValueAfterEqualsIsAValue) {
  OptionReader r({"--out="});
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.value("--out"), "");
}

TEST(OptionReader, AMissingValueNamesTheOptionAndTheHelp) {
  OptionReader r({"--samples"}, "roofcheck run --help");
  ASSERT_TRUE(r.next());
  try {
    r.value("--samples");
    FAIL();
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "--samples needs a value (see roofcheck run --help)");
  }
}

TEST(OptionReader, ListsStopAtTheNextOptionAndRestTakesEverything) {
  OptionReader r({"--static", "a.json", "b.json", "--measured=c.jsonl", "d.jsonl", "--report", "--", "./app", "-x"});
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.values("--static"), (std::vector<std::string>{"a.json", "b.json"}));
  ASSERT_TRUE(r.next());
  ASSERT_TRUE(r.is("--measured"));
  EXPECT_EQ(r.values("--measured"), (std::vector<std::string>{"c.jsonl", "d.jsonl"})) << "NAME=A B as NAME A B";
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.argument(), "--report");
  ASSERT_TRUE(r.next());
  EXPECT_EQ(r.argument(), "--");
  EXPECT_EQ(r.rest(), (std::vector<std::string>{"./app", "-x"}));
  EXPECT_FALSE(r.next());
}

TEST(OptionReader, AnEmptyListAndAnUnknownOptionAreOneWordingForEveryTool) {
  OptionReader r({"--static", "--bogus"}, "roofcheck report --help");
  ASSERT_TRUE(r.next());
  try {
    r.values("--static");
    FAIL();
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "--static needs a value (see roofcheck report --help)");
  }
  ASSERT_TRUE(r.next());
  try {
    r.rejectUnknown();
    FAIL();
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(), "unknown option '--bogus' (see roofcheck report --help)");
  }
}
