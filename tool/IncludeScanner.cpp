#include "IncludeScanner.h"

#include <cerrno>
#include <cstring>
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

/// Where each include directory of a command is written: the argument's index and what precedes the value
/// in that argument ("" when the value is an argument of its own, "-I" in "-Idir", "--include-path=").
std::vector<std::pair<size_t, std::string>> includeDirectoryArguments(const std::vector<std::string> &commandLine) {
  static const std::vector<std::string> flags = {"-I", "-iquote", "-isystem", "-idirafter", "--include-path"};
  std::vector<std::pair<size_t, std::string>> found;
  for (size_t i = 0; i < commandLine.size(); ++i) {
    const std::string &arg = commandLine[i];
    for (const std::string &flag : flags) {
      if (arg.rfind(flag, 0) != 0)
        continue;
      std::string rest = arg.substr(flag.size());
      if (rest.empty() && i + 1 < commandLine.size())
        found.emplace_back(++i, "");
      else if (!rest.empty() && rest[0] == '=') {
        if (flag == "--include-path") // -I=dir is relative to the sysroot: left as it is
          found.emplace_back(i, flag + "=");
      } else if (!rest.empty() && flag != "--include-path")
        found.emplace_back(i, flag); // -Idir, -isystemdir
      break;
    }
  }
  return found;
}

std::string resolvedDirectory(const std::string &value, const std::string &workingDirectory) {
  fs::path path(value);
  return normalised(path.is_relative() ? fs::path(workingDirectory) / path : path);
}

} // namespace

std::vector<std::string> includeDirectories(const std::vector<std::string> &commandLine,
                                            const std::string &workingDirectory) {
  std::vector<std::string> directories;
  for (const auto &[index, prefix] : includeDirectoryArguments(commandLine))
    directories.push_back(resolvedDirectory(commandLine[index].substr(prefix.size()), workingDirectory));
  return directories;
}

std::vector<std::string> withAbsoluteIncludeDirectories(std::vector<std::string> commandLine,
                                                        const std::string &workingDirectory) {
  for (const auto &[index, prefix] : includeDirectoryArguments(commandLine))
    commandLine[index] = prefix + resolvedDirectory(commandLine[index].substr(prefix.size()), workingDirectory);
  return commandLine;
}

std::set<std::string> includedFiles(const std::string &source, const std::vector<std::string> &directories,
                                    std::set<std::string> &unreadable) {
  std::set<std::string> found;
  std::vector<std::string> toRead{normalised(source)};
  while (!toRead.empty()) {
    std::string file = toRead.back();
    toRead.pop_back();
    std::ifstream in(file);
    if (!in) {
      unreadable.insert(file + ": " + std::strerror(errno));
      continue;
    }
    std::string line;
    while (std::getline(in, line)) {
      std::optional<IncludeLine> include = includeOf(line);
      if (!include)
        continue;
      if (std::optional<std::string> path = resolve(*include, file, directories);
          path && found.insert(*path).second)
        toRead.push_back(*path);
    }
    if (in.bad())
      unreadable.insert(file + ": a read failed");
  }
  return found;
}

} // namespace roofcheck::lint
