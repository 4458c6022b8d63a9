// Storage key validation (storage.PrepareKey, 1.35+ rules: storage.md §1.2).
//
// Thread-safety: pure function.
#pragma once

#include <string>
#include <string_view>

#include "util/status.h"

namespace kube::storage {

// Validates `key` for a store whose keys live under `resource_prefix` (e.g. "/pods"): no "." or
// ".." segments, not empty, under the resource prefix. A recursive key gets a trailing '/', so
// "/a" never matches "/ab". Errors are kInternalError (they are programming errors upstream).
Result<std::string> PrepareKey(std::string_view resource_prefix, std::string_view key,
                               bool recursive);

}  // namespace kube::storage
