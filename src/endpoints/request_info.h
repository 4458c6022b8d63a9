// RequestInfo: what an HTTP request addresses, parsed from its method, path and query the way
// kube-apiserver's RequestInfoFactory does (by path segments, not one pattern per route):
//   /api/v1/namespaces/{ns}/{resource}/{name}/{subresource}
//   /apis/{group}/{version}/{resource}/{name}
//   /api/v1/watch/namespaces/{ns}/{resource}        (legacy watch paths)
// plus the verb kube derives (get, list, watch, create, update, patch, delete, deletecollection).
//
// Thread-safety: a plain value; the parser is a pure function.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kube::endpoints {

struct RequestInfo {
  // False for paths outside /api and /apis and for discovery paths (/api, /apis/g, /apis/g/v).
  bool is_resource_request = false;
  std::string path;
  // Kube verb for resource requests; the lower-case HTTP method otherwise.
  std::string verb;
  std::string api_prefix;   // "api" or "apis"
  std::string api_group;    // "" for the core group
  std::string api_version;
  std::string namespace_;   // from namespaces/{ns}/...; for /namespaces/{name} the name as well
  std::string resource;
  std::string subresource;
  std::string name;
  // Path segments after the prefix, group and version (for discovery and error messages).
  std::vector<std::string> parts;
  // The request came through a legacy /watch/ path.
  bool legacy_watch = false;
};

// `path` is the decoded URL path; `watch_param` the parsed boolean `watch` query parameter.
RequestInfo ParseRequestInfo(std::string_view method, std::string_view path, bool watch_param);

}  // namespace kube::endpoints
