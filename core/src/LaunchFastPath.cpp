#include "LaunchFastPath.h"

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

class LaunchSax : public nlohmann::json_sax<nlohmann::json> {
public:
  explicit LaunchSax(Launch &launch) : l_(launch) {}
  bool complete() const { return done_ && (seen_ & Required) == Required; }

  bool null() override {
    if (place_ == In::Record) // an optional field given as null: absent
      return field_ == Args || field_ == Nvtx || field_ == Duration || field_ == ReplayPasses || field_ == Metrics ||
             field_ == Other;
    return place_ == In::Arg && argField_ == ArgValue;
  }
  bool boolean(bool value) override {
    if (place_ != In::Record || field_ != Profiled)
      return field_ == Other && place_ == In::Record;
    l_.profiled = value;
    return true;
  }
  bool number_integer(number_integer_t value) override { return integer(value); }
  bool number_unsigned(number_unsigned_t value) override {
    if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
      return place_ == In::Record && (field_ == Context || field_ == Stream) ? unsignedField(value) : false;
    return integer(static_cast<int64_t>(value));
  }
  bool number_float(number_float_t value, const string_t &) override {
    if (place_ == In::Metrics)
      return metric(value);
    return place_ == In::Record && field_ == Other;
  }
  bool string(string_t &value) override {
    if (place_ == In::Record) {
      switch (field_) {
      case Record: return value == "launch";
      case Name: l_.name = std::move(value); return true;
      case Mangled: l_.mangled = std::move(value); return true;
      case Other: return true;
      default: return false;
      }
    }
    if (place_ == In::Arg && argField_ == ArgHex) {
      arg_.hex = std::move(value);
      return true;
    }
    if (place_ == In::Nvtx) {
      l_.nvtx.push_back(std::move(value));
      return true;
    }
    return false;
  }
  bool binary(binary_t &) override { return false; }
  bool start_object(std::size_t) override {
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
  bool key(string_t &name) override {
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
        if (std::string_view(name) == n)
          argField_ = f;
      if (argField_ && (argSeen_ & argField_))
        return false;
      argSeen_ |= argField_;
      return true;
    }
    if (place_ == In::Metrics) {
      metricName_ = std::move(name);
      return !l_.metrics.count(metricName_);
    }
    return false;
  }
  bool end_object() override {
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
  bool start_array(std::size_t) override {
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
  bool end_array() override {
    if (place_ == In::Dim && dimCount_ != 3)
      return false;
    if (place_ != In::Dim && place_ != In::Args && place_ != In::Nvtx)
      return false;
    return (place_ = In::Record), true;
  }
  bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &) override { return false; }

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

} // namespace

std::optional<Launch> parseLaunchQuickly(std::string_view line) {
  Launch launch;
  LaunchSax sax(launch);
  if (!nlohmann::json::sax_parse(line, &sax, nlohmann::json::input_format_t::json, /*strict=*/true) ||
      !sax.complete())
    return std::nullopt;
  return launch;
}

} // namespace roofcheck
