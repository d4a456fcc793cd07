// Reading validated YAML input (scenario files and their sections): a parse context that turns
// every problem into one ScenarioError "<file>:<line>: <field>: <what>", and a mapping reader
// that rejects unknown and duplicate keys with a suggestion. Internal to the host services.
#pragma once

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "host/scenario/scenario.h"

namespace fleetdyn::yaml_input {

std::string fmt(double v);                                // 10 significant digits
std::string join(const std::vector<std::string>& names);  // "a, b, c"
// " (did you mean 'x'?)" for the closest name within a small edit distance, else "".
std::string suggestion(const std::string& name, const std::vector<std::string>& known);
int line_of(const YAML::Node& n);           // 1-based, 0 when unknown
std::string describe(const YAML::Node& n);  // "a list", "'abc'", ...

// Parse context: the file name for messages and the throwing helpers.
struct Ctx {
  std::string file;

  [[noreturn]] void fail(const YAML::Node& at, const std::string& field, const std::string& what) const {
    throw ScenarioError(file, line_of(at), field, what);
  }
  [[noreturn]] void fail(int line, const std::string& field, const std::string& what) const {
    throw ScenarioError(file, line, field, what);
  }

  // A finite number written as a plain YAML scalar (no quotes, no .inf/.nan, no hex).
  double number(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar() || n.Tag() == "!") fail(n, field, "expected a number, got " + describe(n));
    const std::string& s = n.Scalar();
    const bool chars_ok = !s.empty() && s.find_first_not_of("0123456789+-.eE") == std::string::npos;
    char* end = nullptr;
    const double v = chars_ok ? std::strtod(s.c_str(), &end) : 0.0;
    if (!chars_ok || end != s.c_str() + s.size() || !std::isfinite(v)) {
      fail(n, field, "expected a number, got '" + s + "'");
    }
    return v;
  }
  double number_in(const YAML::Node& n, const std::string& field, double lo, double hi, const char* unit = "") const {
    const double v = number(n, field);
    if (!(v >= lo && v <= hi)) {
      fail(n, field, fmt(v) + " is outside [" + fmt(lo) + ", " + fmt(hi) + "]" + (*unit ? std::string(" ") + unit : ""));
    }
    return v;
  }
  double positive(const YAML::Node& n, const std::string& field, double hi, const char* unit) const {
    const double v = number(n, field);
    if (!(v > 0.0 && v <= hi)) fail(n, field, fmt(v) + " is outside (0, " + fmt(hi) + "] " + unit);
    return v;
  }
  int integer_in(const YAML::Node& n, const std::string& field, long long lo, long long hi) const {
    return static_cast<int>(integer64_in(n, field, lo, hi));
  }
  // Exact up to 2^53 (the integers a double holds).
  long long integer64_in(const YAML::Node& n, const std::string& field, long long lo, long long hi) const {
    if (!n.IsScalar() || n.Tag() == "!") fail(n, field, "expected an integer, got " + describe(n));
    const double v = number(n, field);
    if (v != std::floor(v)) fail(n, field, "expected an integer, got '" + n.Scalar() + "'");
    if (!(v >= static_cast<double>(lo) && v <= static_cast<double>(hi))) {
      fail(n, field, n.Scalar() + " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    }
    return static_cast<long long>(v);
  }
  bool boolean(const YAML::Node& n, const std::string& field) const {
    bool b = false;
    if (!n.IsScalar() || n.Tag() == "!" || !YAML::convert<bool>::decode(n, b)) {
      fail(n, field, "expected true or false, got " + describe(n));
    }
    return b;
  }
  // The mapping's `key` (e.g. `type`), read before its other keys because it decides which are
  // allowed: its text, or "" when absent; *at (a fresh YAML::Node: assigning to a bound node
  // would overwrite what it refers to) receives its value node when present.
  std::string kind_key(const YAML::Node& map, const char* key, const std::string& field, YAML::Node* at) const {
    std::string value;
    for (auto it = map.begin(); it != map.end(); ++it) {
      if (it->first.IsScalar() && it->first.Scalar() == key) {
        *at = it->second;
        value = string(it->second, field);
      }
    }
    return value;
  }
  // Fails with "unknown <noun> '<value>' (allowed: ...)" and a suggestion unless value is allowed.
  void require_one_of(const YAML::Node& at, const std::string& field, const std::string& value,
                      const std::vector<std::string>& allowed, const std::string& noun) const {
    if (std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      fail(at, field, "unknown " + noun + " '" + value + "' (allowed: " + join(allowed) + ")" + suggestion(value, allowed));
    }
  }
  std::string string(const YAML::Node& n, const std::string& field) const {
    if (!n.IsScalar() || n.Scalar().empty()) fail(n, field, "expected a text value, got " + describe(n));
    return n.Scalar();
  }
};

// One YAML mapping with its keys checked against the allowed ones (unknown and duplicate keys
// are errors; an empty `allowed` accepts any name) and looked up by name.
class MapReader {
 public:
  MapReader(const Ctx& ctx, const YAML::Node& node, std::string field, const std::vector<std::string>& allowed,
            const std::string& context = "")
      : ctx_(ctx), node_(node), field_(std::move(field)) {
    if (!node.IsMap())
      ctx.fail(node, field_.empty() ? "scenario" : field_, "expected a mapping of keys, got " + describe(node));
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) ctx.fail(key, field_.empty() ? "scenario" : field_, "keys must be plain names");
      const std::string name = key.Scalar();
      if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), name) == allowed.end()) {
        ctx.fail(key, path(name),
                 "unknown key '" + name + "'" + context + " (allowed: " + join(allowed) + ")" + suggestion(name, allowed));
      }
      for (const auto& e : entries_) {
        if (e.name == name)
          ctx.fail(key, path(name), "duplicate key (first on line " + std::to_string(line_of(e.key)) + ")");
      }
      entries_.push_back({name, key, it->second});
    }
  }

  const YAML::Node* find(const std::string& name) const {
    for (const auto& e : entries_) {
      if (e.name == name) return &e.value;
    }
    return nullptr;
  }
  const YAML::Node& require(const std::string& name) const {
    const YAML::Node* v = find(name);
    if (!v) ctx_.fail(node_, path(name), "required key is missing");
    return *v;
  }
  std::string path(const std::string& name) const { return field_.empty() ? name : field_ + "." + name; }
  const YAML::Node& node() const { return node_; }

  struct Entry {
    std::string name;
    YAML::Node key, value;
  };
  const std::vector<Entry>& entries() const { return entries_; }

 private:
  const Ctx& ctx_;
  YAML::Node node_;
  std::string field_;
  std::vector<Entry> entries_;
};

}  // namespace fleetdyn::yaml_input
