// JSON forms of the Kubernetes wire types whose protobuf shape differs from their JSON shape
// (internal to kube_protobuf): metav1.Time / MicroTime (RFC 3339, UTC), metav1.Duration (Go's
// time.Duration string) and standard padded base64 (Go's encoding of []byte in JSON).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "util/base64.h"

namespace kube::protobuf {

struct Timestamp {
  int64_t seconds = 0;
  int32_t nanos = 0;
};

// "2024-05-01T12:00:00Z"; with micro, "2024-05-01T12:00:00.000000Z" (nanos truncated to µs).
std::string FormatRfc3339(Timestamp t, bool micro);
// RFC 3339 with optional fraction and a "Z" or ±hh:mm offset; nullopt when malformed.
std::optional<Timestamp> ParseRfc3339(std::string_view text);

// Go's time.Duration.String(): "1h0m0s", "1.5s", "300ms", "0s".
std::string FormatGoDuration(int64_t nanos);
// Go's time.ParseDuration; nullopt when malformed or out of range.
std::optional<int64_t> ParseGoDuration(std::string_view text);

// Base64 of []byte fields (util/base64.h).
using kube::Base64StdDecode;
using kube::Base64StdEncode;

}  // namespace kube::protobuf
