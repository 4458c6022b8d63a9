// Base64 in the URL-safe alphabet without padding (RFC 4648 §5, Go's base64.RawURLEncoding),
// the encoding of Kubernetes continue tokens.
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

}  // namespace kube
