// resourceVersion handling (kube's APIObjectVersioner) and list-option validation
// (storage.ValidateListOptions), shared by both storage implementations.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "storage/interface.h"
#include "util/status.h"

namespace kube::storage {

// "" and "0" are 0; anything else must be a base-10 uint64 (kBadRequest
// "invalid resource version: ..." otherwise).
Result<uint64_t> ParseResourceVersion(std::string_view rv);

inline constexpr std::string_view kMatchNotOlderThan = "NotOlderThan";
inline constexpr std::string_view kMatchExact = "Exact";

// What a list reads after validation.
struct ListRead {
  // Revision to read at exactly; 0 means latest (then min_revision applies).
  int64_t exact_revision = 0;
  // The latest-read must be at least this revision (504 TooLarge otherwise).
  uint64_t min_revision = 0;
  // Absolute start key from a continue token, empty for a first page.
  std::string continue_key;
  // The token asked for the latest revision (rv < 0: an inconsistent continuation).
  bool continue_at_latest = false;
};

// storage.md §1.2 ValidateListOptions. `key_prefix` is the absolute prefix the list covers
// (e.g. "/registry/pods/"), against which continue tokens are resolved.
Result<ListRead> ValidateListOptions(std::string_view key_prefix, const ListOptions& options);

// "Too large resource version: N, current: C" (504 Timeout, cause ResourceVersionTooLarge).
Status TooLargeResourceVersion(uint64_t requested, uint64_t current, int retry_after_seconds);

}  // namespace kube::storage
