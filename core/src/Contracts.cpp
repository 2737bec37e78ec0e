#include "roofcheck/Contracts.h"

#include "LaunchFastPath.h"
#include "MeasuredFields.h"

#include "roofcheck/MeasuredRecords.h"
#include "roofcheck/Metrics.h"
#include "roofcheck/Roofline.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <deque>
#include <fstream>
#include <future>
#include <iterator>
#include <sstream>
#include <tuple>
#include <unordered_map>

namespace roofcheck {

std::string deviceUuidText(const char (&bytes)[16]) {
  char text[64];
  const auto *b = reinterpret_cast<const unsigned char *>(bytes);
  std::snprintf(text, sizeof text, "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
  return text;
}

// ------------------------------------------------------------------------------------ helpers

namespace {

Json optionalJson(const std::optional<double> &v) { return v ? Json(*v) : Json(nullptr); }
Json optionalJson(const std::optional<int64_t> &v) { return v ? Json(*v) : Json(nullptr); }
Json optionalJson(const std::optional<std::string> &v) { return v ? Json(*v) : Json(nullptr); }
Json optionalJson(const std::optional<bool> &v) { return v ? Json(*v) : Json(nullptr); }

std::optional<bool> optionalBoolean(const FieldReader &r, const std::string &key) {
  if (!r.has(key) || r.json().at(key).is_null())
    return std::nullopt;
  return r.boolean(key);
}

Json toJson(const Quantity &q) {
  Json out{{"expr", q.known() ? Json(q.expr) : Json(nullptr)}, {"value", optionalJson(q.value)}};
  if (!q.knownWhen.empty())
    out["known_when"] = q.knownWhen;
  return out;
}

/// A quantity by name (special by operation, tensor by source type) as a JSON object.
Json namedQuantitiesJson(const std::map<std::string, Quantity> &quantities) {
  Json out = Json::object();
  for (const auto &[name, quantity] : quantities)
    out[name] = toJson(quantity);
  return out;
}

Expr parsedField(const FieldReader &r, const std::string &key, const std::string &text) {
  try {
    return Expr::parse(text);
  } catch (const ParseError &e) {
    r.fail(key, std::string("not an expression: ") + e.what());
  }
}

Quantity quantityFrom(const FieldReader &parent, const std::string &key) {
  FieldReader r = parent.object(key);
  Quantity q;
  if (auto expr = r.optionalString("expr")) {
    Expr parsed = parsedField(r, "expr", *expr);
    // FLOPs, bytes and intensities are counts and ratios of counts: a negative constant is a corrupt document.
    // A constant without a value (1 / 0, an overflow) is no count either.
    if (parsed.symbols().empty()) {
      double constant = 0;
      try {
        constant = parsed.evaluate({}).toDouble();
      } catch (const Error &e) {
        r.fail("expr", "has no value: " + std::string(e.what()) + " in " + *expr);
      }
      if (constant < 0)
        r.fail("expr", "must not be negative, found " + *expr);
    }
    q.expr = *expr;
  } else if (!r.has("expr")) {
    r.fail("expr", "missing");
  }
  if (auto knownWhen = r.optionalString("known_when")) {
    parsedField(r, "known_when", *knownWhen);
    q.knownWhen = *knownWhen;
  }
  q.value = r.optionalNumber("value");
  if (q.value && *q.value < 0)
    r.fail("value", "must not be negative");
  return q;
}

/// The quantities of the optional object `key`, by name; none where it is absent.
std::map<std::string, Quantity> namedQuantitiesFrom(const FieldReader &parent, const std::string &key) {
  std::map<std::string, Quantity> quantities;
  if (std::optional<FieldReader> named = parent.optionalObject(key))
    for (const auto &[name, value] : named->json().items())
      quantities.emplace(name, quantityFrom(*named, name));
  return quantities;
}

Json toJson(const Dim3 &d) { return Json::array({d[0], d[1], d[2]}); }

Dim3 dim3From(const FieldReader &r, const std::string &key) {
  const Json &v = r.raw(key);
  if (!v.is_array() || v.size() != 3)
    r.fail(key, "must be an array of three positive integers");
  Dim3 d{};
  for (size_t i = 0; i < 3; ++i) {
    if (!v[i].is_number_integer() || v[i].get<int64_t>() < 1)
      r.fail(key, "must be an array of three positive integers");
    d[i] = v[i].get<int64_t>();
  }
  return d;
}

int64_t nonNegativeInteger(const FieldReader &r, const std::string &key) {
  int64_t v = r.integer(key);
  if (v < 0)
    r.fail(key, "must not be negative, found " + std::to_string(v));
  return v;
}

int intField(const FieldReader &r, const std::string &key) {
  int64_t v = r.integer(key);
  if (v < INT32_MIN || v > INT32_MAX)
    r.fail(key, "out of range");
  return static_cast<int>(v);
}

template <typename Document, typename FromJson>
Document loadDocument(const std::string &path, const char *schema, FromJson fromJson) {
  Json json = readJsonFile(path);
  requireSchema(json, schema, path);
  try {
    return fromJson(json, path);
  } catch (const Error &e) {
    std::string message = e.what();
    if (message.rfind(path, 0) == 0)
      throw;
    throw Error(path + ": " + message);
  }
}

Json toJson(const ClockSample &c) {
  return Json{{"sm_mhz", optionalJson(c.smMHz)}, {"memory_mhz", optionalJson(c.memoryMHz)}};
}

ClockSample clocksFrom(const FieldReader &parent, const std::string &key) {
  ClockSample c;
  if (auto r = parent.optionalObject(key)) {
    c.smMHz = r->optionalNumber("sm_mhz");
    c.memoryMHz = r->optionalNumber("memory_mhz");
  }
  return c;
}

Json toJson(const DeviceInfo &d) {
  return Json{{"index", d.index},
              {"name", d.name},
              {"uuid", d.uuid},
              {"compute_capability", d.computeCapability},
              {"multiprocessors", d.multiprocessors},
              {"l2_bytes", d.l2Bytes},
              {"memory_bytes", d.memoryBytes}};
}

DeviceInfo deviceFrom(const FieldReader &r) {
  DeviceInfo d;
  d.index = intField(r, "index");
  d.name = r.string("name");
  d.uuid = r.optionalString("uuid").value_or("");
  d.computeCapability = r.string("compute_capability");
  d.multiprocessors = intField(r, "multiprocessors");
  d.l2Bytes = nonNegativeInteger(r, "l2_bytes");
  d.memoryBytes = r.has("memory_bytes") ? nonNegativeInteger(r, "memory_bytes") : 0;
  return d;
}

} // namespace

std::string dimText(const Dim3 &d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

Quantity Quantity::of(const Expr &e, const Bindings &bindings, const std::optional<Expr> &knownWhen) {
  Quantity q;
  q.expr = e.simplified().str();
  if (knownWhen) // as the writer gives it: simplifying would multiply out its products of tests
    q.knownWhen = knownWhen->str();
  // Text longer than the parser reads would make the whole document unreadable: unknown instead, and the
  // writer says why (lint records it among the kernel's unknowns).
  if (q.expr.size() > Expr::MaxTextLength || q.knownWhen.size() > Expr::MaxTextLength)
    return unknown();
  q.value = q.evaluate(bindings);
  return q;
}

std::optional<double> Quantity::evaluate(const Bindings &bindings) const {
  std::string ignored;
  return evaluate(bindings, &ignored);
}

namespace {

/// A formula's value at bindings; nullopt with *why when a symbol is unbound or it has none.
std::optional<double> formulaValue(const std::string &formula, const Bindings &bindings, std::string *why) {
  try {
    return Expr::parse(formula).evaluate(bindings).toDouble();
  } catch (const UnboundSymbolsError &e) {
    *why = "needs ";
    for (const std::string &name : e.names())
      *why += (why->size() > 6 ? ", " : "") + name;
  } catch (const Error &e) {
    *why = e.what();
  }
  return std::nullopt;
}

} // namespace

std::optional<double> Quantity::evaluate(const Bindings &bindings, std::string *why) const {
  why->clear();
  if (!known())
    return std::nullopt;
  std::optional<double> value = formulaValue(expr, bindings, why);
  if (!value)
    return std::nullopt;
  // A formula such as n - 2 evaluated for n = 1: a count below zero is no count.
  if (*value < 0) {
    std::ostringstream text;
    text << "negative (" << *value << ")";
    *why = text.str();
    return std::nullopt;
  }
  if (!knownWhen.empty()) {
    std::optional<double> holds = formulaValue(knownWhen, bindings, why);
    if (!holds || *holds == 0)
      return std::nullopt;
  }
  return value;
}

// ----------------------------------------------------------------------------------- static/1

bool dividesBy(int64_t multiplier, int64_t shift, int64_t divisor) {
  constexpr int64_t Max32 = (int64_t{1} << 32) - 1;
  if (multiplier < 0 || multiplier > Max32 || shift < 0 || shift > 32 || divisor < 1 || divisor > Max32)
    return false;
  // n * M / 2^k rounds down to n / d for every n < 2^32 when the error e = M * d - 2^k is in [0, 2^(k - 32)]: the
  // fraction n * e / (d * 2^k) it adds to (n mod d) / d stays below 1 / d (Granlund and Montgomery's bound).
  using Wide = unsigned __int128;
  Wide product = ((Wide{1} << 32) + static_cast<Wide>(multiplier)) * static_cast<Wide>(divisor);
  Wide power = Wide{1} << (32 + shift);
  return product >= power && product - power <= (Wide{1} << shift);
}

std::set<std::string> failedDivisionSymbols(const std::vector<MagicDivision> &divisions, const Bindings &bindings,
                                            std::string *first) {
  std::set<std::string> failed;
  for (const MagicDivision &d : divisions) {
    auto multiplier = bindings.find(d.multiplier), shift = bindings.find(d.shift), divisor = bindings.find(d.divisor);
    if (multiplier == bindings.end() || shift == bindings.end() || divisor == bindings.end())
      continue;
    auto integral = [](const Number &n) { return n.isInteger(); };
    if (integral(multiplier->second) && integral(shift->second) && integral(divisor->second) &&
        dividesBy(multiplier->second.integer(), shift->second.integer(), divisor->second.integer()))
      continue;
    if (first && failed.empty())
      *first = d.multiplier + " = " + multiplier->second.str() + " and " + d.shift + " = " + shift->second.str() +
               " do not divide by " + d.divisor + " = " + divisor->second.str();
    failed.insert({d.multiplier, d.shift, d.divisor});
  }
  return failed;
}

namespace {

/// quantitiesOf for a kernel and a const one alike.
template <typename Kernel> auto quantitiesIn(Kernel &kernel) {
  std::vector<decltype(&kernel.flops.total)> all = {
      &kernel.flops.total,     &kernel.flops.fp64,   &kernel.flops.fp32,      &kernel.flops.fp16,
      &kernel.flops.bf16,      &kernel.flops.tensor, &kernel.flops.special,   &kernel.bytes.read,
      &kernel.bytes.write,     &kernel.bytes.ideal,  &kernel.bytes.predicted, &kernel.intensity.ideal,
      &kernel.intensity.predicted};
  for (auto &[operation, q] : kernel.flops.specialByOperation)
    all.push_back(&q);
  for (auto &[type, q] : kernel.flops.tensorByType)
    all.push_back(&q);
  return all;
}

} // namespace

std::vector<Quantity *> quantitiesOf(StaticKernel &kernel) { return quantitiesIn(kernel); }
std::vector<const Quantity *> quantitiesOf(const StaticKernel &kernel) { return quantitiesIn(kernel); }

std::set<std::string> namedSymbols(const StaticKernel &kernel) {
  std::set<std::string> named;
  for (const Quantity *q : quantitiesOf(kernel))
    if (q->known()) {
      named.merge(Expr::parse(q->expr).symbols());
      if (!q->knownWhen.empty())
        named.merge(Expr::parse(q->knownWhen).symbols());
    }
  return named;
}

Json toJson(const StaticDocument &doc) {
  Json kernels = Json::array();
  for (const StaticKernel &k : doc.kernels) {
    Json params = Json::array();
    for (const KernelParam &p : k.params) {
      params.push_back({{"index", p.index}, {"name", p.name}, {"type", p.type}, {"size", p.size}});
      if (p.fields.empty())
        continue;
      Json fields = Json::array();
      for (const ParamField &f : p.fields)
        fields.push_back({{"name", f.name}, {"type", f.type}, {"offset", f.offset}, {"size", f.size}});
      params.back()["fields"] = fields;
    }
    Json accesses = Json::array();
    for (const GlobalAccess &a : k.accesses)
      accesses.push_back({{"pointer", a.pointer},
                          {"file", a.file},
                          {"line", a.line},
                          {"column", a.column},
                          {"kind", a.kind},
                          {"stride_bytes", optionalJson(a.strideBytes)},
                          {"sectors_per_request", optionalJson(a.sectorsPerRequest)},
                          {"coalesced", optionalJson(a.coalesced)}});
    Json unknowns = Json::array();
    for (const Unknown &u : k.unknowns) {
      unknowns.push_back({{"reason", u.reason},
                          {"file", u.file},
                          {"line", u.line},
                          {"column", u.column},
                          {"cause", unknownCauseName(u.cause)}});
      if (!u.origin.empty())
        unknowns.back()["origin"] = u.origin;
      if (!u.when.empty())
        unknowns.back()["when"] = u.when;
    }
    Json claims = Json::array();
    for (const ClaimSource &c : k.claims)
      claims.push_back({{"text", c.text}, {"file", c.file}, {"line", c.line}, {"column", c.column}});
    kernels.push_back({{"name", k.name},
                       {"mangled", k.mangled},
                       {"file", k.file},
                       {"line", k.line},
                       {"params", params},
                       {"flops",
                        {{"total", toJson(k.flops.total)},
                         {"fp64", toJson(k.flops.fp64)},
                         {"fp32", toJson(k.flops.fp32)},
                         {"fp16", toJson(k.flops.fp16)},
                         {"bf16", toJson(k.flops.bf16)},
                         {"tensor", toJson(k.flops.tensor)},
                         {"special", toJson(k.flops.special)},
                         {"special_operations", namedQuantitiesJson(k.flops.specialByOperation)}}},
                       {"bytes",
                        {{"read", toJson(k.bytes.read)},
                         {"write", toJson(k.bytes.write)},
                         {"ideal", toJson(k.bytes.ideal)},
                         {"predicted", toJson(k.bytes.predicted)}}},
                       {"intensity", {{"ideal", toJson(k.intensity.ideal)}, {"predicted", toJson(k.intensity.predicted)}}},
                       {"accesses", accesses},
                       {"unknowns", unknowns},
                       {"claims", claims}});
    if (!k.divisions.empty()) {
      Json divisions = Json::array();
      for (const MagicDivision &d : k.divisions)
        divisions.push_back({{"multiplier", d.multiplier},
                             {"shift", d.shift},
                             {"divisor", d.divisor},
                             {"file", d.file},
                             {"line", d.line},
                             {"column", d.column}});
      kernels.back()["divisions"] = divisions;
    }
    if (!k.flops.tensorByType.empty())
      kernels.back()["flops"]["tensor_by_type"] = namedQuantitiesJson(k.flops.tensorByType);
    if (k.library)
      kernels.back()["library"] = true;
  }
  return Json{{"schema", StaticSchema}, {"generator", doc.generator}, {"arch", doc.arch}, {"kernels", kernels}};
}

std::string describeUnknown(const Unknown &unknown) {
  std::string text = unknown.origin.empty() ? unknown.reason : unknown.reason + " (inlined from " + unknown.origin + ")";
  return unknown.when.empty() ? text : text + ", only where " + unknown.when;
}

std::string unknownCauseName(UnknownCause cause) {
  switch (cause) {
  case UnknownCause::DataDependentLoop:
    return "data-dependent-loop";
  case UnknownCause::DataDependentBranch:
    return "data-dependent-branch";
  case UnknownCause::IndirectAccess:
    return "indirect-access";
  case UnknownCause::Analysis:
    break;
  }
  return "analysis";
}

StaticDocument staticFromJson(const Json &json, const std::string &source) {
  requireSchema(json, StaticSchema, source);
  FieldReader top(json, "");
  StaticDocument doc;
  doc.generator = top.string("generator");
  doc.arch = top.string("arch");
  for (const FieldReader &kr : top.array("kernels")) {
    StaticKernel k;
    k.name = kr.string("name");
    k.mangled = kr.string("mangled");
    k.file = kr.string("file");
    k.line = intField(kr, "line");
    for (const FieldReader &pr : kr.array("params")) {
      k.params.push_back({intField(pr, "index"), pr.string("name"), pr.string("type"), nonNegativeInteger(pr, "size"), {}});
      for (const FieldReader &fr : pr.optionalArray("fields"))
        k.params.back().fields.push_back(
            {fr.string("name"), fr.string("type"), nonNegativeInteger(fr, "offset"), nonNegativeInteger(fr, "size")});
    }
    FieldReader fr = kr.object("flops");
    k.flops = {quantityFrom(fr, "total"), quantityFrom(fr, "fp64"), quantityFrom(fr, "fp32"), quantityFrom(fr, "fp16"),
               quantityFrom(fr, "bf16"),  quantityFrom(fr, "tensor"), quantityFrom(fr, "special"),
               namedQuantitiesFrom(fr, "special_operations"), namedQuantitiesFrom(fr, "tensor_by_type")};
    FieldReader br = kr.object("bytes");
    k.bytes = {quantityFrom(br, "read"), quantityFrom(br, "write"), quantityFrom(br, "ideal"), quantityFrom(br, "predicted")};
    FieldReader ir = kr.object("intensity");
    k.intensity = {quantityFrom(ir, "ideal"), quantityFrom(ir, "predicted")};
    for (const FieldReader &ar : kr.array("accesses")) {
      GlobalAccess a;
      a.pointer = ar.string("pointer");
      a.file = ar.string("file");
      a.line = intField(ar, "line");
      a.column = intField(ar, "column");
      a.kind = ar.string("kind");
      if (a.kind != "load" && a.kind != "store" && a.kind != "atomic")
        ar.fail("kind", "must be \"load\", \"store\" or \"atomic\", found \"" + a.kind + "\"");
      a.strideBytes = ar.optionalInteger("stride_bytes");
      a.sectorsPerRequest = ar.optionalNumber("sectors_per_request");
      a.coalesced = optionalBoolean(ar, "coalesced");
      k.accesses.push_back(std::move(a));
    }
    for (const FieldReader &ur : kr.array("unknowns")) {
      Unknown u{ur.string("reason"), ur.string("file"), intField(ur, "line"), intField(ur, "column"),
                UnknownCause::Analysis, ur.optionalString("origin").value_or(""), ""};
      // Files written before the field existed name no cause: the analyser's, as every unknown then was reported.
      std::string cause = ur.optionalString("cause").value_or(unknownCauseName(UnknownCause::Analysis));
      bool named = false;
      for (UnknownCause c : {UnknownCause::Analysis, UnknownCause::DataDependentLoop, UnknownCause::DataDependentBranch,
                             UnknownCause::IndirectAccess})
        if (cause == unknownCauseName(c)) {
          u.cause = c;
          named = true;
        }
      if (auto when = ur.optionalString("when")) {
        parsedField(ur, "when", *when);
        u.when = *when;
      }
      if (!named)
        ur.fail("cause", "must be \"analysis\", \"data-dependent-loop\", \"data-dependent-branch\" or "
                         "\"indirect-access\", found \"" + cause + "\"");
      k.unknowns.push_back(std::move(u));
    }
    for (const FieldReader &cr : kr.optionalArray("claims"))
      k.claims.push_back({cr.string("text"), cr.string("file"), intField(cr, "line"), intField(cr, "column")});
    for (const FieldReader &dr : kr.optionalArray("divisions"))
      k.divisions.push_back({dr.string("multiplier"), dr.string("shift"), dr.string("divisor"), dr.string("file"),
                             intField(dr, "line"), intField(dr, "column")});
    k.library = optionalBoolean(kr, "library").value_or(false);
    doc.kernels.push_back(std::move(k));
  }
  return doc;
}

StaticDocument loadStaticFile(const std::string &path) {
  return loadDocument<StaticDocument>(path, StaticSchema, staticFromJson);
}

void saveStaticFile(const std::string &path, const StaticDocument &doc) { writeJsonFile(path, toJson(doc)); }

// --------------------------------------------------------------------------------- measured/2 (and /1)

Json toJson(const MeasuredHeader &h) {
  Json devices = Json::array();
  for (const DeviceInfo &d : h.devices)
    devices.push_back(toJson(d));
  return Json{{"schema", MeasuredSchema},
              {"record", "header"},
              {"pid", h.pid},
              {"rank", optionalJson(h.rank)},
              {"program", h.program},
              {"started", h.started},
              {"roofcheck_version", h.roofcheckVersion},
              {"driver_version", h.driverVersion},
              {"cuda_version", h.cudaVersion},
              {"cupti_version", optionalJson(h.cuptiVersion)},
              {"devices", devices},
              {"clocks", toJson(h.clocks)},
              {"replay_passes", optionalJson(h.replayPasses)},
              {"options", h.options}};
}

namespace {

MeasuredHeader headerFrom(const FieldReader &r) {
  MeasuredHeader h;
  h.pid = r.integer("pid");
  h.rank = r.optionalInteger("rank");
  for (const Json &arg : r.raw("program")) {
    if (!arg.is_string())
      r.fail("program", "must be an array of strings");
    h.program.push_back(arg.get<std::string>());
  }
  h.started = r.string("started");
  h.roofcheckVersion = r.string("roofcheck_version");
  h.driverVersion = r.string("driver_version");
  h.cudaVersion = r.string("cuda_version");
  h.cuptiVersion = r.optionalInteger("cupti_version");
  for (const FieldReader &dr : r.array("devices"))
    h.devices.push_back(deviceFrom(dr));
  h.clocks = clocksFrom(r, "clocks");
  h.replayPasses = r.optionalInteger("replay_passes");
  if (r.has("options"))
    h.options = r.raw("options");
  return h;
}

std::vector<std::string> nvtxFrom(const FieldReader &r, const std::string &key) {
  std::vector<std::string> ranges;
  for (const Json &range : r.raw(key)) {
    if (!range.is_string())
      r.fail(key, "must be an array of strings");
    ranges.push_back(range.get<std::string>());
  }
  return ranges;
}

std::optional<int64_t> replayPassesFrom(const FieldReader &r, const std::string &key) {
  std::optional<int64_t> passes = r.optionalInteger(key);
  if (passes && *passes < 1)
    r.fail(key, "must be at least 1");
  return passes;
}

std::map<std::string, double> metricsFrom(const FieldReader &metrics) {
  std::map<std::string, double> values;
  for (const auto &[name, value] : metrics.json().items()) {
    double v = metrics.number(name);
    if (v < 0)
      metrics.fail(name, "must not be negative");
    values[name] = v;
  }
  return values;
}

uint64_t unsignedField(const FieldReader &r, const std::string &key) {
  const Json &v = r.raw(key);
  if (v.is_number_unsigned())
    return v.get<uint64_t>();
  if (v.is_number_integer() && v.get<int64_t>() >= 0)
    return static_cast<uint64_t>(v.get<int64_t>());
  r.fail(key, "must be a non-negative integer");
}

Launch launchFrom(const FieldReader &r) {
  Launch l;
  l.index = nonNegativeInteger(r, "index");
  l.name = r.string("name");
  l.mangled = r.string("mangled");
  l.device = intField(r, "device");
  l.context = unsignedField(r, "context");
  l.stream = unsignedField(r, "stream");
  l.grid = dim3From(r, "grid");
  l.block = dim3From(r, "block");
  l.cluster = r.has("cluster") ? dim3From(r, "cluster") : Dim3{1, 1, 1};
  l.sharedDynamic = nonNegativeInteger(r, "shared_dynamic");
  l.sharedStatic = nonNegativeInteger(r, "shared_static");
  l.registers = intField(r, "registers");
  for (const FieldReader &ar : r.optionalArray("args"))
    l.args.push_back({intField(ar, "index"), nonNegativeInteger(ar, "offset"), nonNegativeInteger(ar, "size"),
                      ar.string("hex"), ar.optionalInteger("value")});
  if (r.has("nvtx"))
    l.nvtx = nvtxFrom(r, "nvtx");
  l.durationNs = r.optionalInteger("duration_ns");
  if (l.durationNs && *l.durationNs < 0)
    r.fail("duration_ns", "must not be negative");
  l.profiled = r.boolean("profiled");
  l.replayPasses = replayPassesFrom(r, "replay_passes");
  if (auto mr = r.optionalObject("metrics"))
    l.metrics = metricsFrom(*mr);
  return l;
}

// ------------------------------------------------------------------- measured/2's kernel records

/// A kernel record: what every launch that names its id shares.
struct MeasuredKernel {
  int64_t id = 0;
  std::string name, mangled;
  int registers = 0;
  int64_t sharedStatic = 0;
  std::vector<std::optional<std::pair<int64_t, int64_t>>> params; ///< offset, size by parameter index
};

MeasuredKernel kernelFrom(const FieldReader &r) {
  using measured::KernelField;
  MeasuredKernel k;
  for (size_t i = 0; i < measured::KernelFieldNames.size(); ++i) {
    auto f = static_cast<KernelField>(i);
    std::string key(measured::nameOf(f));
    switch (f) {
    case KernelField::Record: break; // the caller read it
    case KernelField::Id: k.id = nonNegativeInteger(r, key); break;
    case KernelField::Name: k.name = r.string(key); break;
    case KernelField::Mangled: k.mangled = r.string(key); break;
    case KernelField::Registers: k.registers = intField(r, key); break;
    case KernelField::SharedStatic: k.sharedStatic = nonNegativeInteger(r, key); break;
    case KernelField::Params:
      for (const Json &p : r.raw(key)) {
        if (p.is_null()) {
          k.params.emplace_back();
          continue;
        }
        if (!p.is_array() || p.size() != 2 || !p[0].is_number_integer() || !p[1].is_number_integer() ||
            p[0].get<int64_t>() < 0 || p[1].get<int64_t>() < 0)
          r.fail(key, "must be an array of [offset, size] pairs of non-negative integers, or null");
        k.params.emplace_back(std::pair{p[0].get<int64_t>(), p[1].get<int64_t>()});
      }
      break;
    }
  }
  return k;
}

/// A measured/2 argument record: its id and bytes in hex.
std::pair<int64_t, std::string> argumentFrom(const FieldReader &r) {
  using measured::ArgumentField;
  std::pair<int64_t, std::string> argument;
  for (size_t i = 0; i < measured::ArgumentFieldNames.size(); ++i) {
    auto f = static_cast<ArgumentField>(i);
    std::string key(measured::nameOf(f));
    switch (f) {
    case ArgumentField::Record: break; // the caller read it
    case ArgumentField::Id: argument.first = nonNegativeInteger(r, key); break;
    case ArgumentField::Bytes:
      argument.second = r.string(key);
      if (argument.second.size() % 2 != 0 ||
          argument.second.find_first_not_of("0123456789abcdef") != std::string::npos)
        r.fail(key, "must be bytes in lower-case hex, two digits each");
      break;
    }
  }
  return argument;
}

/// A measured/2 launch record; its kernel's fields, and the bytes of the arguments it leaves to argument
/// records (`arguments`: parameter index, record id), stay empty until RecordTable::resolve fills them.
Launch launchFromCompact(const FieldReader &r, int64_t &kernel, std::vector<ArgumentReference> &arguments) {
  using measured::LaunchField;
  Launch l;
  for (size_t i = 0; i < measured::LaunchFieldNames.size(); ++i) {
    auto f = static_cast<LaunchField>(i);
    std::string key(measured::nameOf(f));
    if (f >= measured::FirstOptionalLaunchField && (!r.has(key) || r.raw(key).is_null()))
      continue;
    switch (f) {
    case LaunchField::Record: break; // the caller read it
    case LaunchField::Index: l.index = nonNegativeInteger(r, key); break;
    case LaunchField::Kernel: kernel = nonNegativeInteger(r, key); break;
    case LaunchField::Device: l.device = intField(r, key); break;
    case LaunchField::Context: l.context = unsignedField(r, key); break;
    case LaunchField::Stream: l.stream = unsignedField(r, key); break;
    case LaunchField::Grid: l.grid = dim3From(r, key); break;
    case LaunchField::Block: l.block = dim3From(r, key); break;
    case LaunchField::Cluster: l.cluster = dim3From(r, key); break;
    case LaunchField::SharedDynamic: l.sharedDynamic = nonNegativeInteger(r, key); break;
    case LaunchField::Args: {
      const Json &args = r.raw(key);
      if (!args.is_array())
        r.fail(key, "must be an array");
      const std::string reference(measured::ArgumentReferenceKey);
      for (size_t a = 0; a < args.size(); ++a) {
        KernelArgument arg;
        arg.index = static_cast<int>(a);
        if (args[a].is_null())
          continue; // not recorded
        if (args[a].is_number_integer())
          arg.value = args[a].get<int64_t>();
        else if (args[a].is_string())
          arg.hex = args[a].get<std::string>();
        else if (args[a].is_object() && args[a].size() == 1 && args[a].contains(reference) &&
                 args[a][reference].is_number_integer() && args[a][reference].get<int64_t>() >= 0) {
          arguments.push_back({arg.index, args[a][reference].get<int64_t>()});
          continue; // its bytes come from the argument record (RecordTable::resolve)
        } else
          r.fail(key, "must hold integers, hex strings, {\"" + reference + "\": id} or null");
        l.args.push_back(std::move(arg));
      }
      break;
    }
    case LaunchField::Nvtx: l.nvtx = nvtxFrom(r, key); break;
    case LaunchField::DurationNs:
      l.durationNs = nonNegativeInteger(r, key);
      break;
    case LaunchField::Profiled: l.profiled = r.boolean(key); break;
    case LaunchField::ReplayPasses: l.replayPasses = replayPassesFrom(r, key); break;
    case LaunchField::Metrics: l.metrics = metricsFrom(r.object(key)); break;
    case LaunchField::Sampled: l.sampled = metricsFrom(r.object(key)); break;
    case LaunchField::SampledShared: l.sampledShared = r.boolean(key); break;
    }
  }
  return l;
}

/// The kernel and argument records read so far, which later launch records name.
class RecordTable {
public:
  void add(MeasuredKernel k, const std::string &where) {
    int64_t id = k.id;
    if (!kernels_.emplace(id, std::move(k)).second)
      throw Error(where + ": id: kernel " + std::to_string(id) + " is described twice");
  }
  void add(std::pair<int64_t, std::string> argument, const std::string &where) {
    int64_t id = argument.first;
    if (!arguments_.insert(std::move(argument)).second)
      throw Error(where + ": id: argument " + std::to_string(id) + " is recorded twice");
  }

  /// Fills in what launch l's kernel record says: names, registers, static shared memory, and each
  /// argument's place and, from its value or its argument record, bytes (or from its bytes, nothing: a
  /// pointer has no value).
  void resolve(Launch &l, int64_t kernel, const std::vector<ArgumentReference> &arguments,
               const std::string &where) const {
    auto it = kernels_.find(kernel);
    if (it == kernels_.end())
      throw Error(where + ": the launch names kernel " + std::to_string(kernel) +
                  ", which no kernel record before it describes");
    for (const ArgumentReference &reference : arguments) {
      auto bytes = arguments_.find(reference.record);
      if (bytes == arguments_.end())
        throw Error(where + ": args[" + std::to_string(reference.index) + "]: the launch names argument " +
                    std::to_string(reference.record) + ", which no argument record before it holds");
      KernelArgument &a = l.args.emplace_back();
      a.index = reference.index;
      a.hex = bytes->second;
    }
    if (!arguments.empty())
      std::stable_sort(l.args.begin(), l.args.end(),
                       [](const KernelArgument &a, const KernelArgument &b) { return a.index < b.index; });
    const MeasuredKernel &k = it->second;
    l.name = k.name;
    l.mangled = k.mangled;
    l.registers = k.registers;
    l.sharedStatic = k.sharedStatic;
    for (KernelArgument &a : l.args) {
      auto index = static_cast<size_t>(a.index);
      if (index >= k.params.size() || !k.params[index])
        throw Error(where + ": args[" + std::to_string(index) + "]: kernel " + std::to_string(kernel) +
                    " has no such parameter");
      std::tie(a.offset, a.size) = *k.params[index];
      if (a.value) {
        if (a.size != 1 && a.size != 2 && a.size != 4 && a.size != 8)
          throw Error(where + ": args[" + std::to_string(index) + "]: an integer for a parameter of " +
                      std::to_string(a.size) + " bytes");
        a.hex = littleEndianHex(*a.value, a.size);
      } else if (static_cast<int64_t>(a.hex.size()) != 2 * a.size) {
        throw Error(where + ": args[" + std::to_string(index) + "]: " + std::to_string(a.hex.size()) +
                    " hex digits for a parameter of " + std::to_string(a.size) + " bytes");
      }
    }
  }

private:
  std::unordered_map<int64_t, MeasuredKernel> kernels_;
  std::unordered_map<int64_t, std::string> arguments_; ///< bytes in hex by id
};


} // namespace

namespace {

/// What the run itself warned about (partial replay passes, dropped ranges, records CUPTI dropped): the
/// measurements in the file carry it, so whoever reads them hears it too.
void summaryWarnings(const FieldReader &r, const std::string &source, std::vector<std::string> &warnings) {
  if (r.has("activity_records_dropped")) {
    int64_t dropped = r.integer("activity_records_dropped");
    if (dropped > 0)
      warnings.push_back(source + ": the run lost " + std::to_string(dropped) +
                         " kernel activity records (CUPTI dropped them): those launches are missing");
  }
  if (r.has("warnings"))
    for (const Json &w : r.raw("warnings"))
      if (w.is_string())
        warnings.push_back(source + ": the run warned: " + w.get<std::string>());
}

} // namespace

namespace {

/// One line of a measured file after its header.
struct RecordLine {
  std::string_view text; ///< in storage the caller keeps
  int64_t number = 0;
  bool last = false; ///< the file's final line, without its newline: a record cut short by a crash
};

/// What a record line holds: a launch, a kernel (measured/2), warnings (a truncated last record, the run's
/// summary), or none of them. Lines are parsed on worker threads; a measured/2 launch gets its kernel's
/// fields in file order, on the reading thread (takeRecord).
struct Record {
  std::optional<Launch> launch;
  std::optional<int64_t> kernelOfLaunch; ///< measured/2: the id the launch names
  std::vector<ArgumentReference> argumentsOfLaunch; ///< measured/2: parameter index, argument record id
  std::optional<std::pair<int64_t, std::string>> argument; ///< measured/2: an argument record
  std::optional<MeasuredKernel> kernel;
  std::vector<std::string> warnings;
  int64_t line = 0;
};


bool blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

MeasuredHeader parseHeaderLine(std::string_view line, const std::string &where, MeasuredVersion &version) {
  Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded())
    throw Error(where + ": not a JSON record");
  try {
    // A header whose schema is no string is refused by requireSchema below, with the field named.
    bool first = record.is_object() && record.contains("schema") && record["schema"].is_string() &&
                 record["schema"].get<std::string>() == MeasuredSchemaFirst;
    if (!first)
      requireSchema(record, MeasuredSchema, where);
    version = first ? MeasuredVersion::PerLaunchNames : MeasuredVersion::KernelRecords;
    FieldReader r(record, "");
    if (r.string("record") != "header")
      r.fail("record", "the first record must be the header");
    return headerFrom(r);
  } catch (const Error &e) {
    std::string message = e.what();
    throw Error(message.rfind(where, 0) == 0 ? message : where + ": " + message);
  }
}

Record parseRecordLine(const RecordLine &line, MeasuredVersion version, const std::string &source) {
  Record out;
  out.line = line.number;
  bool compact = version == MeasuredVersion::KernelRecords;
  if (compact) {
    int64_t kernel = 0;
    if ((out.launch = parseLaunchQuickly(line.text, kernel, out.argumentsOfLaunch))) {
      out.kernelOfLaunch = kernel;
      return out;
    }
  }
  std::string where = source + ":" + std::to_string(line.number);
  Json record = Json::parse(line.text, nullptr, /*allow_exceptions=*/false);
  if (record.is_discarded()) {
    if (line.last) {
      out.warnings.push_back(where + ": truncated last record skipped (the program stopped mid-write)");
      return out;
    }
    throw Error(where + ": not a JSON record");
  }
  try {
    FieldReader r(record, "");
    std::string kind = r.string("record");
    if (kind == measured::LaunchRecord && compact) {
      int64_t kernel = 0;
      out.launch = launchFromCompact(r, kernel, out.argumentsOfLaunch);
      out.kernelOfLaunch = kernel;
    } else if (kind == measured::LaunchRecord) {
      out.launch = launchFrom(r);
    } else if (kind == measured::KernelRecord && compact) {
      out.kernel = kernelFrom(r);
    } else if (kind == measured::ArgumentRecord && compact) {
      out.argument = argumentFrom(r);
    } else if (kind == "header")
      r.fail("record", "a second header");
    else if (kind == "summary")
      summaryWarnings(r, source, out.warnings);
    // Other record kinds (clock samples) are for humans and later versions: skipped.
  } catch (const Error &e) {
    std::string message = e.what();
    throw Error(message.rfind(where, 0) == 0 ? message : where + ": " + message);
  }
  return out;
}

/// The records of a chunk of whole lines, the first numbered firstLine; `final`: the file ends the chunk.
std::vector<Record> parseChunk(const std::string &chunk, int64_t firstLine, bool final, MeasuredVersion version,
                               const std::string &source) {
  std::vector<Record> records;
  int64_t number = firstLine;
  for (size_t begin = 0; begin < chunk.size(); ++number) {
    size_t end = chunk.find('\n', begin);
    bool unterminated = end == std::string::npos;
    std::string_view text(chunk.data() + begin, (unterminated ? chunk.size() : end) - begin);
    begin = unterminated ? chunk.size() : end + 1;
    if (!blank(text))
      records.push_back(parseRecordLine({text, number, final && unterminated}, version, source));
  }
  return records;
}

/// Hands a parsed record on in file order: a kernel or an argument record to the table, a launch, once its
/// kernel and arguments are known, to take.
void takeRecord(Record &r, RecordTable &records, std::vector<std::string> &warnings, const std::string &source,
                const std::function<void(Launch &&)> &take) {
  for (std::string &w : r.warnings)
    warnings.push_back(std::move(w));
  if (r.kernel)
    records.add(std::move(*r.kernel), source + ":" + std::to_string(r.line));
  if (r.argument)
    records.add(std::move(*r.argument), source + ":" + std::to_string(r.line));
  if (!r.launch)
    return;
  if (r.kernelOfLaunch)
    records.resolve(*r.launch, *r.kernelOfLaunch, r.argumentsOfLaunch, source + ":" + std::to_string(r.line));
  take(std::move(*r.launch));
}

/// Reads the next line that is not blank into `storage`; false at the end of the file.
bool nextLine(std::istream &in, int64_t &number, std::string &storage, RecordLine &line) {
  while (std::getline(in, storage)) {
    line = {storage, ++number, in.eof()}; // eof: getline stopped at the end, not at a newline
    if (!blank(line.text))
      return true;
  }
  return false;
}

} // namespace

MeasuredReader::MeasuredReader(const std::string &path) : path_(path), in_(path, std::ios::binary) {
  if (!in_)
    throw Error(path + ": cannot open: " + std::strerror(errno));
  std::string storage;
  RecordLine first;
  if (!nextLine(in_, lineNumber_, storage, first))
    throw Error(path + ": empty file, expected a " + std::string(MeasuredSchema) + " header record");
  header_ = parseHeaderLine(first.text, path + ":" + std::to_string(first.number), version_);
}

void MeasuredReader::forEachLaunch(const std::function<void(const Launch &)> &take) {
  // The file goes to the parsers in chunks of whole lines; the oldest chunk's launches go to `take` once a
  // few are in flight, so memory holds at most Workers + 1 chunks whatever the file's size, and this thread
  // only reads and takes.
  // Four in flight keep both cores of the development machine busy; two left it at 1.3 (bench/report-scale.sh).
  constexpr size_t ChunkBytes = 1 << 20, Workers = 4;
  std::deque<std::future<std::vector<Record>>> pending;
  RecordTable described;
  auto takeOldest = [&] {
    std::vector<Record> records = pending.front().get();
    pending.pop_front();
    for (Record &r : records)
      takeRecord(r, described, warnings_, path_, [&](Launch &&l) { take(l); });
  };
  std::string carried; // the start of a line the last chunk cut
  for (bool final = false; !final;) {
    std::string chunk = std::move(carried);
    size_t kept = chunk.size();
    chunk.resize(kept + ChunkBytes);
    in_.read(chunk.data() + kept, static_cast<std::streamsize>(ChunkBytes));
    chunk.resize(kept + static_cast<size_t>(in_.gcount()));
    final = !in_;
    carried.clear();
    if (!final) {
      size_t cut = chunk.rfind('\n');
      if (cut == std::string::npos) { // a line longer than a chunk: read on
        carried = std::move(chunk);
        continue;
      }
      carried = chunk.substr(cut + 1);
      chunk.resize(cut + 1);
    }
    int64_t firstLine = lineNumber_ + 1;
    lineNumber_ += std::count(chunk.begin(), chunk.end(), '\n');
    pending.push_back(
        std::async(std::launch::async, parseChunk, std::move(chunk), firstLine, final, version_, std::cref(path_)));
    if (pending.size() > Workers)
      takeOldest();
  }
  while (!pending.empty())
    takeOldest();
}

MeasuredFile parseMeasuredLines(std::string_view text, const std::string &source) {
  MeasuredFile file;
  std::istringstream in{std::string(text)};
  int64_t number = 0;
  std::string storage;
  RecordLine line;
  if (!nextLine(in, number, storage, line))
    throw Error(source + ": empty file, expected a " + std::string(MeasuredSchema) + " header record");
  MeasuredVersion version{};
  file.header = parseHeaderLine(line.text, source + ":" + std::to_string(line.number), version);
  std::string rest{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  RecordTable described;
  for (Record &record : parseChunk(rest, number + 1, /*final=*/true, version, source))
    takeRecord(record, described, file.warnings, source, [&](Launch &&l) { file.launches.push_back(std::move(l)); });
  return file;
}

MeasuredFile loadMeasuredFile(const std::string &path) {
  MeasuredReader reader(path);
  MeasuredFile file;
  file.header = reader.header();
  reader.forEachLaunch([&](const Launch &l) { file.launches.push_back(l); });
  file.warnings = reader.warnings();
  return file;
}

// --------------------------------------------------------------------------------- ceilings/1

namespace {

Json toJson(const Provenance &p) {
  return Json{{"kernel", p.kernel},
              {"parameters", p.parameters},
              {"repetitions", p.repetitions},
              {"median", p.median},
              {"min", p.min},
              {"max", p.max},
              {"clocks_before", toJson(p.clocksBefore)},
              {"clocks_during", toJson(p.clocksDuring)},
              {"clocks_after", toJson(p.clocksAfter)}};
}

Provenance provenanceFrom(const FieldReader &parent) {
  FieldReader r = parent.object("provenance");
  Provenance p;
  p.kernel = r.string("kernel");
  if (r.has("parameters"))
    p.parameters = r.raw("parameters");
  p.repetitions = intField(r, "repetitions");
  if (p.repetitions < 1)
    r.fail("repetitions", "must be at least 1");
  p.median = r.positiveNumber("median");
  p.min = r.positiveNumber("min");
  p.max = r.positiveNumber("max");
  if (!(p.min <= p.median && p.median <= p.max))
    r.fail("median", "must lie between min and max");
  p.clocksBefore = clocksFrom(r, "clocks_before");
  p.clocksDuring = clocksFrom(r, "clocks_during");
  p.clocksAfter = clocksFrom(r, "clocks_after");
  return p;
}

} // namespace

const MemoryCeiling *CeilingsDocument::bestMemory(const std::string &level) const {
  const MemoryCeiling *best = nullptr;
  for (const MemoryCeiling &c : memory)
    if (c.level == level && (!best || c.bytesPerSecond > best->bytesPerSecond))
      best = &c;
  return best;
}

const ComputeCeiling *CeilingsDocument::bestCompute(const std::string &bucket, const std::string &dtype) const {
  const ComputeCeiling *best = nullptr;
  for (const ComputeCeiling &c : compute)
    if (c.bucket == bucket && (dtype.empty() || c.dtype == dtype) &&
        (!best || c.flopsPerSecond > best->flopsPerSecond))
      best = &c;
  return best;
}

std::optional<Roofline> CeilingsDocument::roofline(FlopBucket bucket, const std::string &dtype) const {
  const ComputeCeiling *c = bestCompute(toString(bucket), dtype);
  const MemoryCeiling *dram = bestMemory("dram");
  if (!c || !dram)
    return std::nullopt;
  std::string name = c->dtype == c->bucket ? c->bucket : c->bucket + " " + c->dtype;
  return Roofline({name, c->flopsPerSecond}, {"dram", dram->bytesPerSecond});
}

Json toJson(const CeilingsDocument &doc) {
  Json memory = Json::array();
  for (const MemoryCeiling &m : doc.memory)
    memory.push_back({{"level", m.level},
                      {"variant", m.variant},
                      {"bytes_per_second", m.bytesPerSecond},
                      {"provenance", toJson(m.provenance)}});
  Json compute = Json::array();
  for (const ComputeCeiling &c : doc.compute)
    compute.push_back({{"bucket", c.bucket},
                       {"dtype", c.dtype},
                       {"path", c.path},
                       {"flops_per_second", c.flopsPerSecond},
                       {"provenance", toJson(c.provenance)}});
  return Json{{"schema", CeilingsSchema},
              {"roofcheck_version", doc.roofcheckVersion},
              {"measured_at", doc.measuredAt},
              {"device", toJson(doc.device)},
              {"driver_version", doc.driverVersion},
              {"cuda_version", doc.cudaVersion},
              {"memory", memory},
              {"compute", compute},
              {"environment", doc.environment}};
}

CeilingsDocument ceilingsFromJson(const Json &json, const std::string &source) {
  requireSchema(json, CeilingsSchema, source);
  FieldReader top(json, "");
  CeilingsDocument doc;
  doc.roofcheckVersion = top.string("roofcheck_version");
  doc.measuredAt = top.string("measured_at");
  doc.device = deviceFrom(top.object("device"));
  doc.driverVersion = top.string("driver_version");
  doc.cudaVersion = top.string("cuda_version");
  for (const FieldReader &r : top.array("memory")) {
    MemoryCeiling m{r.string("level"), r.string("variant"), r.positiveNumber("bytes_per_second"), provenanceFrom(r)};
    doc.memory.push_back(std::move(m));
  }
  for (const FieldReader &r : top.array("compute")) {
    ComputeCeiling c{r.string("bucket"), r.string("dtype"), r.string("path"), r.positiveNumber("flops_per_second"),
                     provenanceFrom(r)};
    if (!parseFlopBucket(c.bucket))
      r.fail("bucket", "unknown bucket \"" + c.bucket + "\" (fp64, fp32, fp16, bf16, tensor)");
    doc.compute.push_back(std::move(c));
  }
  if (top.has("environment"))
    doc.environment = top.raw("environment");
  return doc;
}

CeilingsDocument loadCeilingsFile(const std::string &path) {
  return loadDocument<CeilingsDocument>(path, CeilingsSchema, ceilingsFromJson);
}

void saveCeilingsFile(const std::string &path, const CeilingsDocument &doc) { writeJsonFile(path, toJson(doc)); }

// ----------------------------------------------------------------------------------- report/1

namespace {

Json toJson(const Explanation &e) {
  return Json{{"kind", e.kind}, {"severity", e.severity}, {"message", e.message}, {"evidence", e.evidence}};
}

Explanation explanationFrom(const FieldReader &r) {
  Explanation e{r.string("kind"), r.string("severity"), r.string("message"), {}};
  if (e.severity != "note" && e.severity != "warning" && e.severity != "error")
    r.fail("severity", "must be \"note\", \"warning\" or \"error\"");
  for (const Json &item : r.raw("evidence")) {
    if (!item.is_string())
      r.fail("evidence", "must be an array of strings");
    e.evidence.push_back(item.get<std::string>());
  }
  return e;
}

Json toJson(const PredictedCounts &p) {
  return Json{{"flops", toJson(p.flops)},           {"special", toJson(p.special)},
              {"bytes_read", toJson(p.bytesRead)},   {"bytes_write", toJson(p.bytesWrite)},
              {"bytes_ideal", toJson(p.bytesIdeal)}, {"bytes_predicted", toJson(p.bytesPredicted)},
              {"intensity_ideal", toJson(p.intensityIdeal)}, {"intensity_predicted", toJson(p.intensityPredicted)}};
}

PredictedCounts predictedFrom(const FieldReader &r) {
  return {quantityFrom(r, "flops"),      quantityFrom(r, "special"),    quantityFrom(r, "bytes_read"),
          quantityFrom(r, "bytes_write"), quantityFrom(r, "bytes_ideal"), quantityFrom(r, "bytes_predicted"),
          quantityFrom(r, "intensity_ideal"), quantityFrom(r, "intensity_predicted")};
}

Json toJson(const MeasuredCounts &m) {
  return Json{{"profiled_launches", m.profiledLaunches},    {"time_ns", m.timeNs},
              {"flops", optionalJson(m.flops)},             {"dram_read_bytes", optionalJson(m.dramReadBytes)},
              {"dram_write_bytes", optionalJson(m.dramWriteBytes)}, {"l2_bytes", optionalJson(m.l2Bytes)},
              {"traffic_launches", m.trafficLaunches}, {"traffic_replay_passes", optionalJson(m.trafficReplayPasses)}};
}

std::optional<double> optionalNonNegative(const FieldReader &r, const std::string &key) {
  auto v = r.optionalNumber(key);
  if (v && *v < 0)
    r.fail(key, "must not be negative");
  return v;
}

MeasuredCounts measuredCountsFrom(const FieldReader &r) {
  MeasuredCounts m;
  m.profiledLaunches = nonNegativeInteger(r, "profiled_launches");
  m.timeNs = r.number("time_ns");
  if (m.timeNs < 0)
    r.fail("time_ns", "must not be negative");
  m.flops = optionalNonNegative(r, "flops");
  m.dramReadBytes = optionalNonNegative(r, "dram_read_bytes");
  m.dramWriteBytes = optionalNonNegative(r, "dram_write_bytes");
  m.l2Bytes = optionalNonNegative(r, "l2_bytes");
  if (r.has("traffic_launches")) // reports from before it: 0
    m.trafficLaunches = nonNegativeInteger(r, "traffic_launches");
  m.trafficReplayPasses = r.optionalInteger("traffic_replay_passes");
  return m;
}

Json toJson(const SampledCounts &c) {
  return Json{{"launches", c.launches},
              {"time_ns", c.timeNs},
              {"dram_read_bytes", c.dramReadBytes},
              {"dram_write_bytes", c.dramWriteBytes},
              {"ideal_bytes", optionalJson(c.idealBytes)}};
}

SampledCounts sampledCountsFrom(const FieldReader &r) {
  SampledCounts c;
  c.launches = nonNegativeInteger(r, "launches");
  for (auto [field, key] : {std::pair{&c.timeNs, "time_ns"}, std::pair{&c.dramReadBytes, "dram_read_bytes"},
                            std::pair{&c.dramWriteBytes, "dram_write_bytes"}})
    if ((*field = r.number(key)) < 0)
      r.fail(key, "must not be negative");
  c.idealBytes = optionalNonNegative(r, "ideal_bytes");
  return c;
}

/// A dot's fields, the same in kernels, signatures and ranks.
void putDot(Json &out, const ReportDot &d) {
  out["intensity"] = {{"predicted_ideal", optionalJson(d.predictedIntensityIdeal)},
                      {"predicted", optionalJson(d.predictedIntensityPredicted)},
                      {"measured", optionalJson(d.measuredIntensity)}};
  out["flops_per_second"] = optionalJson(d.flopsPerSecond);
  out["bytes_per_second"] = optionalJson(d.bytesPerSecond);
  out["fraction_of_roof"] = optionalJson(d.fractionOfRoof);
  out["traffic_ratio"] = optionalJson(d.trafficRatio);
}

/// Every field is optional: signatures had no bytes_per_second, ranks only measured_intensity (before they
/// carried the whole dot) and flops_per_second and bytes_per_second.
ReportDot dotFrom(const FieldReader &r) {
  ReportDot d;
  if (auto ir = r.optionalObject("intensity")) {
    d.predictedIntensityIdeal = ir->optionalNumber("predicted_ideal");
    d.predictedIntensityPredicted = ir->optionalNumber("predicted");
    d.measuredIntensity = ir->optionalNumber("measured");
  } else {
    d.measuredIntensity = r.optionalNumber("measured_intensity");
  }
  d.flopsPerSecond = r.optionalNumber("flops_per_second");
  d.bytesPerSecond = r.optionalNumber("bytes_per_second");
  d.fractionOfRoof = r.optionalNumber("fraction_of_roof");
  d.trafficRatio = r.optionalNumber("traffic_ratio");
  return d;
}

Json toJson(const ReportSignature &s) {
  Json args = Json::object();
  for (const auto &[name, value] : s.args)
    args[name] = value;
  Json out{{"grid", toJson(s.grid)},
           {"block", toJson(s.block)},
           {"args", args},
           {"launches", s.launches},
           {"time_ns", s.timeNs},
           {"time_share", s.timeShare},
           {"predicted_flops", optionalJson(s.predictedFlops)},
           {"predicted_bytes_ideal", optionalJson(s.predictedBytesIdeal)},
           {"measured_dram_bytes", optionalJson(s.measuredDramBytes)}};
  putDot(out, s);
  return out;
}

ReportSignature signatureFrom(const FieldReader &r) {
  ReportSignature s;
  static_cast<ReportDot &>(s) = dotFrom(r);
  s.grid = dim3From(r, "grid");
  s.block = dim3From(r, "block");
  FieldReader ar = r.object("args");
  for (const auto &[name, value] : ar.json().items())
    s.args.emplace_back(name, ar.string(name));
  s.launches = nonNegativeInteger(r, "launches");
  s.timeNs = r.number("time_ns");
  s.timeShare = r.number("time_share");
  if (s.timeShare < 0 || s.timeShare > 1)
    r.fail("time_share", "must lie between 0 and 1");
  s.predictedFlops = r.optionalNumber("predicted_flops");
  s.predictedBytesIdeal = r.optionalNumber("predicted_bytes_ideal");
  s.measuredDramBytes = r.optionalNumber("measured_dram_bytes");
  return s;
}

Json toJson(const ReportRank &k) {
  Json out{{"label", k.label},
           {"rank", optionalJson(k.rank)},
           {"pid", k.pid},
           {"launches", k.launches},
           {"time_ns", k.timeNs}};
  putDot(out, k);
  return out;
}

ReportRank rankFrom(const FieldReader &r) {
  ReportRank k;
  static_cast<ReportDot &>(k) = dotFrom(r);
  k.label = r.string("label");
  k.rank = r.optionalInteger("rank");
  k.pid = r.integer("pid");
  k.launches = nonNegativeInteger(r, "launches");
  k.timeNs = r.number("time_ns");
  return k;
}

Json toJson(const ReportCeiling &c) {
  return Json{{"kind", c.kind}, {"name", c.name}, {"dtype", c.dtype}, {"value", c.value}, {"ridge", optionalJson(c.ridge)}};
}

ReportCeiling ceilingFrom(const FieldReader &r) {
  ReportCeiling c{r.string("kind"), r.string("name"), r.string("dtype"), r.positiveNumber("value"),
                  r.optionalNumber("ridge")};
  if (c.kind != "memory" && c.kind != "compute")
    r.fail("kind", "must be \"memory\" or \"compute\"");
  return c;
}

} // namespace

Json toJson(const ReportDocument &doc) {
  Json kernels = Json::array();
  for (const ReportKernel &k : doc.kernels) {
    Json explanations = Json::array();
    for (const Explanation &e : k.explanations)
      explanations.push_back(toJson(e));
    kernels.push_back({{"name", k.name},
                       {"mangled", k.mangled},
                       {"short_name", k.shortName},
                       {"launches", k.launches},
                       {"time_ns", k.timeNs},
                       {"time_share", k.timeShare},
                       {"roof", optionalJson(k.roof)},
                       {"bound", {{"predicted", optionalJson(k.boundPredicted)}, {"measured", optionalJson(k.boundMeasured)}}},
                       {"explanations", explanations}});
    Json &out = kernels.back();
    putDot(out, k);
    out["location"] = k.file.empty() ? Json(nullptr) : Json{{"file", k.file}, {"line", k.line}};
    out["dtype"] = optionalJson(k.dtype);
    out["predicted_counts"] = k.predicted ? toJson(*k.predicted) : Json(nullptr);
    out["measured_counts"] = k.measured ? toJson(*k.measured) : Json(nullptr);
    if (k.sampled)
      out["sampled_traffic"] = toJson(*k.sampled);
    out["signatures"] = Json::array();
    for (const ReportSignature &s : k.signatures)
      out["signatures"].push_back(toJson(s));
    out["ranks"] = Json::array();
    for (const ReportRank &r : k.ranks)
      out["ranks"].push_back(toJson(r));
  }
  Json ceilings = Json::array();
  for (const ReportCeiling &c : doc.ceilings)
    ceilings.push_back(toJson(c));
  Json problems = Json::array();
  for (const Explanation &e : doc.problems)
    problems.push_back(toJson(e));
  return Json{{"schema", ReportSchema},
              {"generator", doc.generator},
              {"inputs", doc.inputs},
              {"device", doc.device ? toJson(*doc.device) : Json(nullptr)},
              {"mode", doc.mode},
              {"total_time_ns", doc.totalTimeNs},
              {"ceilings", ceilings},
              {"kernels", kernels},
              {"problems", problems}};
}

ReportDocument reportFromJson(const Json &json, const std::string &source) {
  requireSchema(json, ReportSchema, source);
  FieldReader top(json, "");
  ReportDocument doc;
  doc.generator = top.string("generator");
  for (const Json &input : top.raw("inputs")) {
    if (!input.is_string())
      top.fail("inputs", "must be an array of strings");
    doc.inputs.push_back(input.get<std::string>());
  }
  if (auto dr = top.optionalObject("device"))
    doc.device = deviceFrom(*dr);
  for (const FieldReader &r : top.array("kernels")) {
    ReportKernel k;
    k.name = r.string("name");
    k.mangled = r.string("mangled");
    k.shortName = r.optionalString("short_name").value_or("");
    k.launches = nonNegativeInteger(r, "launches");
    k.timeNs = r.number("time_ns");
    k.timeShare = r.number("time_share");
    if (k.timeNs < 0)
      r.fail("time_ns", "must not be negative");
    if (k.timeShare < 0 || k.timeShare > 1)
      r.fail("time_share", "must lie between 0 and 1");
    r.object("intensity"); // required in a kernel since the first version
    static_cast<ReportDot &>(k) = dotFrom(r);
    k.roof = r.optionalNumber("roof");
    FieldReader br = r.object("bound");
    k.boundPredicted = br.optionalString("predicted");
    k.boundMeasured = br.optionalString("measured");
    for (const FieldReader &er : r.array("explanations"))
      k.explanations.push_back(explanationFrom(er));
    if (auto lr = r.optionalObject("location")) {
      k.file = lr->string("file");
      k.line = intField(*lr, "line");
    }
    k.dtype = r.optionalString("dtype");
    if (auto pr = r.optionalObject("predicted_counts"))
      k.predicted = predictedFrom(*pr);
    if (auto mr = r.optionalObject("measured_counts"))
      k.measured = measuredCountsFrom(*mr);
    if (auto sr = r.optionalObject("sampled_traffic"))
      k.sampled = sampledCountsFrom(*sr);
    for (const FieldReader &sr : r.optionalArray("signatures"))
      k.signatures.push_back(signatureFrom(sr));
    for (const FieldReader &rr : r.optionalArray("ranks"))
      k.ranks.push_back(rankFrom(rr));
    doc.kernels.push_back(std::move(k));
  }
  if (auto mode = top.optionalString("mode")) {
    if (*mode != "measured" && *mode != "static")
      top.fail("mode", "must be \"measured\" or \"static\"");
    doc.mode = *mode;
  }
  if (auto total = top.optionalNumber("total_time_ns")) {
    if (*total < 0)
      top.fail("total_time_ns", "must not be negative");
    doc.totalTimeNs = *total;
  }
  for (const FieldReader &cr : top.optionalArray("ceilings"))
    doc.ceilings.push_back(ceilingFrom(cr));
  for (const FieldReader &er : top.array("problems"))
    doc.problems.push_back(explanationFrom(er));
  return doc;
}

ReportDocument loadReportFile(const std::string &path) {
  return loadDocument<ReportDocument>(path, ReportSchema, reportFromJson);
}

void saveReportFile(const std::string &path, const ReportDocument &doc) { writeJsonFile(path, toJson(doc)); }

} // namespace roofcheck
