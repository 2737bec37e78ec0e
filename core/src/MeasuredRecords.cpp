#include "roofcheck/MeasuredRecords.h"

#include "MeasuredFields.h"

#include <array>
#include <charconv>

namespace roofcheck {

std::string littleEndianHex(int64_t value, int64_t size) {
  static const char digits[] = "0123456789abcdef";
  auto raw = static_cast<uint64_t>(value);
  std::string hex;
  for (int64_t i = 0; i < size; ++i, raw >>= 8) {
    hex.push_back(digits[(raw >> 4) & 0xf]);
    hex.push_back(digits[raw & 0xf]);
  }
  return hex;
}

namespace {

// Written straight into the text, field by field: the shim writes a record for every launch of the
// program. The output is what nlohmann would write for the same values.
class RecordText {
public:
  explicit RecordText(std::string &out) : out_(out) {}

  template <typename Field> void field(Field f) {
    out_ += first_ ? "{\"" : ",\"";
    first_ = false;
    out_ += measured::nameOf(f);
    out_ += "\":";
  }
  void end() { out_ += "}\n"; }

  template <typename Integer> void integer(Integer value) {
    char text[24];
    auto [end, ec] = std::to_chars(text, text + sizeof text, value);
    out_.append(text, end);
  }
  /// Plain ASCII goes between quotes as is; anything else (escapes, UTF-8, invalid bytes) through
  /// nlohmann, which replaces invalid bytes.
  void string(std::string_view text) {
    for (unsigned char c : text)
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
        out_ += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
        return;
      }
    out_.push_back('"');
    out_ += text;
    out_.push_back('"');
  }
  /// A JSON array of items, each written by write(item).
  template <typename Items, typename Write> void array(const Items &items, Write write) {
    out_.push_back('[');
    bool first = true;
    for (const auto &item : items) {
      if (!first)
        out_.push_back(',');
      first = false;
      write(item);
    }
    out_.push_back(']');
  }
  void dim3(const Dim3 &d) {
    array(d, [this](int64_t v) { integer(v); });
  }
  void raw(std::string_view text) { out_ += text; }

private:
  std::string &out_;
  bool first_ = true;
};

bool isDefault(const Dim3 &d) { return d == Dim3{1, 1, 1}; }

/// What a launch record says of one argument: the argument record that holds its bytes, its value where
/// the bytes are that integer (the reader makes the bytes again), else its bytes in hex; null for one too
/// large to write here.
void appendArgument(RecordText &text, const KernelArgument &a, std::optional<int64_t> record) {
  if (record) {
    text.raw("{");
    text.string(measured::ArgumentReferenceKey);
    text.raw(":");
    text.integer(*record);
    text.raw("}");
  } else if (a.size > RecordedArgumentBytes)
    text.raw("null");
  else if (a.value && littleEndianHex(*a.value, a.size) == a.hex)
    text.integer(*a.value);
  else
    text.string(a.hex);
}

void appendKernelRecord(std::string &out, int64_t id, const Launch &l,
                        const std::vector<std::optional<std::pair<int64_t, int64_t>>> &params) {
  using measured::KernelField;
  RecordText text(out);
  for (size_t i = 0; i < measured::KernelFieldNames.size(); ++i) {
    auto f = static_cast<KernelField>(i);
    text.field(f);
    switch (f) {
    case KernelField::Record: text.string(measured::KernelRecord); break;
    case KernelField::Id: text.integer(id); break;
    case KernelField::Name: text.string(l.name); break;
    case KernelField::Mangled: text.string(l.mangled); break;
    case KernelField::Registers: text.integer(l.registers); break;
    case KernelField::SharedStatic: text.integer(l.sharedStatic); break;
    case KernelField::Params:
      text.array(params, [&](const std::optional<std::pair<int64_t, int64_t>> &p) {
        if (!p)
          return text.raw("null");
        text.array(std::array{p->first, p->second}, [&](int64_t v) { text.integer(v); });
      });
      break;
    }
  }
  text.end();
}

void appendMetrics(RecordText &text, const std::map<std::string, double> &metrics) {
  text.raw("{");
  bool first = true;
  for (const auto &[name, value] : metrics) {
    if (!first)
      text.raw(",");
    first = false;
    text.string(name);
    text.raw(":");
    text.raw(Json(value).dump()); // nlohmann's shortest round-trip form of a double
  }
  text.raw("}");
}

} // namespace

void appendLaunchRecord(std::string &out, int64_t kernel, const Launch &l,
                        const std::vector<std::optional<int64_t>> &argumentRecords) {
  using measured::LaunchField;
  std::vector<const KernelArgument *> args; // by parameter index, null where the launch carries none
  for (const KernelArgument &a : l.args)
    if (a.index >= 0) {
      if (args.size() <= static_cast<size_t>(a.index))
        args.resize(static_cast<size_t>(a.index) + 1);
      args[static_cast<size_t>(a.index)] = &a;
    }
  auto recordOf = [&](size_t index) {
    return index < argumentRecords.size() ? argumentRecords[index] : std::nullopt;
  };
  while (!args.empty() &&
         (!args.back() || (args.back()->size > RecordedArgumentBytes && !recordOf(args.size() - 1))))
    args.pop_back(); // a null at the end says nothing
  RecordText text(out);
  for (size_t i = 0; i < measured::LaunchFieldNames.size(); ++i) {
    auto f = static_cast<LaunchField>(i);
    switch (f) { // an optional field at its default is left out
    case LaunchField::Cluster: if (isDefault(l.cluster)) continue; break;
    case LaunchField::SharedDynamic: if (l.sharedDynamic == 0) continue; break;
    case LaunchField::Args: if (args.empty()) continue; break;
    case LaunchField::Nvtx: if (l.nvtx.empty()) continue; break;
    case LaunchField::DurationNs: if (!l.durationNs) continue; break;
    case LaunchField::Profiled: if (!l.profiled) continue; break;
    case LaunchField::ReplayPasses: if (!l.replayPasses) continue; break;
    case LaunchField::Metrics: if (l.metrics.empty()) continue; break;
    case LaunchField::Sampled: if (l.sampled.empty()) continue; break;
    case LaunchField::SampledShared: if (!l.sampledShared) continue; break;
    default: break;
    }
    text.field(f);
    switch (f) {
    case LaunchField::Record: text.string(measured::LaunchRecord); break;
    case LaunchField::Index: text.integer(l.index); break;
    case LaunchField::Kernel: text.integer(kernel); break;
    case LaunchField::Device: text.integer(l.device); break;
    case LaunchField::Context: text.integer(l.context); break;
    case LaunchField::Stream: text.integer(l.stream); break;
    case LaunchField::Grid: text.dim3(l.grid); break;
    case LaunchField::Block: text.dim3(l.block); break;
    case LaunchField::Cluster: text.dim3(l.cluster); break;
    case LaunchField::SharedDynamic: text.integer(l.sharedDynamic); break;
    case LaunchField::Args:
      text.array(args, [&](const KernelArgument *a) {
        if (a)
          appendArgument(text, *a, recordOf(static_cast<size_t>(a->index)));
        else
          text.raw("null");
      });
      break;
    case LaunchField::Nvtx:
      text.array(l.nvtx, [&](const std::string &range) { text.string(range); });
      break;
    case LaunchField::DurationNs: text.integer(*l.durationNs); break;
    case LaunchField::Profiled: text.raw("true"); break;
    case LaunchField::ReplayPasses: text.integer(*l.replayPasses); break;
    case LaunchField::Metrics: appendMetrics(text, l.metrics); break;
    case LaunchField::Sampled: appendMetrics(text, l.sampled); break;
    case LaunchField::SampledShared: text.raw("true"); break;
    }
  }
  text.end();
}

void MeasuredRecordWriter::append(std::string &out, const Launch &l) {
  Layout params;
  for (const KernelArgument &a : l.args)
    if (a.index >= 0) {
      if (params.size() <= static_cast<size_t>(a.index))
        params.resize(static_cast<size_t>(a.index) + 1);
      params[static_cast<size_t>(a.index)] = std::pair{a.offset, a.size};
    }
  std::vector<Kernel> &sameName = kernels_[l.mangled];
  Kernel *kernel = nullptr;
  for (auto it = sameName.rbegin(); it != sameName.rend() && !kernel; ++it)
    if (it->name == l.name && it->registers == l.registers && it->sharedStatic == l.sharedStatic &&
        (l.args.empty() || it->params == params))
      kernel = &*it;
  if (!kernel) {
    sameName.push_back({nextId_++, l.name, l.registers, l.sharedStatic, params});
    kernel = &sameName.back();
    appendKernelRecord(out, kernel->id, l, params);
  }
  std::vector<std::optional<int64_t>> argumentRecords; // by parameter index
  for (const KernelArgument &a : l.args)
    if (a.index >= 0 && a.size > RecordedArgumentBytes && a.size <= ArgumentRecordBytes &&
        static_cast<int64_t>(a.hex.size()) == 2 * a.size &&
        a.hex.find_first_not_of("0123456789abcdef") == std::string::npos)
      if (std::optional<int64_t> id = argumentRecord(out, *kernel, a.hex)) {
        if (argumentRecords.size() <= static_cast<size_t>(a.index))
          argumentRecords.resize(static_cast<size_t>(a.index) + 1);
        argumentRecords[static_cast<size_t>(a.index)] = id;
      }
  appendLaunchRecord(out, kernel->id, l, argumentRecords);
}

std::optional<int64_t> MeasuredRecordWriter::argumentRecord(std::string &out, Kernel &kernel, const std::string &hex) {
  if (auto it = arguments_.find(hex); it != arguments_.end())
    return it->second;
  auto bytes = static_cast<int64_t>(hex.size() / 2);
  if (kernel.argumentBytes + bytes > ArgumentBytesPerKernel)
    return std::nullopt;
  kernel.argumentBytes += bytes;
  auto id = static_cast<int64_t>(arguments_.size());
  arguments_.emplace(hex, id);
  using measured::ArgumentField;
  RecordText text(out);
  for (size_t i = 0; i < measured::ArgumentFieldNames.size(); ++i) {
    auto f = static_cast<ArgumentField>(i);
    text.field(f);
    switch (f) {
    case ArgumentField::Record: text.string(measured::ArgumentRecord); break;
    case ArgumentField::Id: text.integer(id); break;
    case ArgumentField::Bytes: text.string(hex); break;
    }
  }
  text.end();
  return id;
}

} // namespace roofcheck
