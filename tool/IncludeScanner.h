// Which files a translation unit includes, read from its #include lines, for `--changed-files`: a changed
// header re-lints the database's units that include it. No preprocessor runs: every #include counts, in
// branches of #if too, so the answer is a superset of what the compiler reads, which is the safe side for
// choosing what to re-lint. An #include named by a macro is not followed.
#pragma once

#include <set>
#include <string>
#include <vector>

namespace roofcheck::lint {

/// The include search directories of a compile command (-I, -iquote, -isystem, -idirafter, nvcc's
/// --include-path; joined or separate values), in order, relative ones resolved against workingDirectory.
std::vector<std::string> includeDirectories(const std::vector<std::string> &commandLine,
                                            const std::string &workingDirectory);

/// The command with each include directory made absolute against workingDirectory, so that clang names
/// the headers it finds there absolutely, as it names the source: a finding in a header then points at the
/// file from any directory.
std::vector<std::string> withAbsoluteIncludeDirectories(std::vector<std::string> commandLine,
                                                        const std::string &workingDirectory);

/// The files `source` includes, directly or through the files it includes, as normalised absolute paths:
/// a quoted name is looked for next to the including file first, then, like an angled one, in `directories`
/// in order; a name found nowhere (a system header outside them) is left out. A file that cannot be read
/// (its includes then unknown) goes into `unreadable` as "PATH: REASON".
std::set<std::string> includedFiles(const std::string &source, const std::vector<std::string> &directories,
                                    std::set<std::string> &unreadable);

} // namespace roofcheck::lint
