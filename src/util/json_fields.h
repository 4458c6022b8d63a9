// Lenient reads of JSON object fields, for code that has validated a shape already or treats a
// missing or mistyped field as absent: a string ("" when absent or not a string), an array of
// strings (non-strings skipped), a nested object (nullptr).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kube {

inline std::string StringField(const nlohmann::json& obj, const char* field) {
  auto it = obj.find(field);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

inline std::vector<std::string> StringsField(const nlohmann::json& obj, const char* field) {
  std::vector<std::string> out;
  auto it = obj.find(field);
  if (it == obj.end() || !it->is_array()) return out;
  for (const auto& v : *it) {
    if (v.is_string()) out.push_back(v.get<std::string>());
  }
  return out;
}

inline const nlohmann::json* ObjectField(const nlohmann::json& obj, const char* field) {
  auto it = obj.find(field);
  return it != obj.end() && it->is_object() ? &*it : nullptr;
}

}  // namespace kube
