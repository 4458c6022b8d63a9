#include "auth/request_authenticator.h"

#include <cctype>

namespace kube::auth {

namespace {

// "Bearer <token>" (scheme case-insensitive, as kube's bearertoken authenticator); "" when the
// header carries no bearer token.
std::string BearerToken(const std::string& header) {
  const size_t space = header.find(' ');
  if (space == std::string::npos) return "";
  std::string scheme = header.substr(0, space);
  for (auto& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "bearer") return "";
  const size_t end = header.find(' ', space + 1);
  return header.substr(space + 1, end == std::string::npos ? std::string::npos : end - space - 1);
}

Status Unauthorized() { return UnauthorizedError("Unauthorized"); }

}  // namespace

void AddAuthenticatedGroup(UserInfo* user) {
  for (const auto& g : user->groups) {
    if (g == kAllAuthenticated || g == kAllUnauthenticated) return;
  }
  user->groups.push_back(kAllAuthenticated);
}

Result<AuthenticatedUser> RequestAuthenticator::Authenticate(const Credentials& credentials) const {
  bool failed = false;
  if (options_.certificates && !credentials.peer_certificates.empty()) {
    auto r = options_.certificates->Authenticate(credentials.peer_certificates);
    if (!r.ok()) {
      failed = true;
    } else if (r->has_value()) {
      AuthenticatedUser u = std::move(**r);
      AddAuthenticatedGroup(&u.user);
      return u;
    }
  }
  const std::string token = BearerToken(credentials.authorization);
  if (!token.empty()) {
    auto r = AuthenticateToken(token, {});
    if (r.ok()) return r;
    failed = true;
  }
  if (failed || !options_.anonymous) return Unauthorized();
  AuthenticatedUser anonymous;
  anonymous.user.name = kAnonymousUser;
  anonymous.user.groups = {kAllUnauthenticated};
  return anonymous;
}

Result<AuthenticatedUser> RequestAuthenticator::AuthenticateToken(const std::string& token,
                                                                  std::vector<std::string> audiences) const {
  if (audiences.empty()) audiences = options_.api_audiences;
  for (const auto& a : options_.tokens) {
    auto r = a->AuthenticateToken(token, audiences);
    // One authenticator's error does not stop the others (kube's union), but ends in 401.
    if (r.ok() && r->has_value()) {
      AuthenticatedUser u = std::move(**r);
      AddAuthenticatedGroup(&u.user);
      if (u.audiences.empty()) u.audiences = audiences;
      return u;
    }
  }
  return Unauthorized();
}

}  // namespace kube::auth
