// URLs as Go's net/url reads them (url.Parse and url.ParseRequestURI), which kube's URL library
// and the `uri` named format build on: the same components, the same percent-decoding rules per
// component, and errors worded as Go words them (`parse "foo": invalid URI for request`).
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kube::cel {

struct GoUrl {
  std::string scheme;  // lower-cased
  std::string opaque;  // "mailto:x@y" → "x@y"
  bool has_user = false, has_password = false;
  std::string username, password;  // decoded
  std::string host;                // decoded, with the port: "example.com:8080", "[::1]:80"
  std::string path, raw_path;      // decoded path, and the original when it differs from Go's re-encoding
  bool omit_host = false, force_query = false;
  std::string raw_query;  // without '?'
  std::string fragment;   // decoded

  std::string Hostname() const;     // host without the port and brackets
  std::string Port() const;         // the port digits, or ""
  std::string EscapedPath() const;  // url.URL.EscapedPath
  // url.Values of the query (pairs that fail to decode are skipped, as Go's Query() does).
  std::map<std::string, std::vector<std::string>> Query() const;
  std::string String() const;  // url.URL.String
};

// url.ParseRequestURI: an absolute URI or an absolute path, no fragment split.
std::optional<GoUrl> ParseRequestUri(std::string_view raw, std::string* error);
// Whether ParseRequestUri(raw) succeeds, without building the URL.
bool IsRequestUri(std::string_view raw);
// url.Parse: any URL reference; the fragment is split off first.
std::optional<GoUrl> ParseUrl(std::string_view raw, std::string* error);
// What kube's url() does: ParseRequestUri's verdict and error, then ParseUrl's reading of the
// accepted string, into *out (which must be GoUrl{} on entry; unspecified on failure). Parses
// once when the two readings agree (no '#', no scheme-less "//host"), twice otherwise.
bool ParseRequestUriAsUrl(std::string_view raw, GoUrl* out, std::string* error);

}  // namespace kube::cel
