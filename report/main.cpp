// roofcheck-report: joins static, measured and ceilings documents into one model and renders it.
#include "Engine.h"
#include "Format.h"
#include "Inputs.h"
#include "Views.h"

#include "roofcheck/Bindings.h"
#include "roofcheck/ExitCode.h"
#include "roofcheck/Json.h"
#include "roofcheck/OptionReader.h"
#include "roofcheck/Version.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/ioctl.h>
#include <unistd.h>

using namespace roofcheck;
using namespace roofcheck::report;

namespace {

const char *const Usage =
    "usage: roofcheck report [options] FILE...\n"
    "\n"
    "Joins roofcheck.static/1 files (one or more), roofcheck.measured/2 JSON Lines (one or more, one per\n"
    "process; merged) and a roofcheck.ceilings/1 file into one roofline with every gap explained. Files are\n"
    "recognised by their schema. With static files only, shows the static estimate (no measurement).\n"
    "\n"
    "views:\n"
    "  (default)             table sorted by time share, explanations and a compact roofline on stdout\n"
    "  --json FILE           roofcheck.report/1\n"
    "  --markdown FILE       Markdown table and explanations\n"
    "  --svg FILE            the roofline as SVG\n"
    "  --html FILE           one self-contained HTML file: plot with hover details and tables\n"
    "  --quiet               no table on stdout\n"
    "  --top N               the terminal's table, details and plot show the N kernels with the most GPU time,\n"
    "                        the rest in one line; the SVG and HTML plots label those N (default 20; 0: all)\n"
    "  --full-names          full demangled names on stdout instead of short ones (never cut to the width)\n"
    "terminal: the table fits COLUMNS, else the terminal's width, else 120 columns; colours on a terminal\n"
    "unless NO_COLOR is set\n"
    "inputs (files may also be given plainly; each is recognised by its schema):\n"
    "  --static FILE...      roofcheck.static/1\n"
    "  --measured FILE...    roofcheck.measured/2 (or /1), one per process\n"
    "  --ceilings FILE...    roofcheck.ceilings/1, one per device (each rank under its own)\n"
    "static-only bindings:\n"
    "  --grid X[,Y[,Z]]      gridDim\n"
    "  --block X[,Y[,Z]]     blockDim\n"
    "  --arg [KERNEL:]NAME=VALUE  a kernel parameter, for every kernel that has it or for KERNEL only\n"
    "                        (repeatable)\n"
    "CI:\n"
    "  --fail-below FRACTION exit 1 when a kernel with time share >= --min-share reaches less than\n"
    "                        FRACTION of its roof\n"
    "  --min-share SHARE     default 0.05\n"
    "  --fail-on-mismatch    exit 1 when predicted and measured bound class disagree\n"
    "exit: 0 ok, 1 a --fail-* condition held, 2 bad input\n";

double parseFraction(const std::string &text, const std::string &option) {
  double v = parseNumber(text, option).toDouble();
  if (!(v >= 0 && v <= 1))
    throw Error(option + ": " + text + " must lie between 0 and 1");
  return v;
}

void writeText(const std::string &path, const std::string &text) { writeFileAtomically(path, text); }

/// The terminal's width (COLUMNS, else the tty's, else 120) and colour (a tty, and no NO_COLOR).
TextOptions terminalDefaults() {
  TextOptions o;
  bool tty = isatty(STDOUT_FILENO) == 1;
  winsize size{};
  if (const char *columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0)
    o.width = static_cast<size_t>(std::atoi(columns));
  else if (tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    o.width = size.ws_col;
  const char *noColor = std::getenv("NO_COLOR");
  o.colour = tty && !(noColor && *noColor);
  return o;
}

} // namespace

int main(int argc, char **argv) {
  return runGuarded("roofcheck-report", [&]() -> int {
    std::vector<InputPath> files;
    std::string jsonPath, markdownPath, svgPath, htmlPath;
    std::optional<double> failBelow;
    double minShare = 0.05;
    bool failOnMismatch = false, quiet = false;
    TextOptions text = terminalDefaults();
    StaticBindings bindings;
    OptionReader reader(std::vector<std::string>(argv + 1, argv + argc), "roofcheck report --help");
    while (reader.next()) {
      const std::string &a = reader.argument();
      if (a == "--help" || a == "-h") {
        std::fputs(Usage, stdout);
        return ExitSuccess;
      } else if (a == "--version") {
        std::printf("roofcheck-report %s (%s)\n", Version, GitRevision);
        return ExitSuccess;
      } else if (reader.is("--json")) {
        jsonPath = reader.value("--json");
      } else if (reader.is("--markdown")) {
        markdownPath = reader.value("--markdown");
      } else if (reader.is("--svg")) {
        svgPath = reader.value("--svg");
      } else if (reader.is("--html")) {
        htmlPath = reader.value("--html");
      } else if (a == "--quiet") {
        quiet = true;
      } else if (reader.is("--top")) {
        std::string v = reader.value("--top");
        Number n = parseNumber(v, "--top");
        if (!n.isInteger() || n.toDouble() < 0)
          throw Error("--top " + v + ": expected a count of kernels (0 for all)");
        text.top = static_cast<size_t>(n.toDouble());
      } else if (a == "--full-names") {
        text.fullNames = true;
      } else if (reader.is("--grid")) {
        bindings.grid = parseDim3(reader.value("--grid"), "--grid");
      } else if (reader.is("--block")) {
        bindings.block = parseDim3(reader.value("--block"), "--block");
      } else if (reader.is("--static") || reader.is("--measured") || reader.is("--ceilings")) {
        // One or more files, up to the next option.
        std::string name = a.substr(0, a.find('='));
        const char *schema = name == "--static" ? StaticSchema : name == "--measured" ? MeasuredSchema : CeilingsSchema;
        for (std::string &file : reader.values(name))
          files.push_back({std::move(file), schema});
      } else if (reader.is("--arg")) {
        std::string v = reader.value("--arg");
        size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0)
          throw Error("--arg \"" + v + "\": expected [KERNEL:]NAME=VALUE");
        std::string target = v.substr(0, eq);
        size_t colon = target.rfind(':');
        std::string kernel = colon == std::string::npos ? "" : target.substr(0, colon);
        std::string name = colon == std::string::npos ? target : target.substr(colon + 1);
        if (name.empty())
          throw Error("--arg \"" + v + "\": expected [KERNEL:]NAME=VALUE");
        bindings.args.push_back({kernel, name, parseNumber(v.substr(eq + 1), "--arg " + target)});
      } else if (reader.is("--fail-below")) {
        failBelow = parseFraction(reader.value("--fail-below"), "--fail-below");
      } else if (reader.is("--min-share")) {
        minShare = parseFraction(reader.value("--min-share"), "--min-share");
      } else if (a == "--fail-on-mismatch") {
        failOnMismatch = true;
      } else if (a.size() > 1 && a[0] == '-') {
        reader.rejectUnknown();
      } else {
        files.push_back({a, ""});
      }
    }
    if (files.empty())
      throw Error("no input files: give roofcheck.static/1, roofcheck.measured/2 and roofcheck.ceilings/1 files "
                  "(see --help)");

    Inputs inputs = loadInputs(files);
    Model model = buildModel(inputs, bindings);
    const ReportDocument &doc = model.document;
    if (failBelow && (doc.mode != "measured" || doc.ceilings.empty()))
      throw Error("--fail-below needs measured files and a ceilings file: a fraction of roof needs both");
    if (failOnMismatch && (doc.mode != "measured" || doc.ceilings.empty()))
      throw Error("--fail-on-mismatch needs measured files and a ceilings file: a bound class needs both");

    for (const std::string &w : model.warnings)
      std::fprintf(stderr, "roofcheck-report: warning: %s\n", w.c_str());
    // Render everything before writing anything, so a failure leaves no partial set of outputs.
    std::vector<std::pair<std::string, std::string>> outputs;
    if (!jsonPath.empty())
      outputs.emplace_back(jsonPath, toJson(doc).dump(2) + "\n");
    if (!markdownPath.empty())
      outputs.emplace_back(markdownPath, renderMarkdown(doc));
    if (!svgPath.empty())
      outputs.emplace_back(svgPath, renderSvg(doc, text.top));
    if (!htmlPath.empty())
      outputs.emplace_back(htmlPath, renderHtml(doc, text.top));
    for (const auto &[path, text] : outputs)
      writeText(path, text);
    if (!quiet)
      std::fputs(renderText(doc, text).c_str(), stdout);

    int status = ExitSuccess;
    // A kernel the gate cannot judge (no fraction of roof, no bound on one side) neither passes nor fails
    // it: the gate says which, so that a green run is not read as "every kernel checked".
    std::vector<std::string> unjudged;
    for (const ReportKernel &k : doc.kernels) {
      if ((failBelow && k.timeShare >= minShare && !k.fractionOfRoof) ||
          (failOnMismatch && (!k.boundPredicted || !k.boundMeasured)))
        unjudged.push_back(k.name);
      if (failBelow && k.timeShare >= minShare && k.fractionOfRoof && *k.fractionOfRoof < *failBelow) {
        std::fprintf(stderr, "roofcheck-report: %s reached %s of its roof (below %s) with %s of GPU time\n",
                     k.name.c_str(), percent(*k.fractionOfRoof).c_str(), percent(*failBelow).c_str(),
                     percent(k.timeShare).c_str());
        status = ExitFindings;
      }
      if (failOnMismatch && k.boundPredicted && k.boundMeasured && *k.boundPredicted != *k.boundMeasured) {
        std::fprintf(stderr, "roofcheck-report: %s is predicted %s-bound but measured %s-bound\n", k.name.c_str(),
                     k.boundPredicted->c_str(), k.boundMeasured->c_str());
        status = ExitFindings;
      }
    }
    if (!unjudged.empty()) {
      std::string names;
      for (size_t i = 0; i < unjudged.size() && i < 5; ++i)
        names += (i ? ", " : "") + unjudged[i];
      if (unjudged.size() > 5)
        names += ", ...";
      std::fprintf(stderr, "roofcheck-report: note: the gate could not judge %zu kernels (no fraction of roof or no "
                   "bound class: %s)\n", unjudged.size(), names.c_str());
    }
    return status;
  });
}
