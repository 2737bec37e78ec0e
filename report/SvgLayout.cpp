#include "SvgLayout.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace roofcheck::report {

namespace {

/// Advance width in em, rounded up from DejaVu Sans: wide capitals 0.8 (M, W 1.0), the narrower ones
/// (E F L P T Z) 0.7, digits and most lower case 0.64 (m, w 1.0; f i j l r t 0.42), spaces and
/// punctuation 0.42.
double advance(unsigned char c) {
  if (c == 'm' || c == 'w' || c == 'M' || c == 'W')
    return 1.0;
  if (c >= 'A' && c <= 'Z')
    return std::string_view("EFLPTZ").find(static_cast<char>(c)) != std::string_view::npos ? 0.7 : 0.8;
  if (c == 'f' || c == 'i' || c == 'j' || c == 'l' || c == 'r' || c == 't')
    return 0.42;
  if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
    return 0.64;
  if (c >= 0x80) // one byte of a UTF-8 sequence: two or three bytes make a character of up to 1 em
    return 0.5;
  return 0.42;
}

// DejaVu Sans ascent and descent, as the browser's text box spans them.
constexpr double Ascent = 0.93, Descent = 0.24;
// Small dots move at least this far, or they would still read as one.
constexpr double MinDotMove = 6;
// Stacked labels one line apart: the boxes (Ascent + Descent = 1.17 em) do not touch.
constexpr double LineStep = 1.25;

} // namespace

Box textBox(const std::string &text, double fontSize, double x, double y, Anchor anchor) {
  double width = 0;
  for (unsigned char c : text)
    width += advance(c) * fontSize;
  double left = anchor == Anchor::Start ? x : anchor == Anchor::Middle ? x - width / 2 : x - width;
  return {left, y - Ascent * fontSize, left + width, y + Descent * fontSize};
}

LabelSpot LabelLayout::place(const std::string &text, double fontSize, const std::vector<LabelSpot> &spots) {
  for (const LabelSpot &spot : spots) {
    Box box = textBox(text, fontSize, spot.x, spot.y, spot.anchor);
    if (std::none_of(taken_.begin(), taken_.end(), [&](const Box &b) { return b.meets(box); })) {
      taken_.push_back(box);
      return spot;
    }
  }
  const LabelSpot &first = spots.front();
  taken_.push_back(textBox(text, fontSize, first.x, first.y, first.anchor));
  return first;
}

std::vector<LabelSpot> LabelLayout::around(const LabelSpot &at, double fontSize, double dx, double slide,
                                           const std::optional<LabelSpot> &alternative) {
  std::vector<LabelSpot> spots;
  double step = LineStep * fontSize;
  for (int i = 0; i <= 2 * MaxSteps; ++i) {
    double lines = i % 2 == 1 ? (i + 1) / 2 : -(i / 2); // 0, +1, -1, +2, -2, ...
    spots.push_back({at.x, at.y + step * lines, at.anchor});
    for (double offset = dx; dx != 0 && std::fabs(offset) <= slide; offset += dx)
      spots.push_back({at.x + offset, at.y + step * lines, at.anchor});
    if (alternative)
      spots.push_back({alternative->x, alternative->y + step * lines, alternative->anchor});
  }
  return spots;
}

bool dotsCoincide(const DotPlace &a, double ax, double ay, const DotPlace &b, double bx, double by) {
  double smaller = std::min(a.radius, b.radius), larger = std::max(a.radius, b.radius);
  return smaller >= 0.6 * larger && std::hypot(ax - bx, ay - by) < 0.5 * smaller;
}

void separateDots(std::vector<DotPlace> &dots) {
  const double pi = std::acos(-1.0);
  for (size_t i = 0; i < dots.size(); ++i) {
    DotPlace &d = dots[i];
    d.drawnX = d.x;
    d.drawnY = d.y;
    auto clashes = [&](double x, double y) -> const DotPlace * {
      for (size_t j = 0; j < i; ++j)
        if (dots[j].group != d.group && dotsCoincide(d, x, y, dots[j], dots[j].drawnX, dots[j].drawnY))
          return &dots[j];
      return nullptr;
    };
    const DotPlace *other = clashes(d.x, d.y);
    if (!other)
      continue;
    double unit = std::max(0.6 * std::max(d.radius, other->radius), MinDotMove);
    bool placed = false;
    for (int ring = 1; ring <= 3 && !placed; ++ring)
      for (int direction = 0; direction < 8 && !placed; ++direction) {
        double angle = -pi / 4 + direction * pi / 4; // up-right first (SVG y grows downwards)
        double x = d.x + std::cos(angle) * unit * ring, y = d.y + std::sin(angle) * unit * ring;
        if (!clashes(x, y)) {
          d.drawnX = x;
          d.drawnY = y;
          placed = true;
        }
      }
  }
}

} // namespace roofcheck::report
