#include "endpoints/request_info.h"

#include <algorithm>
#include <cctype>

namespace kube::endpoints {

namespace {

std::vector<std::string> SplitPath(std::string_view path) {
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < path.size()) {
    while (i < path.size() && path[i] == '/') ++i;
    size_t end = path.find('/', i);
    if (end == std::string_view::npos) end = path.size();
    if (end > i) parts.emplace_back(path.substr(i, end - i));
    i = end;
  }
  return parts;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

RequestInfo ParseRequestInfo(std::string_view method, std::string_view path, bool watch_param) {
  RequestInfo info;
  info.path = std::string(path);
  info.verb = Lower(method);
  std::vector<std::string> parts = SplitPath(path);
  if (parts.empty() || (parts[0] != "api" && parts[0] != "apis")) return info;
  info.api_prefix = parts[0];
  parts.erase(parts.begin());
  if (info.api_prefix == "apis") {
    if (parts.empty()) return info;  // /apis: discovery
    info.api_group = parts[0];
    parts.erase(parts.begin());
  }
  if (parts.empty()) return info;  // /api or /apis/<group>: discovery
  info.api_version = parts[0];
  parts.erase(parts.begin());
  info.parts = parts;
  if (parts.empty()) return info;  // /api/v1 or /apis/<g>/<v>: discovery

  info.is_resource_request = true;
  if (parts[0] == "watch") {
    info.legacy_watch = true;
    parts.erase(parts.begin());
    if (parts.empty()) {
      info.is_resource_request = false;
      return info;
    }
  }
  // namespaces/{ns}/{resource}/...: the collection inside a namespace. The namespace object's
  // own subresources (status, finalize) keep "namespaces" as the resource.
  if (parts[0] == "namespaces" && parts.size() > 1) {
    info.namespace_ = parts[1];
    if (parts.size() > 2 && parts[2] != "status" && parts[2] != "finalize") {
      parts.erase(parts.begin(), parts.begin() + 2);
    }
  }
  info.resource = parts[0];
  if (parts.size() >= 2) info.name = parts[1];
  if (parts.size() >= 3) info.subresource = parts[2];
  if (parts.size() > 3) {
    // Deeper paths (pods/x/proxy/...) are subresource paths kube only serves for connect verbs.
    info.subresource = parts[2];
  }

  const std::string m = Lower(method);
  if (info.legacy_watch) {
    info.verb = "watch";
  } else if (m == "get" || m == "head") {
    info.verb = info.name.empty() ? (watch_param ? "watch" : "list") : (watch_param ? "watch" : "get");
  } else if (m == "post") {
    info.verb = "create";
  } else if (m == "put") {
    info.verb = "update";
  } else if (m == "patch") {
    info.verb = "patch";
  } else if (m == "delete") {
    info.verb = info.name.empty() ? "deletecollection" : "delete";
  }
  return info;
}

}  // namespace kube::endpoints
