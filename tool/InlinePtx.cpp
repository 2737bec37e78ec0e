#include "InlinePtx.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"

#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>

namespace roofcheck::lint {
namespace {

std::vector<std::string> split(const std::string &text, char separator) {
  std::vector<std::string> parts;
  std::stringstream in(text);
  for (std::string part; std::getline(in, part, separator);)
    parts.push_back(part);
  return parts;
}

/// Bytes of one element of a PTX type suffix; 0 when `token` is not a type.
int64_t typeBytes(const std::string &token) {
  static const std::map<std::string, int64_t> sizes = {
      {"b8", 1},   {"u8", 1},   {"s8", 1},   {"b16", 2},  {"u16", 2},    {"s16", 2},     {"f16", 2},
      {"bf16", 2}, {"b32", 4},  {"u32", 4},  {"s32", 4},  {"f32", 4},    {"f16x2", 4},   {"bf16x2", 4},
      {"b64", 8},  {"u64", 8},  {"s64", 8},  {"f64", 8},  {"b128", 16},  {"e4m3x2", 2},  {"e5m2x2", 2}};
  auto found = sizes.find(token);
  return found == sizes.end() ? 0 : found->second;
}

bool isStateSpace(const std::string &token) {
  return token == "global" || token == "local" || token == "const" || token == "param" ||
         token.rfind("shared", 0) == 0;
}

/// The operand number of "$3", "${3:...}" inside an operand; -1 when there is none.
int operandNumber(const std::string &text) {
  static const std::regex number(R"(\$\{?(\d+))");
  std::smatch m;
  return std::regex_search(text, m, number) ? std::stoi(m[1]) : -1;
}

/// The operands of an instruction, split at top-level commas ("{a, b}" stays one operand).
std::vector<std::string> operandsOf(const std::string &rest) {
  std::vector<std::string> operands;
  std::string current;
  int depth = 0;
  for (char c : rest) {
    if (c == '{' || c == '[')
      ++depth;
    if (c == '}' || c == ']')
      --depth;
    if (c == ',' && depth == 0) {
      operands.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (current.find_first_not_of(" \t") != std::string::npos)
    operands.push_back(current);
  return operands;
}

bool isAddress(const std::string &operand) { return operand.find('[') != std::string::npos; }

void readMemory(const std::string &mnemonic, const std::vector<std::string> &parts,
                const std::vector<std::string> &operands, PtxSummary &out) {
  const std::string &op = parts[0];
  PtxMemoryOp memory;
  memory.mnemonic = mnemonic;
  std::vector<int> addresses;
  for (const std::string &operand : operands)
    if (isAddress(operand))
      addresses.push_back(operandNumber(operand));

  if (op == "cp" || op == "cp.reduce") {
    // cp.async[.bulk[.tensor.Nd]].DST.SRC...: the first state space is the destination.
    std::vector<std::string> spaces;
    bool tensor = false;
    for (const std::string &p : parts) {
      if (isStateSpace(p.substr(0, p.find(':'))))
        spaces.push_back(p.substr(0, p.find(':')));
      tensor = tensor || p == "tensor";
    }
    if (spaces.size() < 2 || addresses.size() < 2)
      return;
    bool reduce = mnemonic.rfind("cp.reduce", 0) == 0;
    if (spaces[1] == "global") {
      memory.kind = PtxMemoryOp::Load;
      memory.addressOperand = addresses[1];
    } else if (spaces[0] == "global") {
      memory.kind = reduce ? PtxMemoryOp::Atomic : PtxMemoryOp::Store;
      memory.addressOperand = addresses[0];
    } else {
      return; // shared to shared (within a cluster)
    }
    memory.space = "global";
    memory.tensorMap = tensor;
    // cp.async.ca.shared.global [dst], [src], 16: a constant size; the bulk forms take a size operand.
    for (size_t i = 2; i < operands.size() && !tensor; ++i) {
      if (isAddress(operands[i]))
        continue;
      std::string size = operands[i];
      size.erase(0, size.find_first_not_of(" \t"));
      if (!size.empty() && std::isdigit(static_cast<unsigned char>(size[0])))
        memory.bytes = std::stoll(size);
      else
        memory.sizeOperand = operandNumber(size);
      break;
    }
    out.memory.push_back(memory);
    return;
  }

  memory.kind = op == "st" ? PtxMemoryOp::Store : (op == "atom" || op == "red") ? PtxMemoryOp::Atomic : PtxMemoryOp::Load;
  memory.space = "generic";
  int64_t vector = 1, element = 0;
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string &p = parts[i];
    std::string base = p.substr(0, p.find(':'));
    if (isStateSpace(base))
      memory.space = base;
    else if (p.size() > 1 && p[0] == 'v' && std::isdigit(static_cast<unsigned char>(p[1])))
      vector = std::stoll(p.substr(1));
    else if (int64_t bytes = typeBytes(p))
      element = bytes;
  }
  if (addresses.empty())
    return;
  memory.addressOperand = addresses[0];
  memory.bytes = vector * element;
  out.memory.push_back(memory);
}

/// Lanes and bucket of a floating-point type suffix; false when `type` is not one.
bool floatType(const std::string &type, double &lanes, double PtxFlops::*&bucket) {
  if (type == "f64")
    bucket = &PtxFlops::fp64;
  else if (type == "f32")
    bucket = &PtxFlops::fp32;
  else if (type == "f16" || type == "f16x2")
    bucket = &PtxFlops::fp16;
  else if (type == "bf16" || type == "bf16x2")
    bucket = &PtxFlops::bf16;
  else
    return false;
  lanes = type.size() > 2 && type.compare(type.size() - 2, 2, "x2") == 0 ? 2 : 1;
  return true;
}

/// An operand as the engine can use it: "$2" or "${2:...}" names an asm operand, "16" or "0x1f" is a literal.
PtxValue valueOf(std::string operand) {
  operand.erase(0, operand.find_first_not_of(" \t"));
  operand.erase(operand.find_last_not_of(" \t") + 1);
  PtxValue value;
  value.operand = operandNumber(operand);
  static const std::regex literal(R"(^-?(0[xX][0-9a-fA-F]+|\d+)$)");
  if (value.operand < 0 && std::regex_match(operand, literal))
    value.literal = std::stoll(operand, nullptr, 0);
  return value;
}

/// The predicate register a shuffle writes (`shfl.sync.down.b32 r|p, ...`), with what decides its value.
struct ShufflePredicate {
  std::string mode;
  PtxValue offset, clamp;
};

void readShuffle(const std::vector<std::string> &parts, const std::vector<std::string> &operands,
                 std::map<std::string, ShufflePredicate> &predicates) {
  // shfl.sync.MODE.b32 d|p, a, b, c, membermask;
  if (parts.size() < 3 || operands.size() < 4)
    return;
  const std::string &destination = operands[0];
  size_t bar = destination.find('|');
  if (bar == std::string::npos)
    return;
  std::string predicate = destination.substr(bar + 1);
  predicate.erase(0, predicate.find_first_not_of(" \t"));
  predicate.erase(predicate.find_last_not_of(" \t") + 1);
  const std::string &mode = parts[1] == "sync" ? parts[2] : parts[1];
  predicates[predicate] = {mode, valueOf(operands[2]), valueOf(operands[3])};
}

/// Keeps the source type the asm's MMAs share, or the first MMA that has none or another.
void recordMmaType(const std::string &mnemonic, const std::vector<std::string> &parts, PtxSummary &summary) {
  if (!summary.untypedMma.empty())
    return;
  std::string type = mmaSourceType(parts);
  if (type.empty() || (!summary.tensorType.empty() && type != summary.tensorType)) {
    summary.untypedMma = mnemonic;
    summary.tensorType.clear();
  } else {
    summary.tensorType = type;
  }
}

void readArithmetic(const std::string &mnemonic, const std::vector<std::string> &parts, PtxFlops &out,
                    PtxSummary &summary) {
  const std::string &op = parts[0];
  if (op == "mma" || op == "wgmma") {
    static const std::regex shape(R"(^m(\d+)n(\d+)k(\d+)$)");
    std::smatch m;
    bool sparse = false;
    std::optional<double> flops;
    for (const std::string &p : parts) {
      sparse = sparse || p == "sp" || p.rfind("sp::", 0) == 0;
      if (std::regex_match(p, m, shape))
        flops = 2.0 * std::stod(m[1]) * std::stod(m[2]) * std::stod(m[3]);
    }
    if (!flops || sparse) {
      summary.unmodelled.push_back(mnemonic);
      return;
    }
    // An MMA is one instruction of a warp (32 threads) or, for wgmma, of a warpgroup (128 threads); the
    // engine counts per thread execution.
    out.tensor += *flops / (op == "wgmma" ? 128.0 : 32.0);
    recordMmaType(mnemonic, parts, summary);
    return;
  }
  static const std::map<std::string, double> arithmetic = {{"add", 1}, {"sub", 1}, {"mul", 1}, {"fma", 2},
                                                           {"mad", 2}};
  static const std::set<std::string> special = {"ex2", "lg2", "rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", "div"};
  auto counted = arithmetic.find(op);
  bool isSpecial = special.count(op) > 0;
  if (counted == arithmetic.end() && !isSpecial)
    return;
  double lanes = 1;
  double PtxFlops::*bucket = nullptr;
  for (size_t i = parts.size(); i-- > 1;)
    if (floatType(parts[i], lanes, bucket))
      break;
  if (!bucket)
    return; // integer arithmetic
  if (isSpecial)
    out.special += lanes;
  else
    out.*bucket += counted->second * lanes;
}

} // namespace

std::string mmaSourceType(const std::vector<std::string> &parts) {
  // Types only inputs have, by the measured side's name ("" for those it has none for); f16 is an input or an
  // accumulator type, f32 an accumulator's only. NVVM names an MMA of half inputs by its accumulator types
  // alone (llvm.nvvm.wmma.m16n16k16.mma.row.col.f32.f32), PTX spells them (.f32.f16.f16.f32).
  static const std::map<std::string, std::string> inputTypes = {
      {"bf16", "bf16"}, {"tf32", "tf32"}, {"f64", "fp64"}, {"e4m3", "fp8"}, {"e5m2", "fp8"}, {"s8", "int8"},
      {"u8", "int8"},   {"s4", ""},       {"u4", ""},      {"b1", ""},      {"e2m1", ""},    {"e3m2", ""},
      {"e2m3", ""}};
  std::set<std::string> named;
  bool halfOrFloat = false;
  for (const std::string &part : parts) {
    if (auto input = inputTypes.find(part); input != inputTypes.end())
      named.insert(input->second);
    halfOrFloat = halfOrFloat || part == "f16" || part == "f32";
  }
  if (named.empty())
    return halfOrFloat ? "fp16" : "";
  return named.size() == 1 ? *named.begin() : "";
}

const PtxSummary &readInlinePtx(const std::string &text) {
  // The same asm text recurs in every kernel that inlines the helper holding it (MMA fragments, cache-hinted
  // loads): read each text once per process.
  static std::unordered_map<std::string, PtxSummary> read;
  auto [entry, fresh] = read.try_emplace(text);
  if (!fresh)
    return entry->second;
  PtxSummary &out = entry->second;
  std::string code;
  for (size_t i = 0; i < text.size(); ++i) { // comments out
    if (text.compare(i, 2, "//") == 0)
      while (i + 1 < text.size() && text[i + 1] != '\n')
        ++i;
    else
      code += text[i];
  }
  // Predicate registers set by a shuffle, by name: the arithmetic they guard runs in some lanes only.
  std::map<std::string, ShufflePredicate> shufflePredicates;
  for (std::string line : split(code, '\n'))
    for (std::string statement : split(line, ';')) {
      // Braces scope .reg declarations; "@p ", "@!p " predicates and "L1:" labels precede the mnemonic.
      size_t at = statement.find_first_not_of(" \t{}");
      if (at == std::string::npos)
        continue;
      statement = statement.substr(at);
      static const std::regex prefix(R"(^(\$?[A-Za-z_][\w$]*:\s*)?(@(!?)([%\w$]+)\s+)?)");
      std::smatch guard;
      std::regex_search(statement, guard, prefix);
      bool negated = guard[3].matched && guard[3].length() > 0;
      std::string predicate = guard[4].str();
      statement = statement.substr(guard[0].length());
      size_t end = statement.find_first_of(" \t");
      std::string mnemonic = statement.substr(0, end);
      if (mnemonic.empty() || mnemonic[0] == '.')
        continue; // a directive: .reg, .pragma
      std::vector<std::string> parts = split(mnemonic, '.');
      if (parts.empty())
        continue;
      std::vector<std::string> operands = end == std::string::npos ? std::vector<std::string>{}
                                                                    : operandsOf(statement.substr(end));
      const std::string &op = parts[0];
      if (op == "ld" || op == "ldu" || op == "st" || op == "atom" || op == "red")
        readMemory(mnemonic, parts, operands, out);
      else if (op == "cp" && parts.size() > 1 && parts[1] == "async")
        readMemory(mnemonic, parts, operands, out);
      else if (op == "cp" && parts.size() > 2 && parts[1] == "reduce") {
        std::vector<std::string> reduceParts = parts;
        reduceParts[0] = "cp.reduce";
        readMemory(mnemonic, reduceParts, operands, out);
      } else if (op == "shfl") {
        readShuffle(parts, operands, shufflePredicates);
      } else if (auto shuffle = shufflePredicates.find(predicate); shuffle != shufflePredicates.end()) {
        ShuffleGatedFlops gated{{}, shuffle->second.mode, shuffle->second.offset, shuffle->second.clamp, negated};
        readArithmetic(mnemonic, parts, gated.flops, out);
        if (gated.flops.any())
          out.shuffleGated.push_back(gated);
      } else {
        readArithmetic(mnemonic, parts, out.flops, out);
      }
    }
  return out;
}

int lanesWithSource(const std::string &mode, int64_t offset, int64_t clamp) {
  const int64_t b = offset & 31, c = clamp & 31, segmentMask = (clamp >> 8) & 31;
  int lanes = 0;
  for (int64_t lane = 0; lane < 32; ++lane) {
    const int64_t maxLane = (lane & segmentMask) | (c & ~segmentMask), minLane = lane & segmentMask;
    if (mode == "up")
      lanes += lane - b >= minLane;
    else if (mode == "down")
      lanes += lane + b <= maxLane;
    else if (mode == "bfly")
      lanes += (lane ^ b) <= maxLane;
    else if (mode == "idx")
      lanes += (minLane | (b & ~segmentMask)) <= maxLane;
  }
  return lanes;
}

const llvm::Value *asmOperand(const llvm::CallInst &call, int number) {
  const auto *asm_ = llvm::dyn_cast<llvm::InlineAsm>(call.getCalledOperand());
  if (!asm_)
    return nullptr;
  int operand = 0;
  unsigned argument = 0;
  for (const llvm::InlineAsm::ConstraintInfo &info : asm_->ParseConstraints()) {
    if (info.Type == llvm::InlineAsm::isClobber)
      continue;
    bool isArgument = info.Type == llvm::InlineAsm::isInput || info.isIndirect;
    if (operand == number)
      return isArgument && argument < call.arg_size() ? call.getArgOperand(argument) : nullptr;
    ++operand;
    argument += isArgument;
  }
  return nullptr;
}

} // namespace roofcheck::lint
