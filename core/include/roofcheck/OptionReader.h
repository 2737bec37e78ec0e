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
  /// The values of list option `name`, the argument at hand: `NAME A B` (up to the next argument that starts
  /// with '-'), `NAME=A` and `NAME=A B` alike. Throws roofcheck::Error "NAME needs a value (see HELP)" when
  /// there is none. Callers let the option repeat, so that `NAME A NAME B` is the same list.
  std::vector<std::string> values(const std::string &name);
  /// Throws the error every tool gives for an option it does not know: "unknown option 'ARG' (see HELP)".
  [[noreturn]] void rejectUnknown() const;
  /// Every argument after the one at hand; the reader is then at the end.
  std::vector<std::string> rest();

private:
  std::vector<std::string> args_;
  std::string helpCommand_;
  size_t at_ = 0;
  bool started_ = false;
};

} // namespace roofcheck
