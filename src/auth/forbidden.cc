#include "auth/forbidden.h"

namespace kube::auth {

namespace {

// Go's %q for the strings kube puts in these messages: quotes and backslashes escaped, control
// characters as \xNN (names that reach here are mostly plain).
std::string Quote(std::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      static const char* kHex = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// kube escapes what could read as HTML in these messages.
std::string Sanitize(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

}  // namespace

std::string ForbiddenMessage(const Attributes& a) {
  const std::string user = "User " + Quote(a.user.name);
  if (!a.resource_request) return user + " cannot " + a.verb + " path " + Quote(a.path);
  std::string resource = a.resource;
  if (!a.subresource.empty()) resource += "/" + a.subresource;
  std::string out = user + " cannot " + a.verb + " resource " + Quote(resource) + " in API group " + Quote(a.api_group);
  if (!a.namespace_.empty()) return out + " in the namespace " + Quote(a.namespace_);
  return out + " at the cluster scope";
}

Status ForbiddenStatus(const Attributes& a, std::string_view reason) {
  std::string err = Sanitize(ForbiddenMessage(a));
  if (!reason.empty()) err += ": " + std::string(reason);
  const std::string qualified = a.resource.empty() ? "" : (a.api_group.empty() ? a.resource : a.resource + "." + a.api_group);
  std::string message;
  if (qualified.empty()) {
    message = "forbidden: " + err;
  } else if (a.name.empty()) {
    message = qualified + " is forbidden: " + err;
  } else {
    message = qualified + " " + Quote(a.name) + " is forbidden: " + err;
  }
  Status s = Status::Forbidden(std::move(message));
  s.mutable_details().name = a.name;
  s.mutable_details().group = a.api_group;
  s.mutable_details().kind = a.resource;
  return s;
}

Status Authorize(const Authorizer& authorizer, const Attributes& attributes) {
  const AuthorizationResult r = authorizer.Authorize(attributes);
  if (r.decision == Decision::kAllow) return Status::OK();
  return ForbiddenStatus(attributes, r.reason);
}

}  // namespace kube::auth
