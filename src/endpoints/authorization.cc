#include "endpoints/authorization.h"

#include "auth/forbidden.h"
#include "auth/impersonation.h"

#include <strings.h>

namespace kube::endpoints {

auth::Attributes RequestAttributes(const RequestInfo& info, const auth::UserInfo& user) {
  auth::Attributes a;
  a.user = user;
  a.verb = info.verb;
  a.resource_request = info.is_resource_request;
  a.path = info.path;
  if (!info.is_resource_request) return a;
  a.namespace_ = info.namespace_;
  a.api_group = info.api_group;
  a.api_version = info.api_version;
  a.resource = info.resource;
  a.subresource = info.subresource;
  a.name = info.name;
  return a;
}

Result<auth::UserInfo> EffectiveUser(const HttpRequest& request, const auth::Authorizer& authorizer) {
  // Header names sort case-insensitively: every Impersonate-* header follows this key.
  auto first = request.headers.lower_bound("impersonate-");
  if (first == request.headers.end() || first->first.size() < 12 ||
      strncasecmp(first->first.c_str(), "impersonate-", 12) != 0) {
    return request.user;
  }
  std::vector<std::pair<std::string, std::string>> headers(request.headers.begin(), request.headers.end());
  if (!auth::HasImpersonationHeaders(headers)) return request.user;
  return auth::Impersonate(request.user, headers, authorizer);
}

Status AuthorizeRequest(const RequestInfo& info, const auth::UserInfo& user, const auth::Authorizer& authorizer) {
  return auth::Authorize(authorizer, RequestAttributes(info, user));
}

}  // namespace kube::endpoints
