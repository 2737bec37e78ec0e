#include "LaunchFastPath.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <string_view>

namespace roofcheck {

namespace {

/// The record's fields, one bit each: repeated ones and missing required ones send the line to launchFrom.
enum Field : uint32_t {
  Record = 1u << 0, Index = 1u << 1, Name = 1u << 2, Mangled = 1u << 3, Device = 1u << 4, Context = 1u << 5,
  Stream = 1u << 6, Grid = 1u << 7, Block = 1u << 8, Cluster = 1u << 9, SharedDynamic = 1u << 10,
  SharedStatic = 1u << 11, Registers = 1u << 12, Args = 1u << 13, Nvtx = 1u << 14, Duration = 1u << 15,
  Profiled = 1u << 16, ReplayPasses = 1u << 17, Metrics = 1u << 18, Other = 1u << 19,
};
constexpr uint32_t Required = Record | Index | Name | Mangled | Device | Context | Stream | Grid | Block |
                              SharedDynamic | SharedStatic | Registers | Profiled;

Field fieldNamed(std::string_view key) {
  // string_view comparisons look at the lengths first: most names are told apart without reading them.
  static const std::pair<std::string_view, Field> names[] = {
      {"record", Record}, {"index", Index}, {"name", Name}, {"mangled", Mangled}, {"device", Device},
      {"context", Context}, {"stream", Stream}, {"grid", Grid}, {"block", Block}, {"cluster", Cluster},
      {"shared_dynamic", SharedDynamic}, {"shared_static", SharedStatic}, {"registers", Registers},
      {"args", Args}, {"nvtx", Nvtx}, {"duration_ns", Duration}, {"profiled", Profiled},
      {"replay_passes", ReplayPasses}, {"metrics", Metrics}};
  for (const auto &[name, field] : names)
    if (key == name)
      return field;
  return Other;
}

enum ArgField : uint32_t { ArgIndex = 1u << 0, ArgOffset = 1u << 1, ArgSize = 1u << 2, ArgHex = 1u << 3, ArgValue = 1u << 4 };

constexpr int64_t Int32Min = std::numeric_limits<int32_t>::min(), Int32Max = std::numeric_limits<int32_t>::max();

/// The record's events, in nlohmann's SAX vocabulary (JsonScanner below sends them): each returns false
/// for what it does not take, and the line goes to launchFrom.
class LaunchEvents {
public:
  explicit LaunchEvents(Launch &launch) : l_(launch) {}
  bool complete() const { return done_ && (seen_ & Required) == Required; }

  bool null() {
    if (place_ == In::Record) // an optional field given as null: absent
      return field_ == Args || field_ == Nvtx || field_ == Duration || field_ == ReplayPasses || field_ == Metrics ||
             field_ == Other;
    return place_ == In::Arg && argField_ == ArgValue;
  }
  bool boolean(bool value) {
    if (place_ != In::Record || field_ != Profiled)
      return field_ == Other && place_ == In::Record;
    l_.profiled = value;
    return true;
  }
  bool number_integer(int64_t value) { return integer(value); }
  bool number_unsigned(uint64_t value) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return place_ == In::Record && (field_ == Context || field_ == Stream) ? unsignedField(value) : false;
    return integer(static_cast<int64_t>(value));
  }
  bool number_float(double value) {
    if (place_ == In::Metrics)
      return metric(value);
    return place_ == In::Record && field_ == Other;
  }
  bool string(std::string_view value) {
    if (place_ == In::Record) {
      switch (field_) {
      case Record: return value == "launch";
      case Name: l_.name = value; return true;
      case Mangled: l_.mangled = value; return true;
      case Other: return true;
      default: return false;
      }
    }
    if (place_ == In::Arg && argField_ == ArgHex) {
      arg_.hex = value;
      return true;
    }
    if (place_ == In::Nvtx) {
      l_.nvtx.emplace_back(value);
      return true;
    }
    return false;
  }
  bool start_object() {
    if (place_ == In::Top && !done_)
      return (place_ = In::Record), true;
    if (place_ == In::Record && field_ == Metrics)
      return (place_ = In::Metrics), true;
    if (place_ == In::Args) {
      arg_ = KernelArgument{};
      argSeen_ = 0;
      return (place_ = In::Arg), true;
    }
    return false; // an object in an unknown field: launchFrom's business
  }
  bool key(std::string_view name) {
    if (place_ == In::Record) {
      field_ = fieldNamed(name);
      if (field_ != Other && (seen_ & field_))
        return false;
      seen_ |= field_;
      return true;
    }
    if (place_ == In::Arg) {
      static const std::pair<std::string_view, ArgField> names[] = {
          {"index", ArgIndex}, {"offset", ArgOffset}, {"size", ArgSize}, {"hex", ArgHex}, {"value", ArgValue}};
      argField_ = ArgField(0);
      for (const auto &[n, f] : names)
        if (name == n)
          argField_ = f;
      if (argField_ && (argSeen_ & argField_))
        return false;
      argSeen_ |= argField_;
      return true;
    }
    if (place_ == In::Metrics) {
      metricName_ = name;
      return !l_.metrics.count(metricName_);
    }
    return false;
  }
  bool end_object() {
    if (place_ == In::Arg) {
      if ((argSeen_ & (ArgIndex | ArgOffset | ArgSize | ArgHex)) != (ArgIndex | ArgOffset | ArgSize | ArgHex))
        return false;
      l_.args.push_back(std::move(arg_));
      return (place_ = In::Args), true;
    }
    if (place_ == In::Metrics)
      return (place_ = In::Record), true;
    if (place_ == In::Record) {
      done_ = true;
      return (place_ = In::Top), true;
    }
    return false;
  }
  bool start_array() {
    if (place_ != In::Record)
      return false;
    switch (field_) {
    case Grid: dim_ = &l_.grid; break;
    case Block: dim_ = &l_.block; break;
    case Cluster: dim_ = &l_.cluster; break;
    case Args: return (place_ = In::Args), true;
    case Nvtx: return (place_ = In::Nvtx), true;
    default: return false;
    }
    dimCount_ = 0;
    return (place_ = In::Dim), true;
  }
  bool end_array() {
    if (place_ == In::Dim && dimCount_ != 3)
      return false;
    if (place_ != In::Dim && place_ != In::Args && place_ != In::Nvtx)
      return false;
    return (place_ = In::Record), true;
  }

private:
  enum class In { Top, Record, Dim, Args, Arg, Nvtx, Metrics };

  bool integer(int64_t v) {
    switch (place_) {
    case In::Record:
      switch (field_) {
      case Index: return v >= 0 && ((l_.index = v), true);
      case Device: return v >= Int32Min && v <= Int32Max && ((l_.device = static_cast<int>(v)), true);
      case Context: case Stream: return v >= 0 && unsignedField(static_cast<uint64_t>(v));
      case SharedDynamic: return v >= 0 && ((l_.sharedDynamic = v), true);
      case SharedStatic: return v >= 0 && ((l_.sharedStatic = v), true);
      case Registers: return v >= Int32Min && v <= Int32Max && ((l_.registers = static_cast<int>(v)), true);
      case Duration: return v >= 0 && ((l_.durationNs = v), true);
      case ReplayPasses: return v >= 1 && ((l_.replayPasses = v), true);
      case Other: return true;
      default: return false;
      }
    case In::Dim:
      if (v < 1 || dimCount_ >= 3)
        return false;
      (*dim_)[dimCount_++] = v;
      return true;
    case In::Arg:
      switch (argField_) {
      case ArgIndex: return v >= Int32Min && v <= Int32Max && ((arg_.index = static_cast<int>(v)), true);
      case ArgOffset: return v >= 0 && ((arg_.offset = v), true);
      case ArgSize: return v >= 0 && ((arg_.size = v), true);
      case ArgValue: return (arg_.value = v), true;
      default: return false;
      }
    case In::Metrics: return metric(static_cast<double>(v));
    default: return false;
    }
  }
  bool unsignedField(uint64_t v) {
    (field_ == Context ? l_.context : l_.stream) = v;
    return true;
  }
  bool metric(double v) {
    if (!(v >= 0) || v > std::numeric_limits<double>::max())
      return false;
    l_.metrics.emplace(std::move(metricName_), v);
    return true;
  }

  Launch &l_;
  In place_ = In::Top;
  bool done_ = false;
  uint32_t seen_ = 0;
  Field field_ = Other;
  Dim3 *dim_ = nullptr;
  int dimCount_ = 0;
  KernelArgument arg_;
  uint32_t argSeen_ = 0;
  ArgField argField_ = ArgField(0);
  std::string metricName_;
};

/// A JSON reader for the shape of a launch record, several times faster than a general one: strings are
/// taken as views of the line, numbers read in place. It is stricter than JSON, never looser: a string with
/// an escape, a control character or a byte outside ASCII, a number out of its type's range, nesting
/// deeper than a record's, or anything after the record, and it gives up (the line goes to launchFrom,
/// which reads all of JSON and says what is wrong).
class JsonScanner {
public:
  JsonScanner(std::string_view text, LaunchEvents &events) : s_(text), events_(events) {}

  bool record() {
    space();
    if (!value(0))
      return false;
    space();
    return at_ == s_.size();
  }

private:
  static constexpr int MaxDepth = 3; // record, args, one argument

  void space() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t' || s_[at_] == '\n' || s_[at_] == '\r'))
      ++at_;
  }
  bool take(char c) {
    if (at_ < s_.size() && s_[at_] == c)
      return ++at_, true;
    return false;
  }
  bool isDigit() const { return at_ < s_.size() && s_[at_] >= '0' && s_[at_] <= '9'; }
  bool word(std::string_view w) {
    if (s_.substr(at_, w.size()) != w)
      return false;
    at_ += w.size();
    return true;
  }

  bool value(int depth) {
    if (at_ >= s_.size())
      return false;
    switch (s_[at_]) {
    case '{': return depth < MaxDepth && object(depth + 1);
    case '[': return depth < MaxDepth && array(depth + 1);
    case '"': {
      std::string_view text;
      return string(text) && events_.string(text);
    }
    case 't': return word("true") && events_.boolean(true);
    case 'f': return word("false") && events_.boolean(false);
    case 'n': return word("null") && events_.null();
    default: return number();
    }
  }

  bool object(int depth) {
    ++at_;
    if (!events_.start_object())
      return false;
    space();
    if (take('}'))
      return events_.end_object();
    for (;;) {
      std::string_view name;
      space();
      if (!string(name) || !events_.key(name))
        return false;
      space();
      if (!take(':'))
        return false;
      space();
      if (!value(depth))
        return false;
      space();
      if (take('}'))
        return events_.end_object();
      if (!take(','))
        return false;
    }
  }

  bool array(int depth) {
    ++at_;
    if (!events_.start_array())
      return false;
    space();
    if (take(']'))
      return events_.end_array();
    for (;;) {
      space();
      if (!value(depth))
        return false;
      space();
      if (take(']'))
        return events_.end_array();
      if (!take(','))
        return false;
    }
  }

  bool string(std::string_view &text) {
    if (!take('"'))
      return false;
    size_t start = at_;
    for (; at_ < s_.size(); ++at_) {
      auto c = static_cast<unsigned char>(s_[at_]);
      if (c == '"') {
        text = s_.substr(start, at_ - start);
        ++at_;
        return true;
      }
      if (c == '\\' || c < 0x20 || c >= 0x80)
        return false;
    }
    return false;
  }

  /// JSON's number grammar; integers as nlohmann reads them (unsigned when not negative), the rest as double.
  bool number() {
    size_t start = at_;
    bool negative = take('-');
    if (take('0')) {
      if (isDigit())
        return false; // a leading zero
    } else if (!isDigit()) {
      return false;
    }
    while (isDigit())
      ++at_;
    bool fraction = false;
    if (take('.')) {
      fraction = true;
      if (!isDigit())
        return false;
      while (isDigit())
        ++at_;
    }
    if (take('e') || take('E')) {
      fraction = true;
      if (!take('+'))
        take('-');
      if (!isDigit())
        return false;
      while (isDigit())
        ++at_;
    }
    const char *first = s_.data() + start, *last = s_.data() + at_;
    if (fraction) {
      double v;
      auto [end, error] = std::from_chars(first, last, v);
      return error == std::errc() && end == last && events_.number_float(v);
    }
    if (negative) {
      int64_t v;
      auto [end, error] = std::from_chars(first, last, v);
      return error == std::errc() && end == last && events_.number_integer(v);
    }
    uint64_t v;
    auto [end, error] = std::from_chars(first, last, v);
    return error == std::errc() && end == last && events_.number_unsigned(v);
  }

  std::string_view s_;
  size_t at_ = 0;
  LaunchEvents &events_;
};

} // namespace

std::optional<Launch> parseLaunchQuickly(std::string_view line) {
  Launch launch;
  LaunchEvents events(launch);
  if (!JsonScanner(line, events).record() || !events.complete())
    return std::nullopt;
  return launch;
}

} // namespace roofcheck
