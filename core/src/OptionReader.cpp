#include "roofcheck/OptionReader.h"

#include "roofcheck/Error.h"

#include <algorithm>
#include <cstddef>

namespace roofcheck {

OptionReader::OptionReader(std::vector<std::string> args, std::string helpCommand)
    : args_(std::move(args)), helpCommand_(std::move(helpCommand)) {}

bool OptionReader::next() {
  if (started_ && at_ < args_.size())
    ++at_;
  started_ = true;
  return at_ < args_.size();
}

bool OptionReader::is(const std::string &name) const {
  const std::string &arg = argument();
  return arg == name ||
         (arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 && arg[name.size()] == '=');
}

std::string OptionReader::value(const std::string &name) {
  const std::string &arg = argument();
  if (arg.size() > name.size() && arg[name.size()] == '=')
    return arg.substr(name.size() + 1);
  if (at_ + 1 >= args_.size())
    throw Error(name + " needs a value (see " + helpCommand_ + ")");
  return args_[++at_];
}

std::vector<std::string> OptionReader::values(const std::string &name) {
  std::vector<std::string> listed;
  const std::string &arg = argument();
  if (arg.size() > name.size() && arg[name.size()] == '=' && arg.size() > name.size() + 1)
    listed.push_back(arg.substr(name.size() + 1));
  while (at_ + 1 < args_.size() && !args_[at_ + 1].empty() && args_[at_ + 1][0] != '-')
    listed.push_back(args_[++at_]);
  if (listed.empty())
    throw Error(name + " needs a value (see " + helpCommand_ + ")");
  return listed;
}

void OptionReader::rejectUnknown() const { throw Error("unknown option '" + argument() + "' (see " + helpCommand_ + ")"); }

std::vector<std::string> OptionReader::rest() {
  std::vector<std::string> remaining(args_.begin() + static_cast<std::ptrdiff_t>(std::min(at_ + 1, args_.size())),
                                     args_.end());
  at_ = args_.size();
  return remaining;
}

} // namespace roofcheck
