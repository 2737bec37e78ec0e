#include "roofcheck/KernelNames.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>

namespace roofcheck {

namespace {

bool isIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

std::string trim(const std::string &s) {
  size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

int nesting(char c) {
  switch (c) {
  case '<': case '(': case '{': case '[': return 1;
  case '>': case ')': case '}': case ']': return -1;
  default: return 0;
  }
}

/// The position of the separator's occurrences outside every bracket pair.
std::vector<size_t> topLevel(const std::string &s, const std::string &separator) {
  std::vector<size_t> at;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (depth == 0 && s.compare(i, separator.size(), separator) == 0) {
      at.push_back(i);
      i += separator.size() - 1;
      continue;
    }
    // "operator->" and "operator<" would unbalance the count; clamping keeps the rest usable.
    depth = std::max(0, depth + nesting(s[i]));
  }
  return at;
}

std::vector<std::string> splitTopLevel(const std::string &s, const std::string &separator) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at : topLevel(s, separator)) {
    parts.push_back(trim(s.substr(start, at - start)));
    start = at + separator.size();
  }
  parts.push_back(trim(s.substr(start)));
  return parts;
}

/// Scanning back from the closing bracket at `close`, the position of its opening partner.
std::optional<size_t> openingPartner(const std::string &s, size_t close, char open, char shut) {
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    if (s[i] == shut)
      ++depth;
    else if (s[i] == open && --depth == 0)
      return i;
  }
  return std::nullopt;
}

/// From `open` (a bracket), the position just past its closing partner; the end when unbalanced.
size_t pastPartner(const std::string &s, size_t open) {
  int depth = 0;
  for (size_t i = open; i < s.size(); ++i) {
    depth += nesting(s[i]);
    if (depth <= 0)
      return i + 1;
  }
  return s.size();
}

// --- simplifying a type or argument -----------------------------------------------------------------

const std::string AnonymousNamespace = "(anonymous namespace)";

struct Component {
  enum Kind { Identifier, Operator, Lambda, Anonymous } kind = Identifier;
  std::string name;         ///< the identifier, "operator()", or the braces' text
  std::string templateArgs; ///< inside '<' '>', with the brackets; "" for none
};

bool startsComponent(const std::string &s, size_t i) {
  return (isIdentifierChar(s[i]) && !(s[i] >= '0' && s[i] <= '9')) || s[i] == '{' ||
         s.compare(i, AnonymousNamespace.size(), AnonymousNamespace) == 0;
}

/// Reads "a::b<...>::F(...) const::{lambda(...)#1}" from i, leaving i past it.
std::vector<Component> readChain(const std::string &s, size_t &i) {
  std::vector<Component> chain;
  while (i < s.size() && startsComponent(s, i)) {
    Component c;
    if (s.compare(i, AnonymousNamespace.size(), AnonymousNamespace) == 0) {
      c.kind = Component::Anonymous;
      i += AnonymousNamespace.size();
    } else if (s[i] == '{') {
      size_t end = pastPartner(s, i);
      c.kind = Component::Lambda;
      c.name = s.substr(i, end - i);
      i = end;
    } else {
      size_t start = i;
      while (i < s.size() && isIdentifierChar(s[i]))
        ++i;
      c.name = s.substr(start, i - start);
      if (c.name == "operator") {
        c.kind = Component::Operator;
        if (s.compare(i, 2, "()") == 0)
          i += 2;
        while (i < s.size() && !isIdentifierChar(s[i]) && s[i] != '(' && s[i] != ' ' && s[i] != ':')
          ++i;
        c.name = s.substr(start, i - start);
      }
      if (c.kind == Component::Identifier && i < s.size() && s[i] == '<') {
        size_t end = pastPartner(s, i);
        c.templateArgs = s.substr(i, end - i);
        i = end;
      }
      if (i < s.size() && s[i] == '(') // a function's scope: its parameters say nothing here
        i = pastPartner(s, i);
      if (s.compare(i, 8, " const::") == 0)
        i += 6;
    }
    chain.push_back(std::move(c));
    if (s.compare(i, 2, "::") != 0)
      break;
    i += 2;
  }
  return chain;
}

std::string renderChain(const std::vector<Component> &chain) {
  if (chain.empty())
    return "";
  const Component &last = chain.back();
  if (last.kind == Component::Lambda) {
    // A lambda reads best as the function that holds it.
    for (size_t j = chain.size() - 1; j-- > 0;)
      if (chain[j].kind == Component::Identifier)
        return chain[j].name + "::lambda";
    return "lambda";
  }
  if (last.kind == Component::Anonymous)
    return "";
  if (last.templateArgs.empty())
    return last.name;
  return last.name + "<" + simplifyCppText(last.templateArgs.substr(1, last.templateArgs.size() - 2)) + ">";
}

std::vector<std::string> wordsOf(const std::string &text) {
  std::vector<std::string> words;
  for (size_t i = 0; i < text.size();) {
    if (!isIdentifierChar(text[i])) {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() && isIdentifierChar(text[i]))
      ++i;
    words.push_back(text.substr(start, i - start));
  }
  return words;
}

// --- short names ------------------------------------------------------------------------------------

using Labels = std::vector<std::string>;

bool unique(const Labels &labels) { return std::set<std::string>(labels.begin(), labels.end()).size() == labels.size(); }

bool fits(const Labels &labels, size_t width) {
  return std::all_of(labels.begin(), labels.end(), [&](const std::string &l) { return displayWidth(l) <= width; });
}

struct Member {
  DemangledName parsed;
  std::vector<std::string> args; ///< simplified
  std::string params;            ///< simplified
};

std::string joined(const std::vector<std::string> &parts, const std::string &separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i)
    out += (i ? separator : "") + parts[i];
  return out;
}

bool isNumber(const std::string &word) { return word[0] >= '0' && word[0] <= '9'; }

/// For each text, few of its words that together set it apart from every other text, as "…a…b…" in the
/// order written: a greedy cover, each step taking the word that the most still-alike texts lack (names
/// before numbers, then the earlier, on ties). nullopt when no text has a word another lacks.
std::optional<Labels> distinguishingWords(const std::vector<std::string> &texts) {
  std::vector<std::vector<std::string>> words;
  std::vector<std::set<std::string>> sets;
  for (const std::string &t : texts) {
    words.push_back(wordsOf(t));
    sets.emplace_back(words.back().begin(), words.back().end());
  }
  Labels labels;
  bool any = false;
  for (size_t i = 0; i < texts.size(); ++i) {
    std::vector<size_t> alike;
    for (size_t j = 0; j < texts.size(); ++j)
      if (j != i)
        alike.push_back(j);
    std::set<std::string> kept;
    while (!alike.empty()) {
      const std::string *best = nullptr;
      size_t bestApart = 0;
      for (const std::string &w : words[i]) {
        size_t apart = 0;
        for (size_t j : alike)
          apart += !sets[j].count(w);
        if (apart > bestApart || (apart == bestApart && best && isNumber(*best) && !isNumber(w))) {
          best = &w;
          bestApart = apart;
        }
      }
      if (!best)
        break;
      kept.insert(*best);
      alike.erase(std::remove_if(alike.begin(), alike.end(), [&](size_t j) { return !sets[j].count(*best); }),
                  alike.end());
    }
    std::vector<std::string> ordered;
    for (const std::string &w : words[i])
      if (kept.count(w) && std::find(ordered.begin(), ordered.end(), w) == ordered.end())
        ordered.push_back(w);
    any = any || !ordered.empty();
    labels.push_back(ordered.empty() ? "…" : "…" + joined(ordered, "…") + "…");
  }
  return any ? std::optional<Labels>(labels) : std::nullopt;
}

/// The ways to tell apart kernels sharing a base name, most readable first: names as written, then words.
struct Candidates {
  std::vector<Labels> written, words;
};

Candidates candidates(const std::vector<Member> &group) {
  Candidates out;
  auto each = [&](const std::function<std::string(const Member &)> &label) {
    Labels labels;
    for (const Member &m : group)
      labels.push_back(label(m));
    out.written.push_back(std::move(labels));
  };
  auto base = [](const Member &m) { return m.parsed.base; };
  // The innermost scopes that differ.
  size_t deepest = 0;
  for (const Member &m : group)
    deepest = std::max(deepest, splitTopLevel(m.parsed.scope, "::").size());
  for (size_t depth = 1; depth <= deepest; ++depth)
    each([&](const Member &m) {
      std::vector<std::string> scopes = splitTopLevel(m.parsed.scope, "::");
      size_t from = scopes.size() > depth ? scopes.size() - depth : 0;
      std::vector<std::string> kept(scopes.begin() + static_cast<std::ptrdiff_t>(from), scopes.end());
      kept.erase(std::remove(kept.begin(), kept.end(), ""), kept.end());
      return kept.empty() ? base(m) : joined(kept, "::") + "::" + base(m);
    });
  // Every template argument.
  each([&](const Member &m) { return base(m) + (m.parsed.isTemplate ? "<" + joined(m.args, ", ") + ">" : ""); });
  // Only the arguments that differ.
  size_t positions = 0;
  for (const Member &m : group)
    positions = std::max(positions, m.args.size());
  std::vector<bool> differs(positions, false);
  for (size_t p = 0; p < positions; ++p)
    for (const Member &m : group)
      differs[p] = differs[p] || p >= m.args.size() || p >= group.front().args.size() || m.args[p] != group.front().args[p];
  each([&](const Member &m) {
    std::vector<std::string> shown;
    for (size_t p = 0; p < m.args.size(); ++p)
      if (differs[p])
        shown.push_back(m.args[p]);
      else if (shown.empty() || shown.back() != "…")
        shown.push_back("…");
    return base(m) + "<" + joined(shown, ", ") + ">";
  });
  // The words that differ, in the template arguments, then in the parameters.
  std::vector<std::string> args, params;
  for (const Member &m : group) {
    args.push_back(joined(m.args, ", "));
    params.push_back(m.params);
  }
  if (auto words = distinguishingWords(args)) {
    Labels labels;
    for (size_t i = 0; i < group.size(); ++i)
      labels.push_back(base(group[i]) + "<" + (*words)[i] + ">");
    out.words.push_back(labels);
  }
  if (auto words = distinguishingWords(params)) {
    Labels labels;
    for (size_t i = 0; i < group.size(); ++i)
      labels.push_back(base(group[i]) + "(" + (*words)[i] + ")");
    out.words.push_back(labels);
  }
  return out;
}

/// The first option whose labels are unique and within the width; with `cut`, cut to the width first.
std::optional<Labels> firstTellingApart(std::initializer_list<const std::vector<Labels> *> lists, size_t maxWidth,
                                        bool cut) {
  for (const std::vector<Labels> *list : lists)
    for (Labels option : *list) {
      if (cut)
        for (std::string &label : option)
          label = fitShortName(label, maxWidth);
      if (unique(option) && fits(option, maxWidth))
        return option;
    }
  return std::nullopt;
}

/// Every label within the width, with "#1", "#2" after those that more than one kernel has.
void fitAndNumber(Labels &labels, size_t maxWidth) {
  std::map<std::string, size_t> count, seen;
  for (const std::string &l : labels)
    ++count[l];
  for (std::string &l : labels) {
    if (count[l] == 1) {
      l = fitShortName(l, maxWidth);
      continue;
    }
    std::string number = " #" + std::to_string(++seen[l]);
    l = fitShortName(l, maxWidth > number.size() ? maxWidth - number.size() : 0) + number;
  }
}

} // namespace

DemangledName parseDemangled(const std::string &name) {
  DemangledName out;
  std::string head = trim(name);
  if (!head.empty() && head.back() == ')') {
    if (auto open = openingPartner(head, head.size() - 1, '(', ')'); open && *open > 0) {
      out.params = head.substr(*open + 1, head.size() - *open - 2);
      head = trim(head.substr(0, *open));
    }
  }
  if (!head.empty() && head.back() == '>') {
    if (auto open = openingPartner(head, head.size() - 1, '<', '>'); open && *open > 0) {
      out.isTemplate = true;
      std::string args = head.substr(*open + 1, head.size() - *open - 2);
      if (!trim(args).empty())
        out.templateArgs = splitTopLevel(args, ",");
      head = trim(head.substr(0, *open));
    }
  }
  std::vector<size_t> spaces = topLevel(head, " "); // a return type before the name
  std::string qualified = spaces.empty() ? head : head.substr(spaces.back() + 1);
  std::vector<size_t> scopes = topLevel(qualified, "::");
  if (scopes.empty()) {
    out.base = qualified;
  } else {
    out.scope = qualified.substr(0, scopes.back());
    out.base = qualified.substr(scopes.back() + 2);
  }
  if (out.base.empty()) // not a C++ name we can take apart
    out = DemangledName{"", trim(name), {}, false, ""};
  return out;
}

std::string simplifyCppText(const std::string &text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    if (startsComponent(text, i) && (i == 0 || !isIdentifierChar(text[i - 1])))
      out += renderChain(readChain(text, i));
    else
      out += text[i++];
  }
  return out;
}

std::vector<std::string> shortKernelNames(const std::vector<std::string> &demangled, size_t maxWidth) {
  Labels labels(demangled.size());
  std::map<std::string, std::vector<size_t>> byBase;
  std::vector<Member> members;
  for (size_t i = 0; i < demangled.size(); ++i) {
    Member m;
    m.parsed = parseDemangled(demangled[i]);
    for (const std::string &a : m.parsed.templateArgs)
      m.args.push_back(simplifyCppText(a));
    m.params = simplifyCppText(m.parsed.params);
    byBase[m.parsed.base].push_back(i);
    members.push_back(std::move(m));
  }
  for (const auto &[base, indices] : byBase) {
    if (indices.size() == 1) {
      labels[indices.front()] = base;
      continue;
    }
    std::vector<Member> group;
    for (size_t i : indices)
      group.push_back(members[i]);
    Candidates options = candidates(group);
    std::optional<Labels> picked = firstTellingApart({&options.written, &options.words}, maxWidth, false);
    if (!picked) // nothing fits: cut to width what still tells them apart once cut, the compact words first
      picked = firstTellingApart({&options.words, &options.written}, maxWidth, true);
    if (!picked) { // numbered below
      picked = Labels();
      for (const Member &m : group)
        picked->push_back(m.parsed.base);
    }
    for (size_t j = 0; j < indices.size(); ++j)
      labels[indices[j]] = (*picked)[j];
  }
  fitAndNumber(labels, maxWidth);
  return labels;
}

size_t displayWidth(const std::string &text) {
  size_t width = 0;
  for (unsigned char c : text)
    width += (c & 0xC0) != 0x80; // count lead bytes only
  return width;
}

std::string fitWidth(const std::string &text, size_t width) {
  if (displayWidth(text) <= width)
    return text;
  if (width == 0)
    return "";
  // Cut at code point boundaries: keep the first two thirds and the last third around the ellipsis.
  size_t keep = width - 1, front = (keep * 2 + 2) / 3, back = keep - front;
  auto prefix = [&](size_t columns) {
    size_t bytes = 0, seen = 0;
    while (bytes < text.size() && seen < columns) {
      ++bytes;
      while (bytes < text.size() && (static_cast<unsigned char>(text[bytes]) & 0xC0) == 0x80)
        ++bytes;
      ++seen;
    }
    return bytes;
  };
  size_t total = displayWidth(text);
  return text.substr(0, prefix(front)) + "…" + text.substr(prefix(total - back));
}

std::string fitShortName(const std::string &shortName, size_t width) {
  if (displayWidth(shortName) <= width)
    return shortName;
  size_t widening = std::min({shortName.find('<'), shortName.find('('), shortName.find(" #")});
  constexpr size_t BaseKept = 8; // below this the base no longer says which kernel it is
  if (widening == std::string::npos || widening <= BaseKept || width < 2 * BaseKept + 2)
    return fitWidth(shortName, width);
  std::string head = shortName.substr(0, widening), tail = shortName.substr(widening);
  if (displayWidth(tail) + BaseKept + 1 > width) // the tail too is cut, in its middle
    return head.substr(0, BaseKept) + "…" + fitWidth(tail, width - BaseKept - 1);
  return head.substr(0, width - displayWidth(tail) - 1) + "…" + tail; // the base is ASCII
}

} // namespace roofcheck
