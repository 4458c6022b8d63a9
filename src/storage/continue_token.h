// Continue tokens of paged lists: base64url (no padding) of
// {"v":"meta.k8s.io/v1","rv":<int64>,"start":"<key suffix>"} (storage.md §2.5).
//
// The start key is stored relative to the list's key prefix, so tokens minted by the cacher and
// by the kv-backed store are interchangeable.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "util/status.h"

namespace kube::storage {

struct ContinueToken {
  int64_t resource_version = 0;  // > 0 exact revision; < 0 (-1) latest
  std::string start_key;         // absolute key to resume at
};

// `next_key` is the absolute key to resume at (the last examined key + "\0"). Fails when it is
// not under `key_prefix`.
Result<std::string> EncodeContinueToken(std::string_view next_key, std::string_view key_prefix,
                                        int64_t resource_version);

// Decodes and validates a token (version, rv != 0, non-empty start without path traversal) and
// resolves its start against `key_prefix`. Errors carry kube's "continue key is not valid: ..."
// texts.
Result<ContinueToken> DecodeContinueToken(std::string_view token, std::string_view key_prefix);

}  // namespace kube::storage
