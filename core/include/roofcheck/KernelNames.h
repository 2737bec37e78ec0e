// Names people read: a demangled kernel name taken apart (return type, scope, base name, template
// arguments, parameters) and the short names a report shows, like Nsight Compute's
// `--print-kernel-base function`, widened only where two kernels would otherwise read the same.
#pragma once

#include <string>
#include <vector>

namespace roofcheck {

/// The parts of a demangled C++ function name. A C name ("nvjet_tst_128x256") is all base.
struct DemangledName {
  std::string scope;        ///< "at::native", "" at global scope
  std::string base;         ///< the function's own name, without template arguments
  std::vector<std::string> templateArgs; ///< top-level template arguments as written; empty for none
  bool isTemplate = false;  ///< "f<>" is a template with no arguments
  std::string params;       ///< inside the parameter list's parentheses
};

DemangledName parseDemangled(const std::string &name);

/// A type or template argument with scopes dropped and lambdas named by their enclosing function:
/// "std::array<char*, 2ul>" -> "array<char*, 2ul>", "at::native::F(int)::{lambda(float)#1}" -> "F::lambda".
std::string simplifyCppText(const std::string &text);

/// One short name per kernel, unique within the list: the base name, then (only for kernels that share it)
/// the scope, the template arguments, the arguments that differ, or the words that differ, whichever first
/// tells them apart within maxWidth columns; "#2", "#3" where nothing in the name does.
std::vector<std::string> shortKernelNames(const std::vector<std::string> &demangled, size_t maxWidth = 60);

/// Columns a UTF-8 string takes on a terminal (code points; the names hold no wide characters).
size_t displayWidth(const std::string &text);

/// The text cut to width columns with "…" in the middle (the end of a name tells kernels apart as often
/// as its start); unchanged when it fits.
std::string fitWidth(const std::string &text, size_t width);

/// A short name cut to width columns so that it still reads apart from the others: the part that widens
/// it ("<…Functor…>", "(…float…)", " #2") is kept whole and the base name cut, where that fits.
std::string fitShortName(const std::string &shortName, size_t width);

} // namespace roofcheck
