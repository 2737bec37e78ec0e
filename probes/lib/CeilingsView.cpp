#include "CeilingsView.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace roofcheck::probe {

namespace {

std::optional<std::string> moved(const std::string &what, const char *clock, std::optional<double> before,
                                 std::optional<double> during, std::optional<double> after, double tolerance) {
  std::vector<double> seen;
  for (const auto &c : {before, during, after})
    if (c)
      seen.push_back(*c);
  if (seen.size() < 2)
    return std::nullopt;
  auto [lo, hi] = std::minmax_element(seen.begin(), seen.end());
  if (*hi <= *lo * (1 + tolerance))
    return std::nullopt;
  auto mhz = [](std::optional<double> v) { return v ? std::to_string(static_cast<long>(std::lround(*v))) : std::string("?"); };
  return what + ": " + clock + " clock moved during the probe (before " + mhz(before) + ", during " + mhz(during) +
         ", after " + mhz(after) + " MHz); the ceiling mixes clock states";
}

} // namespace

std::optional<std::string> clockMovedWarning(const std::string &what, const Provenance &p, double tolerance) {
  if (auto sm = moved(what, "SM", p.clocksBefore.smMHz, p.clocksDuring.smMHz, p.clocksAfter.smMHz, tolerance))
    return sm;
  return moved(what, "memory", p.clocksBefore.memoryMHz, p.clocksDuring.memoryMHz, p.clocksAfter.memoryMHz,
               tolerance);
}

std::optional<double> highestSmClock(const Provenance &p) {
  std::optional<double> best;
  for (const auto &c : {p.clocksBefore.smMHz, p.clocksDuring.smMHz, p.clocksAfter.smMHz})
    if (c && (!best || *c > *best))
      best = c;
  return best;
}

std::vector<std::string> throttleReasonNames(uint64_t mask) {
  static const std::pair<uint64_t, const char *> known[] = {
      {0x1, "gpu_idle"},
      {0x2, "applications_clocks_setting"},
      {0x4, "sw_power_cap"},
      {0x8, "hw_slowdown"},
      {0x10, "sync_boost"},
      {0x20, "sw_thermal_slowdown"},
      {0x40, "hw_thermal_slowdown"},
      {0x80, "hw_power_brake_slowdown"},
      {0x100, "display_clock_setting"},
  };
  std::vector<std::string> names;
  uint64_t rest = mask;
  for (auto [bit, name] : known)
    if (mask & bit) {
      names.push_back(name);
      rest &= ~bit;
    }
  if (rest) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "unknown_0x%llx", static_cast<unsigned long long>(rest));
    names.push_back(hex);
  }
  return names;
}

std::string formatRate(double v, const std::string &unit) {
  static const std::pair<double, const char *> prefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"}, {1e6, "M"},
                                                             {1e3, "k"}};
  for (auto [scale, prefix] : prefixes)
    if (std::fabs(v) >= scale) {
      char text[64];
      double scaled = v / scale;
      std::snprintf(text, sizeof text, scaled >= 100 ? "%.0f %s%s" : scaled >= 10 ? "%.1f %s%s" : "%.2f %s%s",
                    scaled, prefix, unit.c_str());
      return text;
    }
  char text[64];
  std::snprintf(text, sizeof text, "%.3g %s", v, unit.c_str());
  return text;
}

namespace {

struct Row {
  std::string ceiling, dtype, path, median, min, max, peak, fraction, clock;
};

Row rowOf(const std::string &ceiling, const std::string &dtype, const std::string &path, double median,
          const Provenance &p, const std::string &unit) {
  Row r{ceiling, dtype, path, formatRate(median, unit), formatRate(p.min, unit), formatRate(p.max, unit), "-", "-", "-"};
  const Json &peak = p.parameters.contains("theoretical_peak") ? p.parameters["theoretical_peak"] : Json();
  if (peak.is_object() && peak.contains("value") && peak["value"].is_number()) {
    double value = peak["value"].get<double>();
    r.peak = formatRate(value, unit);
    char text[32];
    std::snprintf(text, sizeof text, "%.1f%%", 100 * median / value);
    r.fraction = text;
  }
  if (p.clocksDuring.smMHz)
    r.clock = std::to_string(static_cast<long>(std::lround(*p.clocksDuring.smMHz)));
  return r;
}

} // namespace

std::string summaryTable(const CeilingsDocument &doc) {
  std::vector<Row> rows;
  rows.push_back({"ceiling", "dtype", "path", "median", "min", "max", "theoretical", "of peak", "SM MHz"});
  for (const MemoryCeiling &m : doc.memory)
    rows.push_back(rowOf(m.level + " " + m.variant, "-", m.provenance.kernel, m.bytesPerSecond, m.provenance, "B/s"));
  for (const ComputeCeiling &c : doc.compute)
    rows.push_back(rowOf(c.bucket, c.dtype, c.path, c.flopsPerSecond, c.provenance, "FLOP/s"));
  std::vector<size_t> width(9, 0);
  auto fields = [](const Row &r) {
    return std::vector<const std::string *>{&r.ceiling, &r.dtype, &r.path,     &r.median, &r.min,
                                            &r.max,     &r.peak,  &r.fraction, &r.clock};
  };
  for (const Row &r : rows) {
    auto f = fields(r);
    for (size_t i = 0; i < f.size(); ++i)
      width[i] = std::max(width[i], f[i]->size());
  }
  std::ostringstream out;
  for (const Row &r : rows) {
    auto f = fields(r);
    std::string line;
    for (size_t i = 0; i < f.size(); ++i) {
      bool right = i >= 3; // numbers right-aligned
      std::string pad(width[i] - f[i]->size(), ' ');
      line += (i ? "  " : "") + (right ? pad + *f[i] : *f[i] + (i + 1 < f.size() ? pad : ""));
    }
    out << line << "\n";
  }
  return out.str();
}

} // namespace roofcheck::probe
