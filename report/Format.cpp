#include "Format.h"

#include <cmath>
#include <cstdio>

namespace roofcheck::report {

namespace {
std::string printf1(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}
} // namespace

std::string count(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e18) {
    long long v = static_cast<long long>(value);
    std::string digits = std::to_string(v < 0 ? -v : v);
    std::string out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0)
        out += ',';
      out += digits[i];
    }
    return (v < 0 ? "-" : "") + out;
  }
  return printf1("%.4g", value);
}

std::string si(double value, const std::string &unit) {
  static const char *const prefixes[] = {"", "K", "M", "G", "T", "P", "E"};
  int i = 0;
  double v = value;
  while (std::fabs(v) >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  return printf1(std::fabs(v) >= 100 ? "%.0f" : std::fabs(v) >= 10 ? "%.1f" : "%.2f", v) + " " + prefixes[i] + unit;
}

std::string intensity(double value) { return printf1("%.3g", value); }
std::string ratio(double value) { return printf1("%.2f", value) + "x"; }
std::string percent(double value) { return printf1("%.1f", value * 100) + "%"; }

std::string duration(double ns) {
  if (ns >= 1e9)
    return printf1("%.3g", ns / 1e9) + " s";
  if (ns >= 1e6)
    return printf1("%.3g", ns / 1e6) + " ms";
  if (ns >= 1e3)
    return printf1("%.3g", ns / 1e3) + " us";
  return printf1("%.0f", ns) + " ns";
}

} // namespace roofcheck::report
