// JSON nesting depth, measured on the text before anything is built from it. kube's JSON
// decoders (Go's encoding/json scanner, which sigs.k8s.io/json and the apimachinery serializers
// share) refuse input nested deeper than 10,000 arrays and objects; checking first keeps every
// later recursive walk over a decoded value within a known depth.
//
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace kube {

// Go's maxNestingDepth.
inline constexpr int kMaxJsonDepth = 10000;

// The offset of the first '[' or '{' in `text` (read as JSON: brackets inside strings do not
// count) that opens a level deeper than `max_depth`, or npos when there is none. Linear, does not
// allocate, and does not otherwise validate the text.
size_t FindJsonDepthExcess(std::string_view text, int max_depth = kMaxJsonDepth);

// Go's scanner error for that character: "invalid character '[' exceeded max depth".
std::string JsonDepthError(char opening);

}  // namespace kube
