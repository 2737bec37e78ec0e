#include "Inputs.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace roofcheck::report {

namespace {

const char *const Accepted =
    "roofcheck report reads roofcheck.static/1, roofcheck.measured/2 (and /1) and roofcheck.ceilings/1";

/// The schema a file declares: measured files are JSON Lines whose first record carries it; the other
/// documents are one JSON value, usually spread over many lines.
std::string declaredSchema(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path + ": cannot open: " + std::strerror(errno));
  std::string line;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos)
      break;
  if (line.find_first_not_of(" \t\r") == std::string::npos)
    throw Error(path + ": empty file, expected a roofcheck document (" + Accepted + ")");
  Json first = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  // A first line that is a whole document with a schema: a JSON Lines header (of any version: a measured/3
  // file is named as such, not reported as invalid JSON on its second line) or a one-line document. Both
  // measured versions are one kind of input.
  if (first.is_object() && first.contains("schema") && first["schema"].is_string()) {
    std::string schema = first["schema"].get<std::string>();
    return schema == MeasuredSchemaFirst ? MeasuredSchema : schema;
  }
  Json whole = readJsonFile(path);
  if (!whole.is_object() || !whole.contains("schema"))
    throw Error(path + ": no \"schema\" field: not a roofcheck document (" + Accepted + ")");
  if (!whole["schema"].is_string())
    throw Error(path + ": \"schema\" must be a string");
  return whole["schema"].get<std::string>();
}

} // namespace

Inputs loadInputs(const std::vector<InputPath> &paths) {
  Inputs inputs;
  for (const auto &[path, expected] : paths) {
    inputs.paths.push_back(path);
    std::string schema = declaredSchema(path);
    if (!expected.empty() && schema != expected)
      throw Error(path + ": is a " + schema + " document, given where a " + expected + " document belongs");
    if (schema == StaticSchema) {
      inputs.statics.push_back({path, loadStaticFile(path)});
      if (inputs.statics.back().document.kernels.empty())
        inputs.warnings.push_back(path + ": no kernels in this static file");
    } else if (schema == MeasuredSchema) {
      inputs.measured.push_back({path, MeasuredReader(path).header()});
    } else if (schema == CeilingsSchema) {
      if (inputs.ceilings)
        throw Error(path + ": a second ceilings file (the first was " + inputs.ceilings->path +
                    "): give the one measured on the device of the run");
      inputs.ceilings = CeilingsInput{path, loadCeilingsFile(path)};
      if (!inputs.ceilings->document.bestMemory("dram"))
        throw Error(path + ": no DRAM memory ceiling: the roofline needs one (re-run roofcheck probe)");
    } else if (schema == ReportSchema) {
      throw Error(path + ": is a roofcheck.report/1 document (an output of roofcheck report), not an input");
    } else {
      throw Error(path + ": schema is \"" + schema + "\"; " + Accepted);
    }
  }
  if (inputs.statics.empty() && inputs.measured.empty())
    throw Error("no static or measured file among the inputs: give roofcheck.static/1 and/or "
                "roofcheck.measured/2 files (ceilings alone draw no dot)");
  return inputs;
}

} // namespace roofcheck::report
