#include "FindingViews.h"

#include "roofcheck/Version.h"

#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>

namespace roofcheck::lint {
namespace {

/// A URI path: unreserved characters and '/' as they are, everything else percent-encoded.
std::string uriPath(const std::string &path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      char escaped[4];
      std::snprintf(escaped, sizeof escaped, "%%%02X", c);
      out += escaped;
    }
  }
  return out;
}

/// The 1-based column in Unicode code points (SARIF's columnKind) of a 1-based byte column (clang's) on
/// `line`: a UTF-8 continuation byte before it does not start a character.
int codePointColumn(const std::string &line, int byteColumn) {
  int column = 1;
  for (int i = 0; i + 1 < byteColumn && i < static_cast<int>(line.size()); ++i)
    column += (static_cast<unsigned char>(line[i]) & 0xC0) != 0x80;
  return column + std::max(0, byteColumn - 1 - static_cast<int>(line.size()));
}

class Artifacts {
public:
  Artifacts(const std::string &baseDir, SourceLines &sources)
      : base_(std::filesystem::weakly_canonical(std::filesystem::absolute(baseDir))), sources_(sources) {}

  std::string baseUri() const {
    std::string uri = "file://" + uriPath(base_.string());
    return uri.back() == '/' ? uri : uri + "/";
  }

  /// The path a fingerprint uses: relative to the base where the file is under it.
  std::string relative(const std::string &file) const {
    std::filesystem::path absolute = std::filesystem::weakly_canonical(std::filesystem::absolute(file));
    std::filesystem::path rel = absolute.lexically_relative(base_);
    bool under = !rel.empty() && rel.native().rfind("..", 0) != 0;
    return under ? rel.generic_string() : absolute.generic_string();
  }

  Json location(const std::string &file) const {
    std::string rel = relative(file);
    if (!rel.empty() && rel.front() == '/')
      return {{"uri", "file://" + uriPath(rel)}};
    return {{"uri", uriPath(rel)}, {"uriBaseId", "SRCROOT"}};
  }

  Json physical(const SourceSpan &span) const {
    std::string text = sources_.line(span.file, span.line);
    Json region = {{"startLine", span.line}, {"startColumn", codePointColumn(text, std::max(span.column, 1))}};
    if (span.endColumn > span.column)
      region["endColumn"] = codePointColumn(text, span.endColumn);
    return {{"artifactLocation", location(span.file)}, {"region", region}};
  }

private:
  std::filesystem::path base_;
  SourceLines &sources_;
};

std::string fingerprint(const std::string &text) {
  uint64_t hash = 1469598103934665603ull; // FNV-1a
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

/// "roofcheck-uncoalesced-access" -> "UncoalescedAccess"
std::string ruleName(const std::string &id) {
  std::string name;
  bool upper = true;
  for (char c : id.substr(id.find('-') + 1)) {
    if (c == '-') {
      upper = true;
      continue;
    }
    name += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return name;
}

std::string trimmed(const std::string &text) {
  size_t begin = text.find_first_not_of(" \t\r");
  return begin == std::string::npos ? "" : text.substr(begin, text.find_last_not_of(" \t\r") - begin + 1);
}

} // namespace

Json sarifLog(const std::vector<Finding> &findings, const std::vector<const Rule *> &rules,
              const std::string &baseDir, SourceLines &sources) {
  Artifacts artifacts(baseDir, sources);
  Json ruleList = Json::array();
  std::map<std::string, int> ruleIndex;
  for (const Rule *rule : rules) {
    Json options = Json::object();
    for (const RuleOption &option : rule->options())
      options[option.name] = option.defaultValue;
    ruleIndex[rule->id()] = static_cast<int>(ruleList.size());
    ruleList.push_back({{"id", rule->id()},
                        {"name", ruleName(rule->id())},
                        {"shortDescription", {{"text", rule->summary()}}},
                        {"help", {{"text", "docs/rules/" + rule->id() + ".md"}}},
                        {"defaultConfiguration", {{"level", toString(rule->severity())}}},
                        {"properties", {{"options", options}}}});
  }

  Json results = Json::array();
  // The fingerprint names what was found, not where: rule, file, kernel and the text of the line, plus a
  // counter for identical lines, so that it survives code moving up or down.
  std::map<std::string, int> occurrences;
  for (const Finding &f : findings) {
    std::string identity =
        f.rule + "\n" + artifacts.relative(f.where.file) + "\n" + f.kernel + "\n" + trimmed(sources.line(f.where.file, f.where.line));
    int occurrence = occurrences[identity]++;
    Json result = {{"ruleId", f.rule},
                   {"level", toString(f.severity)},
                   {"message", {{"text", f.message}}},
                   {"locations", Json::array({{{"physicalLocation", artifacts.physical(f.where)}}})},
                   {"partialFingerprints", {{"roofcheck/v1", fingerprint(identity + "\n" + std::to_string(occurrence))}}},
                   {"properties", {{"kernel", f.kernel}}}};
    if (auto index = ruleIndex.find(f.rule); index != ruleIndex.end())
      result["ruleIndex"] = index->second;
    if (!f.notes.empty()) {
      Json related = Json::array();
      for (const FindingNote &note : f.notes)
        related.push_back({{"id", static_cast<int>(related.size())},
                           {"physicalLocation", artifacts.physical(note.where)},
                           {"message", {{"text", note.message}}}});
      result["relatedLocations"] = related;
    }
    if (f.fix) {
      Json deleted = artifacts.physical(f.fix->where).at("region");
      result["fixes"] = Json::array(
          {{{"description", {{"text", "replace with '" + f.fix->replacement + "'"}}},
            {"artifactChanges",
             Json::array({{{"artifactLocation", artifacts.location(f.fix->where.file)},
                           {"replacements", Json::array({{{"deletedRegion", deleted},
                                                          {"insertedContent", {{"text", f.fix->replacement}}}}})}}})}}});
    }
    results.push_back(result);
  }

  Json run = {{"tool", {{"driver", {{"name", "roofcheck-lint"}, {"version", Version}, {"rules", ruleList}}}}},
              {"originalUriBaseIds", {{"SRCROOT", {{"uri", artifacts.baseUri()}}}}},
              {"columnKind", "unicodeCodePoints"},
              {"results", results}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"}, {"version", "2.1.0"}, {"runs", Json::array({run})}};
}

} // namespace roofcheck::lint
