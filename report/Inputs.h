// Loading the documents given on the command line. Each file says what it is through its "schema"
// field, so inputs can come in any order: static (one or more), measured JSON Lines (one or more, one
// per process), ceilings (at most one).
#pragma once

#include "roofcheck/Contracts.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::report {

struct StaticInput {
  std::string path;
  StaticDocument document;
};

/// A measured file's header; its launches are read by the engine, streamed (MeasuredReader).
struct MeasuredInput {
  std::string path;
  MeasuredHeader header;
};

struct CeilingsInput {
  std::string path;
  CeilingsDocument document;
};

struct Inputs {
  std::vector<std::string> paths; ///< as given, in order
  std::vector<StaticInput> statics;
  std::vector<MeasuredInput> measured;
  std::optional<CeilingsInput> ceilings;
  std::vector<std::string> warnings; ///< the rest is usable: printed, not fatal
};

/// A file from the command line, with the schema its option promised ("" for a plain argument).
struct InputPath {
  std::string path;
  std::string expectedSchema;
};

/// Reads every file; a file that is not one of the three input documents, is not the one its option
/// promised, or is malformed, throws an Error naming the file and what is wrong.
Inputs loadInputs(const std::vector<InputPath> &paths);

} // namespace roofcheck::report
