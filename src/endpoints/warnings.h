// Warning headers as kube-apiserver writes them: its per-request warning recorder (duplicates
// dropped, 4096 runes in total, then every warning cut to 256 runes) and net.NewWarningHeader
// ("299 - \"text\"", with " and \ escaped; a text with control characters or invalid UTF-8 is
// dropped). Bounded: a body with thousands of unknown fields yields a few KiB of headers.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kube::endpoints {

// The Warning header values for `texts`, in order.
std::vector<std::string> WarningHeaders(const std::vector<std::string>& texts);

// kube's parseYAMLWarnings: a YAML strict-decoding error ("yaml: unmarshal errors:\n  line 2:
// key \"a\" already set in map\n  ...", with or without "error converting YAML to JSON: " in
// front) becomes one warning per line; any other text is one warning as it is.
std::vector<std::string> SplitYamlWarnings(std::string_view text);

}  // namespace kube::endpoints
