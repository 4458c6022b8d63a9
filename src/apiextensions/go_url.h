// The parts of Go's net/url parsing that CRD validation looks at (url.Parse for conversion
// webhook URLs, url.ParseRequestURI for the API approval annotation), with Go's error texts.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace kube::apiextensions {

struct GoUrl {
  std::string error;  // `parse "<input>": <why>`, "" when it parsed
  std::string scheme, user, host, raw_query, fragment;
  bool has_user = false;
};

// url.Parse (request_uri false) or url.ParseRequestURI (true: no fragment split, and the input
// must be an absolute URL or an absolute path).
GoUrl ParseGoUrl(std::string_view input, bool request_uri);

}  // namespace kube::apiextensions
