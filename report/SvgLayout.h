// Where the SVG roofline puts its labels and dots so that they stay readable: labels of near-equal
// ceilings (fp32, fp16 and bf16 on an H200 lie within 1.3%) are stacked rather than drawn over each other,
// and a dot that would hide another kernel's dot of about its size moves off it. The layout is
// deterministic: the same document always gives the same picture.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

/// A rectangle in SVG user units (y grows downwards).
struct Box {
  double left = 0, top = 0, right = 0, bottom = 0;
  bool meets(const Box &other) const {
    return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
  }
};

enum class Anchor { Start, Middle, End };

/// The box a browser gives `text` set at baseline (x, y) in a sans-serif face of `fontSize`, estimated
/// from DejaVu Sans, the widest of the common sans-serif faces (Arial and Liberation Sans, which
/// Chromium picks, are about 15% narrower): the estimate errs wide.
Box textBox(const std::string &text, double fontSize, double x, double y, Anchor anchor);

/// Where a label may go: its anchor point (on the baseline) in SVG user units, and which end of the text
/// that point is.
struct LabelSpot {
  double x = 0, y = 0;
  Anchor anchor = Anchor::Start;
};

/// Labels placed one after another, each at the first free spot near where it belongs.
class LabelLayout {
public:
  /// Something labels must not cover.
  void reserve(const Box &box) { taken_.push_back(box); }
  /// The first of `spots` where a label of `text` meets nothing taken, else the first spot; the label's
  /// box there is taken.
  LabelSpot place(const std::string &text, double fontSize, const std::vector<LabelSpot> &spots);
  /// Spots on lines around `at`: its y, y + step, y - step, y + 2 step, ... up to MaxSteps lines each way
  /// (step: one line of the font); on each line its x, x + dx, x + 2 dx, ... while within `slide` of x,
  /// then `alternative` (another side of the same thing) when given, moved by the same lines.
  static std::vector<LabelSpot> around(const LabelSpot &at, double fontSize, double dx = 0, double slide = 0,
                                       const std::optional<LabelSpot> &alternative = std::nullopt);

  static constexpr int MaxSteps = 10;

private:
  std::vector<Box> taken_;
};

/// A dot as drawn: where it belongs and where it is drawn, which differ when it moved off another.
struct DotPlace {
  size_t group = 0; ///< dots of one group (a kernel) never move for each other
  double x = 0, y = 0, radius = 0;
  double drawnX = 0, drawnY = 0;
  bool moved() const { return drawnX != x || drawnY != y; }
};

/// Two dots of about the same size (the smaller at least 0.6 of the larger) whose centres lie within half
/// the smaller radius read as one dot or one ring.
bool dotsCoincide(const DotPlace &a, double ax, double ay, const DotPlace &b, double bx, double by);

/// Sets drawnX/drawnY for dots given in drawing order (larger first, so smaller dots lie on top): a dot
/// that coincides with an earlier one of another group moves by 0.6 of the larger radius, at least 6
/// units (then twice, three times that), trying eight directions from up-right, to the first place where
/// it coincides with none.
void separateDots(std::vector<DotPlace> &dots);

} // namespace roofcheck::report
