// The lint rules, clang-tidy style: one class per rule, each with its id, a one-line summary, its options
// and a check over one kernel's estimate. The registry lists them all; docs/rules/<id>.md documents each.
#pragma once

#include "../KernelCounter.h"
#include "Finding.h"

#include "roofcheck/Contracts.h"
#include "roofcheck/Expr.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace roofcheck::lint {

struct RuleOption {
  std::string name; ///< e.g. "min-reuse-factor"
  double defaultValue = 0;
  std::string description;
};

/// What a rule sees of one kernel: the estimate with its expressions, the document entry with values
/// evaluated under the bindings, the bindings, and the measured ceilings when lint was given them.
struct KernelContext {
  const KernelEstimate &estimate;
  const StaticKernel &kernel;
  const Bindings &bindings;
  const CeilingsDocument *ceilings = nullptr;
};

/// Rule options set by the configuration, keyed "rule-id.option-name".
class RuleSettings {
public:
  explicit RuleSettings(std::map<std::string, double> values = {}) : values_(std::move(values)) {}
  double option(const std::string &rule, const RuleOption &option) const;

private:
  std::map<std::string, double> values_;
};

class Rule {
public:
  virtual ~Rule() = default;
  virtual std::string id() const = 0;
  virtual std::string summary() const = 0; ///< one sentence: what it finds
  virtual Severity severity() const { return Severity::Warning; }
  virtual std::vector<RuleOption> options() const { return {}; }
  virtual void check(const KernelContext &context, const RuleSettings &settings, std::vector<Finding> &out) const = 0;

protected:
  Finding finding(const SourceSpan &where, std::string message, const KernelContext &context) const;
  /// A note at `where`; code without a source line is noted at the kernel's definition, as finding() does.
  FindingNote note(const SourceSpan &where, std::string message, const KernelContext &context) const;
};

/// Every rule, in the order they are documented.
const std::vector<std::unique_ptr<Rule>> &allRules();
const Rule *findRule(const std::string &id);

/// The value of an expression under bindings; empty while a symbol is unbound, or when the bound expression
/// has no value (a division by zero, an overflow), which *why (when given) then names.
std::optional<double> valueUnder(const Expr &e, const Bindings &bindings, std::string *why = nullptr);

/// Integers exactly ("268435456"), other values with 6 significant digits.
std::string formatNumber(double value);
/// Bytes with an SI prefix: "68.7 GB".
std::string formatBytes(double bytes);

} // namespace roofcheck::lint
