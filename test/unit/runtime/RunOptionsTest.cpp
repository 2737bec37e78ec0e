#include "RunOptions.h"

#include "roofcheck/Error.h"

#include <gtest/gtest.h>

using namespace roofcheck;
using namespace roofcheck::runtime;

namespace {
std::string errorOf(const std::vector<std::string> &args) {
  try {
    parseRunCommandLine(args);
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}
} // namespace

TEST(RunOptions, DefaultsAndProgramAfterDoubleDash) {
  RunCommandLine line = parseRunCommandLine({"--", "./app", "--kernel", "x"});
  EXPECT_EQ(line.program, (std::vector<std::string>{"./app", "--kernel", "x"}));
  EXPECT_EQ(line.options.samplesPerSignature, 3);
  EXPECT_EQ(line.options.launchSkip, 0);
  EXPECT_FALSE(line.options.launchCount);
  EXPECT_EQ(line.options.metricsMode, MetricsMode::Default);
  EXPECT_EQ(line.options.outputDir, ".");
  EXPECT_TRUE(line.options.trafficSet);
  EXPECT_EQ(line.options.sampledTrafficIntervalNs, 0);
}

TEST(RunOptions, EveryOptionParsed) {
  RunCommandLine line = parseRunCommandLine({"--kernel", "matmul_.*", "--launch-skip", "2", "--launch-count=5",
                                             "--samples", "0", "--metrics", "dram__bytes_read.sum,lts__t_bytes.sum",
                                             "--output-dir", "/tmp", "--traffic-set=off", "./app", "arg"});
  EXPECT_EQ(line.options.kernelRegex, "matmul_.*");
  EXPECT_EQ(line.options.launchSkip, 2);
  EXPECT_EQ(line.options.launchCount, 5);
  EXPECT_EQ(line.options.samplesPerSignature, 0);
  EXPECT_EQ(line.options.metricsMode, MetricsMode::List);
  EXPECT_EQ(line.options.metrics, (std::vector<std::string>{"dram__bytes_read.sum", "lts__t_bytes.sum"}));
  EXPECT_EQ(line.options.outputDir, "/tmp");
  EXPECT_FALSE(line.options.trafficSet);
  EXPECT_TRUE(parseRunCommandLine({"--traffic-set", "on", "./app"}).options.trafficSet);
  EXPECT_EQ(line.program, (std::vector<std::string>{"./app", "arg"}));
}

TEST(RunOptions, MetricsTimeAndHelp) {
  EXPECT_EQ(parseRunCommandLine({"--metrics", "time", "x"}).options.metricsMode, MetricsMode::Time);
  // Sampled traffic: with durations only, in either order.
  EXPECT_EQ(parseRunCommandLine({"--metrics", "time", "x"}).options.sampledTrafficIntervalNs, 0);
  EXPECT_EQ(parseRunCommandLine({"--sampled-traffic", "5", "--metrics", "time", "x"}).options.sampledTrafficIntervalNs,
            5000);
  EXPECT_EQ(parseRunCommandLine({"--metrics=time", "--sampled-traffic=20", "x"}).options.sampledTrafficIntervalNs,
            20000);
  EXPECT_EQ(parseRunCommandLine({"--metrics=time", "--sampled-traffic=off", "x"}).options.sampledTrafficIntervalNs, 0);
  EXPECT_TRUE(parseRunCommandLine({"--help"}).help);
  EXPECT_TRUE(parseRunCommandLine({"--version"}).version);
}

TEST(RunOptions, BadInputNamesTheProblem) {
  EXPECT_NE(errorOf({}).find("no program to run"), std::string::npos);
  EXPECT_NE(errorOf({"--samples", "3"}).find("no program to run"), std::string::npos);
  EXPECT_NE(errorOf({"--frobnicate", "./app"}).find("unknown option '--frobnicate'"), std::string::npos);
  EXPECT_NE(errorOf({"--launch-skip"}).find("--launch-skip needs a value"), std::string::npos);
  EXPECT_NE(errorOf({"--launch-count", "-1", "./app"}).find("non-negative integer, got '-1'"), std::string::npos);
  EXPECT_NE(errorOf({"--samples", "3x", "./app"}).find("got '3x'"), std::string::npos);
  EXPECT_NE(errorOf({"--kernel", "(", "./app"}).find("not a valid regular expression"), std::string::npos);
  EXPECT_NE(errorOf({"--metrics", "a,,b", "./app"}).find("empty metric name"), std::string::npos);
  EXPECT_NE(errorOf({"--metrics", "dram bytes", "./app"}).find("is not a metric name"), std::string::npos);
  EXPECT_EQ(errorOf({"--traffic-set", "yes", "./app"}), "option --traffic-set needs on or off, got 'yes'");
  EXPECT_EQ(errorOf({"--sampled-traffic", "10", "./app"}),
            "option --sampled-traffic needs --metrics time: PM sampling and the range profiler that counts the "
            "other metrics cannot hold the GPU's counters at once");
  for (const char *bad : {"0", "1000001", "10us", "-5", "on"})
    EXPECT_EQ(errorOf({"--metrics", "time", "--sampled-traffic", bad, "./app"}),
              std::string("option --sampled-traffic needs off or an interval of 1 to 1000000 microseconds, got '") +
                  bad + "'");
}

TEST(RunOptions, JsonRoundTrip) {
  RunOptions o;
  o.kernelRegex = "k";
  o.launchSkip = 4;
  o.launchCount = 9;
  o.samplesPerSignature = 1;
  o.metricsMode = MetricsMode::List;
  o.metrics = {"gpu__time_duration.sum"};
  o.outputDir = "/out";
  o.session = "12-34";
  o.trafficSet = false;
  o.sampledTrafficIntervalNs = 20000;
  RunOptions back = runOptionsFromJson(toJson(o).dump());
  EXPECT_EQ(back.kernelRegex, "k");
  EXPECT_EQ(back.launchSkip, 4);
  EXPECT_EQ(back.launchCount, 9);
  EXPECT_EQ(back.samplesPerSignature, 1);
  EXPECT_EQ(back.metricsMode, MetricsMode::List);
  EXPECT_EQ(back.metrics, o.metrics);
  EXPECT_EQ(back.outputDir, "/out");
  EXPECT_EQ(back.session, "12-34");
  EXPECT_FALSE(back.trafficSet);
  EXPECT_EQ(back.sampledTrafficIntervalNs, 20000);
  EXPECT_FALSE(runOptionsFromJson(toJson(RunOptions{}).dump()).launchCount);
}

TEST(RunOptions, BadJsonIsAnError) {
  EXPECT_THROW(runOptionsFromJson("{"), Error);
  EXPECT_THROW(runOptionsFromJson("[]"), Error);
  Json j = toJson(RunOptions{});
  j["metrics"] = "sometimes";
  EXPECT_THROW(runOptionsFromJson(j.dump()), Error);
  j = toJson(RunOptions{});
  j.erase("samples");
  try {
    runOptionsFromJson(j.dump());
    FAIL();
  } catch (const Error &e) {
    EXPECT_NE(std::string(e.what()).find("samples"), std::string::npos);
  }
}

TEST(RunOptions, DefaultMetricsHoldTheFlopAndByteCounters) {
  const auto &m = defaultMetrics();
  for (const char *name : {"dram__bytes_read.sum", "dram__bytes_write.sum", "gpu__time_duration.sum", "lts__t_bytes.sum",
                           "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                           "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
                           "smsp__sass_thread_inst_executed_op_hfma_pred_on.sum"})
    EXPECT_NE(std::find(m.begin(), m.end(), name), m.end()) << name;
  // The traffic set is what one pass can count without replay: no instruction counters.
  for (const std::string &name : trafficMetrics())
    EXPECT_EQ(name.find("sass"), std::string::npos) << name;
  EXPECT_EQ(trafficMetrics().size(), 4u);
}

TEST(RunOptions, ReportWithStaticFilesAndCeilings) {
  RunCommandLine line = parseRunCommandLine(
      {"--report", "--static", "a.static.json", "b.static.json", "--ceilings", "h200.json", "--", "./app", "x"});
  EXPECT_TRUE(line.report.wanted);
  EXPECT_EQ(line.report.staticFiles, (std::vector<std::string>{"a.static.json", "b.static.json"}));
  EXPECT_EQ(line.report.ceilings, "h200.json");
  EXPECT_EQ(line.program, (std::vector<std::string>{"./app", "x"}));
  // The static list ends at the next option; the report needs neither list.
  line = parseRunCommandLine({"--static", "s.json", "--report", "--samples", "1", "./app"});
  EXPECT_EQ(line.report.staticFiles, (std::vector<std::string>{"s.json"}));
  EXPECT_EQ(line.options.samplesPerSignature, 1);
  EXPECT_TRUE(parseRunCommandLine({"--report", "./app"}).report.wanted);
  EXPECT_FALSE(parseRunCommandLine({"./app", "--report"}).report.wanted); // the program's own argument
}

TEST(RunOptions, ReportInputsNeedReport) {
  EXPECT_NE(errorOf({"--static", "s.json", "--", "./app"}).find("--static is for the report: add --report"),
            std::string::npos);
  EXPECT_NE(errorOf({"--ceilings", "c.json", "./app"}).find("--ceilings is for the report"), std::string::npos);
  EXPECT_NE(errorOf({"--report", "--static", "--", "./app"}).find("--static needs a value (see roofcheck run --help)"), std::string::npos);
  EXPECT_NE(errorOf({"--report", "--ceilings"}).find("--ceilings needs a value"), std::string::npos);
}
