// Who a request is made by, as authentication establishes it (kube's user.Info): the name,
// uid, groups and extra attributes. Authenticators produce it, impersonation replaces it, the
// authorizer and the review resources (SelfSubjectReview, SubjectAccessReview) read it.
//
// Thread-safety: a plain value.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace kube::auth {

// Well-known names kube uses (k8s.io/apiserver/pkg/authentication/user).
inline constexpr char kSystemMasters[] = "system:masters";
inline constexpr char kAllAuthenticated[] = "system:authenticated";
inline constexpr char kAllUnauthenticated[] = "system:unauthenticated";
inline constexpr char kAnonymousUser[] = "system:anonymous";

struct UserInfo {
  std::string name;
  std::string uid;
  std::vector<std::string> groups;
  std::map<std::string, std::vector<std::string>> extra;

  bool InGroup(const std::string& group) const {
    for (const auto& g : groups) {
      if (g == group) return true;
    }
    return false;
  }
};

}  // namespace kube::auth
