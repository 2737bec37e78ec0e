#include "roofcheck/Json.h"

#include "roofcheck/Expr.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace roofcheck {

namespace {

const char *typeName(const Json &value) {
  switch (value.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::object:
    return "an object";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
  case Json::value_t::number_float:
    return "a number";
  default:
    return "an unknown value";
  }
}

} // namespace

FieldReader::FieldReader(const Json &value, std::string path) : value_(value), path_(std::move(path)) {
  if (!value_.is_object())
    throw Error((path_.empty() ? std::string("document") : path_) + ": must be an object, found " +
                typeName(value_));
}

std::string FieldReader::childPath(const std::string &key) const {
  return path_.empty() ? key : path_ + "." + key;
}

void FieldReader::fail(const std::string &key, const std::string &message) const {
  throw Error(childPath(key) + ": " + message);
}

bool FieldReader::has(const std::string &key) const { return value_.contains(key); }

const Json &FieldReader::require(const std::string &key) const {
  auto it = value_.find(key);
  if (it == value_.end())
    fail(key, "missing");
  return *it;
}

const Json &FieldReader::raw(const std::string &key) const { return require(key); }

std::string FieldReader::string(const std::string &key) const {
  const Json &v = require(key);
  if (!v.is_string())
    fail(key, std::string("must be a string, found ") + typeName(v));
  return v.get<std::string>();
}

std::optional<std::string> FieldReader::optionalString(const std::string &key) const {
  if (!has(key) || value_.at(key).is_null())
    return std::nullopt;
  return string(key);
}

int64_t FieldReader::integer(const std::string &key) const {
  const Json &v = require(key);
  if (v.is_number_integer())
    return v.get<int64_t>();
  if (v.is_number_unsigned()) {
    uint64_t u = v.get<uint64_t>();
    if (u > static_cast<uint64_t>(INT64_MAX))
      fail(key, "integer too large");
    return static_cast<int64_t>(u);
  }
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18)
      return static_cast<int64_t>(d);
  }
  fail(key, std::string("must be an integer, found ") + typeName(v));
}

std::optional<int64_t> FieldReader::optionalInteger(const std::string &key) const {
  if (!has(key) || value_.at(key).is_null())
    return std::nullopt;
  return integer(key);
}

double FieldReader::number(const std::string &key) const {
  const Json &v = require(key);
  if (!v.is_number())
    fail(key, std::string("must be a number, found ") + typeName(v));
  double d = v.get<double>();
  if (!std::isfinite(d))
    fail(key, "must be a finite number");
  return d;
}

std::optional<double> FieldReader::optionalNumber(const std::string &key) const {
  if (!has(key) || value_.at(key).is_null())
    return std::nullopt;
  return number(key);
}

double FieldReader::positiveNumber(const std::string &key) const {
  double d = number(key);
  if (!(d > 0))
    fail(key, "must be positive, found " + Number::real(d).str());
  return d;
}

bool FieldReader::boolean(const std::string &key) const {
  const Json &v = require(key);
  if (!v.is_boolean())
    fail(key, std::string("must be a boolean, found ") + typeName(v));
  return v.get<bool>();
}

FieldReader FieldReader::object(const std::string &key) const {
  const Json &v = require(key);
  if (!v.is_object())
    fail(key, std::string("must be an object, found ") + typeName(v));
  return FieldReader(v, childPath(key));
}

std::optional<FieldReader> FieldReader::optionalObject(const std::string &key) const {
  if (!has(key) || value_.at(key).is_null())
    return std::nullopt;
  return object(key);
}

std::vector<FieldReader> FieldReader::array(const std::string &key) const {
  const Json &v = require(key);
  if (!v.is_array())
    fail(key, std::string("must be an array, found ") + typeName(v));
  std::vector<FieldReader> out;
  out.reserve(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out.emplace_back(v[i], childPath(key) + "[" + std::to_string(i) + "]");
  return out;
}

std::vector<FieldReader> FieldReader::optionalArray(const std::string &key) const {
  if (!has(key) || value_.at(key).is_null())
    return {};
  return array(key);
}

void requireSchema(const Json &document, const std::string &expected, const std::string &source) {
  if (!document.is_object())
    throw Error(source + ": not a " + expected + " document (the top level is not an object)");
  auto it = document.find("schema");
  if (it == document.end())
    throw Error(source + ": not a " + expected + " document (no \"schema\" field)");
  if (!it->is_string() || it->get<std::string>() != expected)
    throw Error(source + ": schema is " + it->dump() + ", expected \"" + expected + "\"");
}

Json readJsonFile(const std::string &path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    throw Error(path + ": " + std::strerror(errno));
  if (S_ISDIR(info.st_mode))
    throw Error(path + ": is a directory, expected a JSON file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error(path + ": cannot open: " + std::strerror(errno));
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(path + ": empty file, expected a JSON document");
  try {
    return Json::parse(text);
  } catch (const Json::exception &e) {
    // nlohmann's messages start with "[json.exception.parse_error.101] " or, for a number too large for a
    // double, "[json.exception.out_of_range.406] ": keep what follows.
    std::string message = e.what();
    auto at = message.find("] ");
    throw Error(path + ": invalid JSON: " + (at == std::string::npos ? message : message.substr(at + 2)));
  }
}

void writeFileAtomically(const std::string &path, const std::string &text) {
  std::string temporary = path + ".tmp." + std::to_string(::getpid());
  int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    throw Error(path + ": cannot write: " + std::strerror(errno));
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      int saved = errno;
      ::close(fd);
      ::unlink(temporary.c_str());
      throw Error(path + ": cannot write: " + std::strerror(saved));
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int saved = errno;
    ::unlink(temporary.c_str());
    throw Error(path + ": cannot write: " + std::strerror(saved));
  }
  if (::rename(temporary.c_str(), path.c_str()) != 0) {
    int saved = errno;
    ::unlink(temporary.c_str());
    throw Error(path + ": cannot write: " + std::strerror(saved));
  }
}

void writeJsonFile(const std::string &path, const Json &document) {
  writeFileAtomically(path, document.dump(2) + "\n");
}

} // namespace roofcheck
