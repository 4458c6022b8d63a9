// Pieces of go-yaml v2's emitter used by JsonToYaml: UTF-8 character classes as libyaml defines
// them, the scalar analysis that decides which styles a string may use, and go-yaml's map key
// order. Internal to kube_yaml.
//
// Thread-safety: all functions are pure and may be called concurrently.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kube::yaml::internal {

// Byte length of the UTF-8 sequence starting at s[i] (clamped to the end of s).
size_t Width(std::string_view s, size_t i);
// Character classes at byte offset i; false past the end of s.
bool IsSpace(std::string_view s, size_t i);
bool IsBreak(std::string_view s, size_t i);  // \r, \n, NEL, LS, PS
bool IsBom(std::string_view s, size_t i);
bool IsPrintable(std::string_view s, size_t i);  // libyaml's is_printable

// Which styles libyaml allows for a scalar in block context.
struct Analysis {
  bool multiline = false;
  bool block_plain_allowed = true;
  bool single_quoted_allowed = true;
  bool block_allowed = true;  // literal/folded
};
Analysis Analyze(std::string_view s);

// The keys of `obj` in go-yaml v2's order (keyList.Less): non-letters before letters, runs of
// digits compared by value. Non-ASCII code points count as letters.
std::vector<std::string> SortedKeys(const nlohmann::json& obj);

}  // namespace kube::yaml::internal
