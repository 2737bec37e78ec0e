// The report engine (llvm-mca style): joins the static, measured and ceilings documents into one
// collected model, a roofcheck.report/1 document. Every view (table, JSON, Markdown, SVG, HTML) is fed
// by that model and computes nothing of its own.
#pragma once

#include "Inputs.h"

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roofcheck::report {

/// Bindings for static-only mode, where no launch says what the grid, block and arguments were.
struct StaticBindings {
  std::optional<Dim3> grid, block;
  struct Arg {
    std::string kernel; ///< "" for every kernel that has the parameter
    std::string name;
    Number value;
  };
  std::vector<Arg> args;
};

struct Model {
  ReportDocument document;
  std::vector<std::string> warnings; ///< printed on stderr; the model is usable
};

Model buildModel(const Inputs &inputs, const StaticBindings &bindings);

} // namespace roofcheck::report
