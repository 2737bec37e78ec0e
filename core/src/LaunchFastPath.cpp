#include "LaunchFastPath.h"

#include "MeasuredFields.h"

#include <charconv>
#include <cstdint>
#include <limits>
#include <map>
#include <string_view>

namespace roofcheck {

namespace {

using measured::LaunchField;

uint32_t bit(LaunchField f) { return 1u << static_cast<uint32_t>(f); }

/// The required fields: every one before the first optional one.
const uint32_t Required = bit(measured::FirstOptionalLaunchField) - 1;

constexpr int64_t Int32Min = std::numeric_limits<int32_t>::min(), Int32Max = std::numeric_limits<int32_t>::max();

/// The record's events, in nlohmann's SAX vocabulary (JsonScanner below sends them): each returns false
/// for what it does not take, and the line goes to launchFromCompact.
class LaunchEvents {
public:
  LaunchEvents(Launch &launch, int64_t &kernel, std::vector<ArgumentReference> &references)
      : l_(launch), kernel_(kernel), references_(references) {}
  bool complete() const { return done_ && (seen_ & Required) == Required; }

  bool null() {
    if (place_ == In::Record) // an optional field given as null: absent
      return !field_ || *field_ >= measured::FirstOptionalLaunchField;
    if (place_ == In::Args) // an argument not recorded
      return ++argIndex_, true;
    return false;
  }
  bool boolean(bool value) {
    if (place_ != In::Record)
      return false;
    if (!field_)
      return true;
    if (*field_ == LaunchField::Profiled)
      l_.profiled = value;
    else if (*field_ == LaunchField::SampledShared)
      l_.sampledShared = value;
    else
      return false;
    return true;
  }
  bool number_integer(int64_t value) { return integer(value); }
  bool number_unsigned(uint64_t value) {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return place_ == In::Record && (field_ == LaunchField::Context || field_ == LaunchField::Stream)
                 ? unsignedField(value)
                 : false;
    return integer(static_cast<int64_t>(value));
  }
  bool number_float(double value) {
    if (place_ == In::Metrics)
      return metric(value);
    return place_ == In::Record && !field_;
  }
  bool string(std::string_view value) {
    switch (place_) {
    case In::Record: return !field_ || (field_ == LaunchField::Record && value == measured::LaunchRecord);
    case In::Args: return argument().hex = value, true;
    case In::Nvtx: return l_.nvtx.emplace_back(value), true;
    default: return false;
    }
  }
  bool start_object() {
    if (place_ == In::Top && !done_)
      return (place_ = In::Record), true;
    if (place_ == In::Record && (field_ == LaunchField::Metrics || field_ == LaunchField::Sampled)) {
      counts_ = field_ == LaunchField::Metrics ? &l_.metrics : &l_.sampled;
      return (place_ = In::Metrics), true;
    }
    if (place_ == In::Args) // an argument record's id: {"argument": id}
      return (place_ = In::Reference), true;
    return false; // an object in an unknown field: launchFromCompact's business
  }
  bool key(std::string_view name) {
    if (place_ == In::Record) {
      field_ = measured::fieldNamed<LaunchField>(measured::LaunchFieldNames, name);
      if (field_ && (seen_ & bit(*field_)))
        return false;
      if (field_)
        seen_ |= bit(*field_);
      return true;
    }
    if (place_ == In::Metrics) {
      metricName_ = name;
      return !counts_->count(metricName_);
    }
    if (place_ != In::Reference || name != measured::ArgumentReferenceKey || reference_ != Reference::Opened)
      return false;
    return (reference_ = Reference::Keyed), true;
  }
  bool end_object() {
    if (place_ == In::Metrics)
      return (place_ = In::Record), true;
    if (place_ == In::Reference) {
      if (reference_ != Reference::Read)
        return false;
      reference_ = Reference::Opened;
      return (place_ = In::Args), true;
    }
    if (place_ == In::Record) {
      done_ = true;
      return (place_ = In::Top), true;
    }
    return false;
  }
  bool start_array() {
    if (place_ != In::Record || !field_)
      return false;
    switch (*field_) {
    case LaunchField::Grid: dim_ = &l_.grid; break;
    case LaunchField::Block: dim_ = &l_.block; break;
    case LaunchField::Cluster: dim_ = &l_.cluster; break;
    case LaunchField::Args: return (place_ = In::Args), true;
    case LaunchField::Nvtx: return (place_ = In::Nvtx), true;
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
  enum class In { Top, Record, Dim, Args, Reference, Nvtx, Metrics };
  enum class Reference { Opened, Keyed, Read }; ///< how far into {"argument": id}

  KernelArgument &argument() {
    KernelArgument &a = l_.args.emplace_back();
    a.index = argIndex_++;
    return a;
  }
  bool integer(int64_t v) {
    switch (place_) {
    case In::Record:
      if (!field_)
        return true;
      switch (*field_) {
      case LaunchField::Index: return v >= 0 && ((l_.index = v), true);
      case LaunchField::Kernel: return v >= 0 && ((kernel_ = v), true);
      case LaunchField::Device: return v >= Int32Min && v <= Int32Max && ((l_.device = static_cast<int>(v)), true);
      case LaunchField::Context: case LaunchField::Stream: return v >= 0 && unsignedField(static_cast<uint64_t>(v));
      case LaunchField::SharedDynamic: return v >= 0 && ((l_.sharedDynamic = v), true);
      case LaunchField::DurationNs: return v >= 0 && ((l_.durationNs = v), true);
      case LaunchField::ReplayPasses: return v >= 1 && ((l_.replayPasses = v), true);
      default: return false;
      }
    case In::Dim:
      if (v < 1 || dimCount_ >= 3)
        return false;
      (*dim_)[dimCount_++] = v;
      return true;
    case In::Args: return argument().value = v, true;
    case In::Reference:
      if (v < 0 || reference_ != Reference::Keyed)
        return false;
      reference_ = Reference::Read;
      references_.push_back({argIndex_++, v});
      return true;
    case In::Metrics: return metric(static_cast<double>(v));
    default: return false;
    }
  }
  bool unsignedField(uint64_t v) {
    (field_ == LaunchField::Context ? l_.context : l_.stream) = v;
    return true;
  }
  bool metric(double v) {
    if (!(v >= 0) || v > std::numeric_limits<double>::max())
      return false;
    counts_->emplace(std::move(metricName_), v);
    return true;
  }

  Launch &l_;
  int64_t &kernel_;
  std::vector<ArgumentReference> &references_;
  In place_ = In::Top;
  bool done_ = false;
  uint32_t seen_ = 0;
  std::optional<LaunchField> field_;
  Dim3 *dim_ = nullptr;
  int dimCount_ = 0;
  int argIndex_ = 0;
  Reference reference_ = Reference::Opened;
  std::string metricName_;
  std::map<std::string, double> *counts_ = nullptr; ///< metrics or sampled, whichever object is open
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
  static constexpr int MaxDepth = 3; // the record, an array or the metrics in it, an argument's reference in args

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

std::optional<Launch> parseLaunchQuickly(std::string_view line, int64_t &kernel,
                                         std::vector<ArgumentReference> &references) {
  Launch launch;
  references.clear();
  LaunchEvents events(launch, kernel, references);
  if (!JsonScanner(line, events).record() || !events.complete()) {
    references.clear();
    return std::nullopt;
  }
  return launch;
}

} // namespace roofcheck
