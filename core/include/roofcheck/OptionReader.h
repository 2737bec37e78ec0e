// Every tool's command line, read one argument at a time: an option's value follows it, as the next
// argument or after '=' (`--out FILE`, `--out=FILE`), and a missing value is a roofcheck::Error that names
// the option and where its help is.
#pragma once

#include <string>
#include <vector>

namespace roofcheck {

class OptionReader {
public:
  /// helpCommand: what the error messages send the user to (e.g. "roofcheck run --help").
  OptionReader(std::vector<std::string> args, std::string helpCommand = "--help");

  /// Moves to the next argument; false when none is left.
  bool next();
  /// The argument at hand, as given.
  const std::string &argument() const { return args_[at_]; }
  /// Whether the argument at hand is option `name`, alone or as `name=VALUE`.
  bool is(const std::string &name) const;
  /// The value of option `name`, the argument at hand: what follows '=', else the next argument (which
  /// is then passed over). Throws roofcheck::Error "NAME needs a value (see HELP)" when there is none.
  std::string value(const std::string &name);
  /// The arguments after the one at hand up to the next that starts with '-', passed over.
  std::vector<std::string> untilNextOption();
  /// Every argument after the one at hand; the reader is then at the end.
  std::vector<std::string> rest();

private:
  std::vector<std::string> args_;
  std::string helpCommand_;
  size_t at_ = 0;
  bool started_ = false;
};

} // namespace roofcheck
