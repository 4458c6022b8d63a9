#include "auth/impersonation.h"

#include <strings.h>

#include <cctype>

#include "auth/forbidden.h"
#include "auth/service_account_token.h"

namespace kube::auth {

namespace {

constexpr char kUserHeader[] = "Impersonate-User";
constexpr char kGroupHeader[] = "Impersonate-Group";
constexpr char kUidHeader[] = "Impersonate-Uid";
constexpr char kExtraPrefix[] = "Impersonate-Extra-";
constexpr char kAuthenticationGroup[] = "authentication.k8s.io";

bool NameIs(const std::string& name, const char* want) { return strcasecmp(name.c_str(), want) == 0; }

bool HasExtraPrefix(const std::string& name) {
  const size_t n = sizeof(kExtraPrefix) - 1;
  return name.size() > n && strncasecmp(name.c_str(), kExtraPrefix, n) == 0;
}

std::string Lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// url.PathUnescape; the key as sent when it is not well-formed.
std::string PathUnescape(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    if (i + 2 >= s.size() || !std::isxdigit(static_cast<unsigned char>(s[i + 1])) ||
        !std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      return s;
    }
    out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
    i += 2;
  }
  return out;
}

// One requested piece, as kube's v1.ObjectReference list.
struct Piece {
  std::string kind;  // User, ServiceAccount, Group, UserExtra, UID
  std::string ns;
  std::string name;
  std::string api_version;
  std::string field_path;
};

// Go's %v of the []v1.ObjectReference (kube prints it in its 400).
std::string Describe(const std::vector<Piece>& pieces) {
  std::string out = "[";
  for (size_t i = 0; i < pieces.size(); ++i) {
    const Piece& p = pieces[i];
    if (i > 0) out += " ";
    out += "{" + p.kind + " " + p.ns + " " + p.name + "  " + p.api_version + "  " + p.field_path + "}";
  }
  return out + "]";
}

}  // namespace

bool HasImpersonationHeaders(const std::vector<std::pair<std::string, std::string>>& headers) {
  for (const auto& [name, value] : headers) {
    if (NameIs(name, kUserHeader) || NameIs(name, kGroupHeader) || NameIs(name, kUidHeader) || HasExtraPrefix(name)) {
      return true;
    }
  }
  return false;
}

Result<UserInfo> Impersonate(const UserInfo& requestor, const std::vector<std::pair<std::string, std::string>>& headers,
                             const Authorizer& authorizer) {
  std::string requested_user, requested_uid;
  bool user_seen = false, uid_seen = false;
  std::vector<std::string> requested_groups;
  std::vector<std::pair<std::string, std::string>> requested_extra;  // key, value
  for (const auto& [name, value] : headers) {
    if (NameIs(name, kUserHeader) && !user_seen) {
      user_seen = true;
      requested_user = value;
    } else if (NameIs(name, kUidHeader) && !uid_seen) {
      uid_seen = true;
      requested_uid = value;
    } else if (NameIs(name, kGroupHeader)) {
      requested_groups.push_back(value);
    } else if (HasExtraPrefix(name)) {
      requested_extra.emplace_back(PathUnescape(Lower(name.substr(sizeof(kExtraPrefix) - 1))), value);
    }
  }
  std::vector<Piece> pieces;
  if (!requested_user.empty()) {
    if (auto sa = SplitServiceAccountUsername(requested_user)) {
      pieces.push_back({"ServiceAccount", sa->first, sa->second, "", ""});
    } else {
      pieces.push_back({"User", "", requested_user, "", ""});
    }
  }
  for (const auto& g : requested_groups) pieces.push_back({"Group", "", g, "", ""});
  for (const auto& [key, value] : requested_extra) pieces.push_back({"UserExtra", "", value, "authentication.k8s.io/v1", key});
  if (!requested_uid.empty()) pieces.push_back({"UID", "", requested_uid, "authentication.k8s.io/v1", ""});
  if (requested_user.empty() && !pieces.empty()) {
    return Status::BadRequest("requested " + Describe(pieces) + " without impersonating a user");
  }

  const bool groups_specified = !requested_groups.empty();
  UserInfo out;
  for (const Piece& p : pieces) {
    Attributes a;
    a.user = requestor;
    a.verb = "impersonate";
    a.resource_request = true;
    a.namespace_ = p.ns;
    a.name = p.name;
    if (p.kind == "ServiceAccount") {
      a.resource = "serviceaccounts";
      out.name = std::string(kServiceAccountUsernamePrefix) + p.ns + ":" + p.name;
      if (!groups_specified) out.groups = {kServiceAccountsGroup, std::string(kServiceAccountsGroup) + ":" + p.ns};
    } else if (p.kind == "User") {
      a.resource = "users";
      out.name = p.name;
    } else if (p.kind == "Group") {
      a.resource = "groups";
      out.groups.push_back(p.name);
    } else if (p.kind == "UserExtra") {
      a.api_group = kAuthenticationGroup;
      a.api_version = "v1";
      a.resource = "userextras";
      a.subresource = p.field_path;
      out.extra[p.field_path].push_back(p.name);
    } else {
      a.api_group = kAuthenticationGroup;
      a.api_version = "v1";
      a.resource = "uids";
      out.uid = p.name;
    }
    KUBE_RETURN_IF_ERROR(Authorize(authorizer, a));
  }
  if (out.name != kAnonymousUser) {
    if (!out.InGroup(kAllAuthenticated) && !out.InGroup(kAllUnauthenticated)) out.groups.push_back(kAllAuthenticated);
  } else if (!out.InGroup(kAllUnauthenticated)) {
    out.groups.push_back(kAllUnauthenticated);
  }
  return out;
}

}  // namespace kube::auth
