#include "IncludeScanner.h"

#include <filesystem>
#include <fstream>
#include <optional>

namespace roofcheck::lint {

namespace fs = std::filesystem;

namespace {

std::string normalised(const fs::path &path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  return (ec ? path : absolute).lexically_normal().string();
}

struct IncludeLine {
  std::string name;
  bool quoted = false;
};

// `#  include "name"` or `#include <name>`, with blanks anywhere around the '#'.
std::optional<IncludeLine> includeOf(const std::string &line) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#')
    return std::nullopt;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 7, "include") != 0)
    return std::nullopt;
  i = line.find_first_not_of(" \t", i + 7);
  if (i == std::string::npos || (line[i] != '"' && line[i] != '<'))
    return std::nullopt;
  char close = line[i] == '"' ? '"' : '>';
  size_t end = line.find(close, i + 1);
  if (end == std::string::npos || end == i + 1)
    return std::nullopt;
  return IncludeLine{line.substr(i + 1, end - i - 1), close == '"'};
}

std::optional<std::string> resolve(const IncludeLine &include, const fs::path &includer,
                                   const std::vector<std::string> &directories) {
  std::error_code ec;
  if (include.quoted) {
    fs::path nextTo = includer.parent_path() / include.name;
    if (fs::is_regular_file(nextTo, ec))
      return normalised(nextTo);
  }
  for (const std::string &directory : directories) {
    fs::path candidate = fs::path(directory) / include.name;
    if (fs::is_regular_file(candidate, ec))
      return normalised(candidate);
  }
  return std::nullopt;
}

} // namespace

std::vector<std::string> includeDirectories(const std::vector<std::string> &commandLine,
                                            const std::string &workingDirectory) {
  static const std::vector<std::string> flags = {"-I", "-iquote", "-isystem", "-idirafter", "--include-path"};
  std::vector<std::string> directories;
  auto add = [&](const std::string &value) {
    fs::path path(value);
    directories.push_back(normalised(path.is_relative() ? fs::path(workingDirectory) / path : path));
  };
  for (size_t i = 0; i < commandLine.size(); ++i) {
    const std::string &arg = commandLine[i];
    for (const std::string &flag : flags) {
      if (arg.rfind(flag, 0) != 0)
        continue;
      std::string rest = arg.substr(flag.size());
      if (rest.empty() && i + 1 < commandLine.size())
        add(commandLine[++i]);
      else if (!rest.empty() && (flag.size() == 2 || rest[0] == '='))
        add(rest[0] == '=' ? rest.substr(1) : rest);
      else if (!rest.empty() && flag != "--include-path")
        add(rest); // -isystemDIR, -iquoteDIR
      break;
    }
  }
  return directories;
}

std::set<std::string> includedFiles(const std::string &source, const std::vector<std::string> &directories) {
  std::set<std::string> found;
  std::vector<std::string> toRead{normalised(source)};
  while (!toRead.empty()) {
    std::string file = toRead.back();
    toRead.pop_back();
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) {
      std::optional<IncludeLine> include = includeOf(line);
      if (!include)
        continue;
      if (std::optional<std::string> path = resolve(*include, file, directories);
          path && found.insert(*path).second)
        toRead.push_back(*path);
    }
  }
  return found;
}

} // namespace roofcheck::lint
