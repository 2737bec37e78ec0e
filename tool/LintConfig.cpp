#include "LintConfig.h"

#include "rules/Rule.h"

#include "roofcheck/Error.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

#include <filesystem>

namespace roofcheck::lint {
namespace {

bool globMatches(std::string_view pattern, std::string_view text) {
  size_t star = pattern.find('*');
  if (star == std::string_view::npos)
    return pattern == text;
  std::string_view head = pattern.substr(0, star);
  if (text.substr(0, head.size()) != head)
    return false;
  std::string_view rest = pattern.substr(star + 1);
  for (size_t i = head.size(); i <= text.size(); ++i)
    if (globMatches(rest, text.substr(i)))
      return true;
  return false;
}

bool matchesAnyRule(const std::string &pattern) {
  std::string_view glob = pattern;
  if (!glob.empty() && glob.front() == '-')
    glob.remove_prefix(1);
  for (const auto &rule : allRules())
    if (globMatches(glob, rule->id()))
      return true;
  return false;
}

/// "a, -b" -> {"a", "-b"}
std::vector<std::string> splitPatterns(const std::string &commaSeparated) {
  std::vector<std::string> patterns;
  for (size_t start = 0; start <= commaSeparated.size();) {
    size_t comma = std::min(commaSeparated.find(',', start), commaSeparated.size());
    std::string item = commaSeparated.substr(start, comma - start);
    size_t begin = item.find_first_not_of(" \t");
    if (begin != std::string::npos)
      patterns.push_back(item.substr(begin, item.find_last_not_of(" \t") - begin + 1));
    start = comma + 1;
  }
  return patterns;
}

class ConfigReader {
public:
  ConfigReader(const std::string &path, llvm::SourceMgr &sm) : path_(path), sm_(sm) {}

  [[noreturn]] void fail(const llvm::yaml::Node *node, const std::string &message) const {
    auto [line, column] = sm_.getLineAndColumn(node->getSourceRange().Start);
    throw Error(path_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message);
  }

  std::string scalar(llvm::yaml::Node *node, const std::string &what) const {
    auto *s = llvm::dyn_cast_or_null<llvm::yaml::ScalarNode>(node);
    if (!s)
      fail(node, what + " must be a single value");
    llvm::SmallString<64> storage;
    return s->getValue(storage).str();
  }

  void readRules(llvm::yaml::Node *node, LintConfig &config) const {
    std::vector<std::pair<std::string, llvm::yaml::Node *>> patterns;
    if (auto *list = llvm::dyn_cast<llvm::yaml::SequenceNode>(node)) {
      for (llvm::yaml::Node &item : *list)
        patterns.emplace_back(scalar(&item, "a rule pattern"), &item);
    } else {
      for (std::string &pattern : splitPatterns(scalar(node, "rules")))
        patterns.emplace_back(std::move(pattern), node);
    }
    for (auto &[pattern, where] : patterns) {
      if (!matchesAnyRule(pattern))
        fail(where, "rule pattern '" + pattern + "' matches no rule (roofcheck lint --list-rules shows them)");
      config.rules.push_back(pattern);
    }
  }

  void readOptions(llvm::yaml::Node *node, LintConfig &config) const {
    auto *map = llvm::dyn_cast<llvm::yaml::MappingNode>(node);
    if (!map)
      fail(node, "options must map 'rule-id.option' to a number");
    for (llvm::yaml::KeyValueNode &entry : *map) {
      std::string key = scalar(entry.getKey(), "an option name");
      size_t dot = key.rfind('.');
      const Rule *rule = dot == std::string::npos ? nullptr : findRule(key.substr(0, dot));
      bool known = false;
      if (rule)
        for (const RuleOption &option : rule->options())
          known = known || option.name == key.substr(dot + 1);
      if (!known)
        fail(entry.getKey(), "unknown option '" + key + "' (expected rule-id.option, see docs/rules/)");
      std::string text = scalar(entry.getValue(), "option " + key);
      char *end = nullptr;
      double value = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !(value >= 0) || value > 1e12)
        fail(entry.getValue(), "option " + key + " needs a non-negative number, not '" + text + "'");
      config.options[key] = value;
    }
  }

private:
  std::string path_;
  llvm::SourceMgr &sm_;
};

} // namespace

bool LintConfig::enabled(const std::string &ruleId) const {
  bool on = false;
  for (const std::string &pattern : rules) {
    bool off = !pattern.empty() && pattern.front() == '-';
    if (globMatches(off ? std::string_view(pattern).substr(1) : std::string_view(pattern), ruleId))
      on = !off;
  }
  return on;
}

std::optional<std::string> findConfig(const std::string &sourceFile) {
  std::error_code ec;
  std::filesystem::path dir = std::filesystem::absolute(sourceFile, ec).parent_path();
  for (; !dir.empty(); dir = dir.parent_path()) {
    std::filesystem::path candidate = dir / ConfigFileName;
    if (std::filesystem::is_regular_file(candidate, ec))
      return candidate.string();
    if (dir == dir.root_path())
      break;
  }
  return std::nullopt;
}

LintConfig loadConfig(const std::string &path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer = llvm::MemoryBuffer::getFile(path);
  if (!buffer)
    throw Error("cannot read the configuration " + path + ": " + buffer.getError().message());
  llvm::SourceMgr sm;
  std::string parseError;
  sm.setDiagHandler(
      [](const llvm::SMDiagnostic &d, void *context) {
        auto *first = static_cast<std::string *>(context);
        if (first->empty())
          *first = std::to_string(d.getLineNo()) + ":" + std::to_string(d.getColumnNo() + 1) + ": " + d.getMessage().str();
      },
      &parseError);
  llvm::yaml::Stream stream((*buffer)->getBuffer(), sm);
  ConfigReader reader(path, sm);

  LintConfig config;
  config.path = path;
  bool inherit = false;
  LintConfig own;
  own.rules.clear();
  llvm::yaml::document_iterator document = stream.begin();
  llvm::yaml::Node *root = document == stream.end() ? nullptr : document->getRoot();
  if (root && !llvm::isa<llvm::yaml::NullNode>(root)) {
    auto *map = llvm::dyn_cast<llvm::yaml::MappingNode>(root);
    if (!map && parseError.empty())
      reader.fail(root, "the configuration must be a mapping (rules:, options:, gpu-arch:, ceilings:, inherit:)");
    for (auto entry = map ? map->begin() : llvm::yaml::MappingNode::iterator(); map && entry != map->end(); ++entry) {
      if (!parseError.empty())
        break;
      std::string key = reader.scalar(entry->getKey(), "a key");
      llvm::yaml::Node *value = entry->getValue();
      if (key == "rules")
        reader.readRules(value, own);
      else if (key == "options")
        reader.readOptions(value, own);
      else if (key == "gpu-arch")
        own.gpuArch = reader.scalar(value, "gpu-arch");
      else if (key == "ceilings") {
        std::filesystem::path ceilings = reader.scalar(value, "ceilings");
        own.ceilings = (ceilings.is_absolute() ? ceilings : std::filesystem::path(path).parent_path() / ceilings)
                           .lexically_normal()
                           .string();
      } else if (key == "inherit") {
        std::string flag = reader.scalar(value, "inherit");
        if (flag != "true" && flag != "false")
          reader.fail(value, "inherit must be true or false");
        inherit = flag == "true";
      } else
        reader.fail(entry->getKey(), "unknown key '" + key + "' (expected rules, options, gpu-arch, ceilings, inherit)");
    }
  }
  if (!parseError.empty() || stream.failed())
    throw Error(path + ":" + (parseError.empty() ? std::string("1:1: not valid YAML") : parseError));

  if (inherit) {
    std::filesystem::path parentDir = std::filesystem::path(path).parent_path().parent_path();
    if (std::optional<std::string> parent = findConfig((parentDir / "x").string()); parent && *parent != path)
      config = loadConfig(*parent);
  }
  config.path = path;
  config.rules.insert(config.rules.end(), own.rules.begin(), own.rules.end());
  for (const auto &[key, value] : own.options)
    config.options[key] = value;
  if (!own.gpuArch.empty())
    config.gpuArch = own.gpuArch;
  if (!own.ceilings.empty())
    config.ceilings = own.ceilings;
  return config;
}

void applyRulePatterns(LintConfig &config, const std::string &commaSeparated) {
  for (const std::string &pattern : splitPatterns(commaSeparated)) {
    if (!matchesAnyRule(pattern))
      throw Error("--rules: '" + pattern + "' matches no rule (roofcheck lint --list-rules shows them)");
    config.rules.push_back(pattern);
  }
}

} // namespace roofcheck::lint
