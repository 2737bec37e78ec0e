// Number formatting shared by the views and the explanation messages, so that the same quantity reads
// the same everywhere.
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>

namespace roofcheck::report {

/// Exact integers with thousands separators ("268,435,456"); other values with 4 significant digits.
std::string count(double value);
/// SI prefix and unit: si(4.4e12, "B/s") == "4.40 TB/s".
std::string si(double value, const std::string &unit);
/// "%.3g": intensities in FLOP/byte.
std::string intensity(double value);
std::string ratio(double value);   ///< "8.00x"
std::string percent(double value); ///< fraction 0.423 -> "42.3%"
/// "-" for a missing value, otherwise the formatter's text.
template <typename F> std::string orDash(const std::optional<double> &value, F format) {
  return value ? format(*value) : std::string("-");
}
std::string duration(double ns); ///< "1.23 ms", "45.6 us"

} // namespace roofcheck::report
