// A finding of a lint rule: where, what, the notes that back it and the mechanical fix when there is one.
// Produced by the rules (the engine), shown by the diagnostic and SARIF views.
#pragma once

#include "../DeviceCompiler.h"

#include "roofcheck/Json.h"

#include <optional>
#include <string>
#include <vector>

namespace roofcheck::lint {

enum class Severity { Warning, Error };
const char *toString(Severity severity);

struct FindingNote {
  SourceSpan where;
  std::string message;
};

struct FixIt {
  SourceSpan where; ///< the text to replace
  std::string replacement;
};

struct Finding {
  std::string rule; ///< the rule id, e.g. "roofcheck-uncoalesced-access"
  Severity severity = Severity::Warning;
  SourceSpan where;
  std::string message;
  std::string kernel; ///< the kernel it concerns, as written (name with template arguments)
  std::vector<FindingNote> notes;
  std::optional<FixIt> fix;
};

/// Findings travel between the processes of a parallel run as JSON.
Json toJson(const Finding &finding);
Finding findingFromJson(const Json &json);

} // namespace roofcheck::lint
