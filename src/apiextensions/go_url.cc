#include "apiextensions/go_url.h"

#include <cctype>

namespace kube::apiextensions {

GoUrl ParseGoUrl(std::string_view input, bool request_uri) {
  GoUrl u;
  const auto fail = [&](std::string_view why) {
    u = GoUrl{};
    u.error = "parse \"" + std::string(input) + "\": " + std::string(why);
    return u;
  };
  std::string_view rest = input;
  if (!request_uri) {
    if (auto hash = rest.find('#'); hash != std::string_view::npos) {
      u.fragment = std::string(rest.substr(hash + 1));
      rest = rest.substr(0, hash);
    }
  }
  for (unsigned char c : rest) {
    if (c < 0x20 || c == 0x7f) return fail("net/url: invalid control character in URL");
  }
  if (rest.empty() && request_uri) return fail("empty url");
  // getScheme: letters first, then letters, digits, '+', '-', '.', up to ':'.
  for (size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (std::isalpha(static_cast<unsigned char>(c))) continue;
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.') {
      if (i == 0) break;
      continue;
    }
    if (c == ':') {
      if (i == 0) return fail("missing protocol scheme");
      u.scheme = std::string(rest.substr(0, i));
      for (char& ch : u.scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      rest = rest.substr(i + 1);
    }
    break;
  }
  if (auto q = rest.find('?'); q != std::string_view::npos) {
    u.raw_query = std::string(rest.substr(q + 1));
    rest = rest.substr(0, q);
  }
  if (!rest.starts_with("/")) {
    if (!u.scheme.empty()) return u;  // opaque: "mailto:x"
    if (request_uri) return fail("invalid URI for request");
    const auto colon = rest.find(':');
    const auto slash = rest.find('/');
    if (colon != std::string_view::npos && (slash == std::string_view::npos || colon < slash)) {
      return fail("first path segment in URL cannot contain colon");
    }
  }
  if ((!u.scheme.empty() || !request_uri) && rest.starts_with("//")) {
    std::string_view authority = rest.substr(2);
    if (auto slash = authority.find('/'); slash != std::string_view::npos) authority = authority.substr(0, slash);
    if (auto at = authority.rfind('@'); at != std::string_view::npos) {
      u.has_user = true;
      u.user = std::string(authority.substr(0, at));
      authority = authority.substr(at + 1);
    }
    u.host = std::string(authority);
  }
  return u;
}

}  // namespace kube::apiextensions
