#include "server/feature_gates.h"

#include <algorithm>

namespace kube::server {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Go's strconv.ParseBool.
bool GoParseBool(std::string_view v, bool& out) {
  static constexpr std::string_view kTrue[] = {"1", "t", "T", "TRUE", "true", "True"};
  static constexpr std::string_view kFalse[] = {"0", "f", "F", "FALSE", "false", "False"};
  if (std::find(std::begin(kTrue), std::end(kTrue), v) != std::end(kTrue)) return out = true, true;
  if (std::find(std::begin(kFalse), std::end(kFalse), v) != std::end(kFalse)) return out = false, true;
  return false;
}

}  // namespace

const FeatureGateSpec* FindFeatureGate(std::string_view name) {
  const auto& gates = KnownFeatureGates();
  auto it = std::lower_bound(gates.begin(), gates.end(), name,
                             [](const FeatureGateSpec& g, std::string_view n) { return g.name < n; });
  return it != gates.end() && it->name == name ? &*it : nullptr;
}

Status SetFeatureGates(const std::vector<std::string>& values, std::map<std::string, bool>& gates) {
  for (const auto& value : values) {
    std::string_view rest = value;
    while (!rest.empty()) {
      const size_t comma = rest.find(',');
      std::string_view pair = Trim(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      if (pair.empty()) continue;
      const size_t eq = pair.find('=');
      std::string_view key = Trim(pair.substr(0, eq));
      const std::string_view text = eq == std::string_view::npos ? std::string_view() : Trim(pair.substr(eq + 1));
      // The component prefix: kube-apiserver registers only "kube", the default.
      if (const size_t colon = key.find(':'); colon != std::string_view::npos) {
        const std::string_view component = key.substr(0, colon);
        if (component != "kube") return Status::BadRequest("component not registered: " + std::string(component));
        key = key.substr(colon + 1);
      }
      const FeatureGateSpec* spec = FindFeatureGate(key);
      if (spec == nullptr) return Status::BadRequest("unrecognized feature gate: " + std::string(key));
      bool on = false;
      if (!GoParseBool(text, on)) {
        return Status::BadRequest("invalid value of " + std::string(key) + "=" + std::string(text) +
                                  ", err: strconv.ParseBool: parsing \"" + std::string(text) + "\": invalid syntax");
      }
      if (spec->locked && on != spec->default_value) {
        return Status::BadRequest("cannot set feature gate " + std::string(key) + " to " + (on ? "true" : "false") +
                                  ", feature is locked to " + (spec->default_value ? "true" : "false"));
      }
      gates[std::string(key)] = on;
    }
  }
  return Status::OK();
}

}  // namespace kube::server
