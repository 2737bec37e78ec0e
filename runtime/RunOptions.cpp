#include "RunOptions.h"

#include "roofcheck/Error.h"
#include "roofcheck/Metrics.h"
#include "roofcheck/OptionReader.h"

#include <cctype>
#include <charconv>
#include <regex>

namespace roofcheck::runtime {

namespace {

int64_t parseCount(const std::string &option, const std::string &text) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0)
    throw Error("option " + option + " needs a non-negative integer, got '" + text + "'");
  return value;
}

std::vector<std::string> splitMetricList(const std::string &text) {
  std::vector<std::string> names;
  size_t start = 0;
  while (start <= text.size()) {
    size_t comma = text.find(',', start);
    std::string name = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (name.empty())
      throw Error("option --metrics: empty metric name in '" + text + "' (give time, default or NAME[,NAME...])");
    for (char c : name)
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'))
        throw Error("option --metrics: '" + name + "' is not a metric name (letters, digits, '_' and '.')");
    names.push_back(name);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return names;
}

} // namespace

std::string runUsage() {
  return "usage: roofcheck run [options] [--] PROGRAM [ARGS...]\n"
         "\n"
         "Runs PROGRAM unchanged with the roofcheck CUPTI shim injected and writes one\n"
         "roofcheck.measured/2 JSON Lines file per process: every kernel launch with its\n"
         "configuration, scalar arguments and duration, and hardware counters for sampled launches.\n"
         "\n"
         "options:\n"
         "  --kernel REGEX      record only kernels whose name matches REGEX (ECMAScript, searched in\n"
         "                      the demangled and the mangled name)\n"
         "  --launch-skip N     pass over the first N matching launches\n"
         "  --launch-count N    record at most N matching launches after the skipped ones\n"
         "  --samples N         collect counters for N launches of each (kernel, grid, block), its first\n"
         "                      ones; 0 profiles every recorded launch (default 3)\n"
         "  --metrics WHAT      time (durations only, no replay), default, or a comma-separated list of\n"
         "                      Nsight Compute metric names\n"
         "  --traffic-set on|off  on (default): where the metrics need kernel replay, a signature's\n"
         "                      samples after its first count only time, DRAM and L2 bytes, in one pass,\n"
         "                      so replay's own memory traffic is not in their DRAM bytes; such a sample\n"
         "                      skips the launch right after a replayed one\n"
         "  --sampled-traffic US|off  with --metrics time: DRAM bytes of every launch from PM\n"
         "                      sampling, the device's counters read every US microseconds of GPU\n"
         "                      time, each launch given its share (default off)\n"
         "  --output-dir DIR    where the measured files go (default: the current directory)\n"
         "  --report            after PROGRAM, run roofcheck report on the measured files it wrote\n"
         "  --static FILE...    with --report: roofcheck.static/1 files (end the list with --)\n"
         "  --ceilings FILE     with --report: a roofcheck.ceilings/1 file\n"
         "  --help              show this text\n"
         "  --version           show the version\n"
         "\n"
         "PROGRAM's standard streams, signals and exit code pass through unchanged; the summary line\n"
         "goes to standard error. With --report the report follows on standard output; a report that\n"
         "fails is a warning and the exit code is still PROGRAM's.\n";
}

const std::vector<std::string> &defaultMetrics() {
  static const std::vector<std::string> metrics = [] {
    std::vector<std::string> names = trafficMetrics();
    for (const char *op : {"fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma"})
      names.push_back(metrics::sassInstructions(op));
    return names;
  }();
  return metrics;
}

const std::vector<std::string> &trafficMetrics() {
  static const std::vector<std::string> metrics = {metrics::Duration, metrics::DramRead, metrics::DramWrite,
                                                   metrics::L2Bytes};
  return metrics;
}

std::string metricsModeName(MetricsMode mode) {
  switch (mode) {
  case MetricsMode::Time:
    return "time";
  case MetricsMode::Default:
    return "default";
  case MetricsMode::List:
    return "list";
  }
  return "default";
}

RunCommandLine parseRunCommandLine(const std::vector<std::string> &args) {
  RunCommandLine line;
  OptionReader reader(args, "roofcheck run --help");
  while (reader.next()) {
    const std::string &arg = reader.argument();
    if (arg == "--") {
      line.program = reader.rest();
      break;
    }
    if (arg == "--help" || arg == "-h") {
      line.help = true;
      return line;
    }
    if (arg == "--version") {
      line.version = true;
      return line;
    }
    if (reader.is("--kernel")) {
      line.options.kernelRegex = reader.value("--kernel");
      try {
        std::regex check(line.options.kernelRegex, std::regex::ECMAScript);
      } catch (const std::regex_error &e) {
        throw Error("option --kernel: '" + line.options.kernelRegex + "' is not a valid regular expression (" +
                    e.what() + ")");
      }
    } else if (reader.is("--launch-skip")) {
      line.options.launchSkip = parseCount("--launch-skip", reader.value("--launch-skip"));
    } else if (reader.is("--launch-count")) {
      line.options.launchCount = parseCount("--launch-count", reader.value("--launch-count"));
    } else if (reader.is("--samples")) {
      line.options.samplesPerSignature = parseCount("--samples", reader.value("--samples"));
    } else if (reader.is("--metrics")) {
      std::string what = reader.value("--metrics");
      if (what == "time") {
        line.options.metricsMode = MetricsMode::Time;
      } else if (what == "default") {
        line.options.metricsMode = MetricsMode::Default;
      } else {
        line.options.metricsMode = MetricsMode::List;
        line.options.metrics = splitMetricList(what);
      }
    } else if (reader.is("--traffic-set")) {
      std::string what = reader.value("--traffic-set");
      if (what != "on" && what != "off")
        throw Error("option --traffic-set needs on or off, got '" + what + "'");
      line.options.trafficSet = what == "on";
    } else if (reader.is("--sampled-traffic")) {
      std::string what = reader.value("--sampled-traffic");
      int64_t us = 0;
      if (what != "off") {
        auto [end, ec] = std::from_chars(what.data(), what.data() + what.size(), us);
        if (ec != std::errc() || end != what.data() + what.size() || us < 1 || us > 1000000)
          throw Error("option --sampled-traffic needs off or an interval of 1 to 1000000 microseconds, got '" +
                      what + "'");
      }
      line.options.sampledTrafficIntervalNs = us * 1000;
    } else if (reader.is("--output-dir")) {
      line.options.outputDir = reader.value("--output-dir");
      if (line.options.outputDir.empty())
        throw Error("option --output-dir needs a directory");
    } else if (arg == "--report") {
      line.report.wanted = true;
    } else if (reader.is("--static")) {
      // One or more files, up to the next option (or "--").
      std::vector<std::string> files = reader.values("--static");
      line.report.staticFiles.insert(line.report.staticFiles.end(), files.begin(), files.end());
    } else if (reader.is("--ceilings")) {
      line.report.ceilings = reader.value("--ceilings");
      if (line.report.ceilings->empty())
        throw Error("option --ceilings needs a file");
    } else if (arg.size() > 1 && arg[0] == '-') {
      reader.rejectUnknown();
    } else {
      line.program.push_back(arg);
      for (std::string &rest : reader.rest())
        line.program.push_back(std::move(rest));
      break;
    }
  }
  if (line.options.sampledTrafficIntervalNs > 0 && line.options.metricsMode != MetricsMode::Time)
    throw Error("option --sampled-traffic needs --metrics time: PM sampling and the range profiler that counts "
                "the other metrics cannot hold the GPU's counters at once");
  if (!line.report.wanted && (!line.report.staticFiles.empty() || line.report.ceilings))
    throw Error(std::string("option ") + (line.report.ceilings ? "--ceilings" : "--static") +
                " is for the report: add --report");
  if (line.program.empty())
    throw Error("no program to run: give one after the options, e.g. roofcheck run -- ./app ARGS");
  return line;
}

Json toJson(const RunOptions &o) {
  return Json{{"kernel", o.kernelRegex},
              {"launch_skip", o.launchSkip},
              {"launch_count", o.launchCount ? Json(*o.launchCount) : Json(nullptr)},
              {"samples", o.samplesPerSignature},
              {"metrics", metricsModeName(o.metricsMode)},
              {"metric_list", o.metrics},
              {"traffic_set", o.trafficSet},
              {"sampled_traffic_interval_ns", o.sampledTrafficIntervalNs},
              {"output_dir", o.outputDir},
              {"session", o.session}};
}

RunOptions runOptionsFromJson(const std::string &text) {
  Json json;
  try {
    json = Json::parse(text);
  } catch (const Json::parse_error &) {
    throw Error("ROOFCHECK_OPTIONS: not JSON");
  }
  if (!json.is_object())
    throw Error("ROOFCHECK_OPTIONS: not a JSON object");
  FieldReader r(json, "ROOFCHECK_OPTIONS");
  RunOptions o;
  o.kernelRegex = r.string("kernel");
  o.launchSkip = r.integer("launch_skip");
  o.launchCount = r.optionalInteger("launch_count");
  o.samplesPerSignature = r.integer("samples");
  if (o.launchSkip < 0 || o.samplesPerSignature < 0 || (o.launchCount && *o.launchCount < 0))
    r.fail("samples", "counts must not be negative");
  std::string mode = r.string("metrics");
  if (mode == "time")
    o.metricsMode = MetricsMode::Time;
  else if (mode == "default")
    o.metricsMode = MetricsMode::Default;
  else if (mode == "list")
    o.metricsMode = MetricsMode::List;
  else
    r.fail("metrics", "must be time, default or list");
  for (const Json &name : r.raw("metric_list")) {
    if (!name.is_string())
      r.fail("metric_list", "must be an array of strings");
    o.metrics.push_back(name.get<std::string>());
  }
  o.trafficSet = r.boolean("traffic_set");
  o.sampledTrafficIntervalNs = r.integer("sampled_traffic_interval_ns");
  if (o.sampledTrafficIntervalNs < 0)
    r.fail("sampled_traffic_interval_ns", "must not be negative");
  o.outputDir = r.string("output_dir");
  o.session = r.string("session");
  return o;
}

} // namespace roofcheck::runtime
