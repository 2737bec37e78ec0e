#include "Rule.h"

#include "Rules.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace roofcheck::lint {

const char *toString(Severity severity) { return severity == Severity::Error ? "error" : "warning"; }

double RuleSettings::option(const std::string &rule, const RuleOption &option) const {
  auto found = values_.find(rule + "." + option.name);
  return found == values_.end() ? option.defaultValue : found->second;
}

namespace {

/// Code the compiler inlined without a source line (a library's agent called through a functor): the
/// kernel's definition is the place the user can look at, and the message says why it points there.
void placeInKernel(SourceSpan &where, std::string &message, const KernelContext &context) {
  if (!where.file.empty())
    return;
  const KernelSource &source = context.estimate.source;
  where = {source.file, source.line, std::max(source.column, 1), std::max(source.column, 1) + 1};
  message += " (in code inlined into kernel '" + source.name.substr(0, source.name.find('<')) +
             "' without a source line)";
}

} // namespace

Finding Rule::finding(const SourceSpan &where, std::string message, const KernelContext &context) const {
  Finding f;
  f.rule = id();
  f.severity = severity();
  f.where = where;
  f.message = std::move(message);
  f.kernel = context.kernel.name;
  placeInKernel(f.where, f.message, context);
  return f;
}

FindingNote Rule::note(const SourceSpan &where, std::string message, const KernelContext &context) const {
  FindingNote n{where, std::move(message)};
  placeInKernel(n.where, n.message, context);
  return n;
}

const std::vector<std::unique_ptr<Rule>> &allRules() {
  static const std::vector<std::unique_ptr<Rule>> rules = [] {
    std::vector<std::unique_ptr<Rule>> list;
    list.push_back(std::make_unique<UncoalescedAccessRule>());
    list.push_back(std::make_unique<CacheReliantReuseRule>());
    list.push_back(std::make_unique<Fp64PromotionRule>());
    list.push_back(std::make_unique<UnboundedWorkRule>());
    list.push_back(std::make_unique<ClaimRule>());
    return list;
  }();
  return rules;
}

const Rule *findRule(const std::string &id) {
  for (const auto &rule : allRules())
    if (rule->id() == id)
      return rule.get();
  return nullptr;
}

std::optional<double> valueUnder(const Expr &e, const Bindings &bindings, std::string *why) {
  try {
    return e.substituted(bindings).evaluate(bindings).toDouble();
  } catch (const UnboundSymbolsError &) {
    return std::nullopt;
  } catch (const Error &failure) {
    if (why)
      *why = failure.what();
    return std::nullopt;
  }
}

std::string formatNumber(double value) {
  char text[64];
  if (std::fabs(value) < 9.0e15 && value == std::floor(value))
    std::snprintf(text, sizeof text, "%.0f", value);
  else
    std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string formatBytes(double bytes) {
  static const char *const prefixes[] = {"", "k", "M", "G", "T", "P"};
  int power = 0;
  while (std::fabs(bytes) >= 1000.0 && power < 5) {
    bytes /= 1000.0;
    ++power;
  }
  char text[64];
  std::snprintf(text, sizeof text, power == 0 ? "%.0f %sB" : "%.3g %sB", bytes, prefixes[power]);
  return text;
}

namespace {

Json toJson(const SourceSpan &span) {
  return {{"file", span.file}, {"line", span.line}, {"column", span.column}, {"end_column", span.endColumn}};
}

SourceSpan spanFromJson(const Json &json) {
  return {json.at("file").get<std::string>(), json.at("line").get<int>(), json.at("column").get<int>(),
          json.at("end_column").get<int>()};
}

} // namespace

Json toJson(const Finding &finding) {
  Json notes = Json::array();
  for (const FindingNote &note : finding.notes)
    notes.push_back({{"where", toJson(note.where)}, {"message", note.message}});
  Json json = {{"rule", finding.rule},
               {"severity", toString(finding.severity)},
               {"where", toJson(finding.where)},
               {"message", finding.message},
               {"kernel", finding.kernel},
               {"notes", notes}};
  if (finding.fix)
    json["fix"] = {{"where", toJson(finding.fix->where)}, {"replacement", finding.fix->replacement}};
  return json;
}

Finding findingFromJson(const Json &json) {
  Finding f;
  f.rule = json.at("rule").get<std::string>();
  f.severity = json.at("severity").get<std::string>() == "error" ? Severity::Error : Severity::Warning;
  f.where = spanFromJson(json.at("where"));
  f.message = json.at("message").get<std::string>();
  f.kernel = json.at("kernel").get<std::string>();
  for (const Json &note : json.at("notes"))
    f.notes.push_back({spanFromJson(note.at("where")), note.at("message").get<std::string>()});
  if (json.contains("fix"))
    f.fix = FixIt{spanFromJson(json.at("fix").at("where")), json.at("fix").at("replacement").get<std::string>()};
  return f;
}

} // namespace roofcheck::lint
