// Base64: the URL-safe alphabet without padding (RFC 4648 §5, Go's base64.RawURLEncoding), the
// encoding of Kubernetes continue tokens; and the standard padded one (§4, Go's
// base64.StdEncoding), that of []byte fields in JSON (Secret data, caBundle, protobuf bytes).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kube {

std::string Base64UrlEncode(std::string_view data);
// nullopt when `text` holds a character outside the alphabet, padding, or an impossible length.
std::optional<std::string> Base64UrlDecode(std::string_view text);

std::string Base64StdEncode(std::string_view data);
// nullopt on characters outside the standard alphabet or bad padding.
std::optional<std::string> Base64StdDecode(std::string_view text);

}  // namespace kube
