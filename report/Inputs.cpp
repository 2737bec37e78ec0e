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
  // file is named as such, not reported as invalid JSON on its second line) or a one-line document.
  if (first.is_object() && first.contains("schema") && first["schema"].is_string())
    return first["schema"].get<std::string>();
  Json whole = readJsonFile(path);
  if (!whole.is_object() || !whole.contains("schema"))
    throw Error(path + ": no \"schema\" field: not a roofcheck document (" + Accepted + ")");
  if (!whole["schema"].is_string())
    throw Error(path + ": \"schema\" must be a string");
  return whole["schema"].get<std::string>();
}

} // namespace

bool sameDevice(const DeviceInfo &a, const DeviceInfo &b) {
  return !a.uuid.empty() && !b.uuid.empty() ? a.uuid == b.uuid : a.name == b.name;
}

std::string describeDevice(const DeviceInfo &device) {
  return device.name + " " + (device.uuid.empty() ? "(no uuid)" : device.uuid);
}

const CeilingsInput *Inputs::ceilingsOf(const DeviceInfo &device) const {
  for (const CeilingsInput &c : ceilings)
    if (sameDevice(c.document.device, device))
      return &c;
  return nullptr;
}

Inputs loadInputs(const std::vector<InputPath> &paths) {
  Inputs inputs;
  for (const auto &[path, expected] : paths) {
    inputs.paths.push_back(path);
    std::string declared = declaredSchema(path);
    // Both measured versions are one kind of input.
    std::string schema = declared == MeasuredSchemaFirst ? MeasuredSchema : declared;
    if (!expected.empty() && schema != expected)
      throw Error(path + ": is a " + declared + " document, given where a " + expected + " document belongs");
    if (schema == StaticSchema) {
      inputs.statics.push_back({path, loadStaticFile(path)});
      if (inputs.statics.back().document.kernels.empty())
        inputs.warnings.push_back(path + ": no kernels in this static file");
    } else if (schema == MeasuredSchema) {
      inputs.measured.push_back({path, MeasuredReader(path).header()});
    } else if (schema == CeilingsSchema) {
      CeilingsInput ceilings{path, loadCeilingsFile(path)};
      if (const CeilingsInput *same = inputs.ceilingsOf(ceilings.document.device))
        throw Error(path + ": a second ceilings file for device " + describeDevice(ceilings.document.device) +
                    " (the first was " + same->path + "): give one per device");
      if (!ceilings.document.bestMemory("dram"))
        throw Error(path + ": no DRAM memory ceiling: the roofline needs one (re-run roofcheck probe)");
      inputs.ceilings.push_back(std::move(ceilings));
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
