#include "auth/service_account_token.h"

#include "util/base64.h"
#include "util/uuid.h"


#include <algorithm>

namespace kube::auth {

using nlohmann::json;

namespace {

int64_t Seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

std::string StringAt(const json& j, std::initializer_list<const char*> path) {
  const json* cur = &j;
  for (const char* key : path) {
    if (!cur->is_object()) return "";
    auto it = cur->find(key);
    if (it == cur->end()) return "";
    cur = &*it;
  }
  return cur->is_string() ? cur->get<std::string>() : "";
}

std::vector<std::string> Audiences(const json& claims) {
  std::vector<std::string> out;
  auto it = claims.find("aud");
  if (it == claims.end()) return out;
  if (it->is_string()) out.push_back(it->get<std::string>());
  if (it->is_array()) {
    for (const auto& a : *it) {
      if (a.is_string()) out.push_back(a.get<std::string>());
    }
  }
  return out;
}

// Kube's error for a service account or bound object that is gone or replaced.
Status Gone(const std::string& what, const std::string& ns, const std::string& name) {
  return UnauthorizedError(what + " " + ns + "/" + name + " has been deleted");
}

}  // namespace

std::optional<std::pair<std::string, std::string>> SplitServiceAccountUsername(const std::string& username) {
  if (!username.starts_with(kServiceAccountUsernamePrefix)) return std::nullopt;
  const std::string rest = username.substr(sizeof(kServiceAccountUsernamePrefix) - 1);
  const size_t colon = rest.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size() ||
      rest.find(':', colon + 1) != std::string::npos) {
    return std::nullopt;
  }
  return std::make_pair(rest.substr(0, colon), rest.substr(colon + 1));
}

UserInfo ServiceAccountUser(const std::string& ns, const std::string& name, const std::string& uid) {
  UserInfo u;
  u.name = std::string(kServiceAccountUsernamePrefix) + ns + ":" + name;
  u.uid = uid;
  u.groups = {kServiceAccountsGroup, std::string(kServiceAccountsGroup) + ":" + ns};
  return u;
}

Result<IssuedToken> ServiceAccountTokenIssuer::Issue(const TokenSpec& spec,
                                                     std::chrono::system_clock::time_point now) const {
  const auto exp = now + std::chrono::seconds(spec.expiration_seconds);
  json k8s = {{"namespace", spec.ns},
              {"serviceaccount", {{"name", spec.service_account}, {"uid", spec.service_account_uid}}}};
  if (spec.bound) {
    const json ref = {{"name", spec.bound->name}, {"uid", spec.bound->uid}};
    if (spec.bound->kind == "Pod") {
      k8s["pod"] = ref;
      if (!spec.pod_node_name.empty()) k8s["node"] = {{"name", spec.pod_node_name}, {"uid", spec.pod_node_uid}};
    } else if (spec.bound->kind == "Secret") {
      k8s["secret"] = ref;
    } else if (spec.bound->kind == "Node") {
      k8s["node"] = ref;
    }
  }
  const json claims = {{"aud", spec.audiences},
                       {"exp", Seconds(exp)},
                       {"iat", Seconds(now)},
                       {"iss", issuer_},
                       {"jti", NewUuid()},
                       {"kubernetes.io", std::move(k8s)},
                       {"nbf", Seconds(now)},
                       {"sub", std::string(kServiceAccountUsernamePrefix) + spec.ns + ":" + spec.service_account}};
  auto token = signer_->Sign(claims);
  if (!token.ok()) return token.status();
  return IssuedToken{std::move(*token), exp};
}

AuthenticationResult ServiceAccountTokenAuthenticator::AuthenticateToken(const std::string& token,
                                                                         const std::vector<std::string>& audiences) const {
  if (!JwtVerifier::LooksLikeJwt(token)) return std::optional<AuthenticatedUser>();
  // Which issuer: read before the signature, as kube picks its validator by "iss".
  const size_t dot = token.find('.');
  const size_t dot2 = token.find('.', dot + 1);
  auto payload = Base64UrlDecode(std::string_view(token).substr(dot + 1, dot2 - dot - 1));
  const json unverified = payload ? json::parse(*payload, nullptr, false) : json();
  const std::string iss = unverified.is_object() ? StringAt(unverified, {"iss"}) : "";
  const bool legacy = iss == kLegacyServiceAccountIssuer;
  if (!legacy && std::find(issuers_.begin(), issuers_.end(), iss) == issuers_.end()) {
    return std::optional<AuthenticatedUser>();  // someone else's JWT
  }
  auto claims = verifier_->Verify(token);
  if (!claims.ok()) return claims.status();
  return legacy ? Legacy(*claims) : Bound(*claims, audiences);
}

AuthenticationResult ServiceAccountTokenAuthenticator::Bound(const json& claims,
                                                             const std::vector<std::string>& audiences) const {
  const int64_t now = Seconds(std::chrono::system_clock::now());
  constexpr int64_t kLeeway = 60;  // go-jose's DefaultLeeway for nbf and iat
  if (claims.contains("exp") && claims["exp"].is_number() && now > claims["exp"].get<int64_t>()) {
    return UnauthorizedError("service account token has expired");
  }
  if (claims.contains("nbf") && claims["nbf"].is_number() && now + kLeeway < claims["nbf"].get<int64_t>()) {
    return UnauthorizedError("service account token is not valid yet");
  }
  const std::vector<std::string> token_audiences = Audiences(claims);
  std::vector<std::string> matched;
  for (const auto& a : token_audiences) {
    if (std::find(audiences.begin(), audiences.end(), a) != audiences.end()) matched.push_back(a);
  }
  if (!audiences.empty() && matched.empty()) {
    return UnauthorizedError("token audiences are invalid for the target audiences");
  }
  const std::string ns = StringAt(claims, {"kubernetes.io", "namespace"});
  const std::string name = StringAt(claims, {"kubernetes.io", "serviceaccount", "name"});
  const std::string uid = StringAt(claims, {"kubernetes.io", "serviceaccount", "uid"});
  const std::string sub = StringAt(claims, {"sub"});
  auto split = SplitServiceAccountUsername(sub);
  if (ns.empty() || name.empty() || !split || split->first != ns || split->second != name) {
    return UnauthorizedError("service account token claims are malformed");
  }
  UserInfo user = ServiceAccountUser(ns, name, uid);
  if (lookup_) {
    auto sa_uid = lookup_("serviceaccounts", ns, name);
    if (!sa_uid || *sa_uid != uid) return Gone("service account", ns, name);
    for (const char* kind : {"pod", "secret", "node"}) {
      const std::string obj_name = StringAt(claims, {"kubernetes.io", kind, "name"});
      if (obj_name.empty()) continue;
      const std::string obj_uid = StringAt(claims, {"kubernetes.io", kind, "uid"});
      const std::string resource = std::string(kind) + "s";
      const std::string obj_ns = std::string(kind) == "node" ? "" : ns;
      auto found = lookup_(resource, obj_ns, obj_name);
      if (!found || *found != obj_uid) return Gone(kind, obj_ns, obj_name);
    }
  }
  if (const std::string jti = StringAt(claims, {"jti"}); !jti.empty()) {
    user.extra["authentication.kubernetes.io/credential-id"] = {"JTI=" + jti};
  }
  if (const std::string pod = StringAt(claims, {"kubernetes.io", "pod", "name"}); !pod.empty()) {
    user.extra["authentication.kubernetes.io/pod-name"] = {pod};
    user.extra["authentication.kubernetes.io/pod-uid"] = {StringAt(claims, {"kubernetes.io", "pod", "uid"})};
  }
  if (const std::string node = StringAt(claims, {"kubernetes.io", "node", "name"}); !node.empty()) {
    user.extra["authentication.kubernetes.io/node-name"] = {node};
    user.extra["authentication.kubernetes.io/node-uid"] = {StringAt(claims, {"kubernetes.io", "node", "uid"})};
  }
  return std::optional<AuthenticatedUser>(AuthenticatedUser{std::move(user), matched});
}

AuthenticationResult ServiceAccountTokenAuthenticator::Legacy(const json& claims) const {
  const std::string ns = StringAt(claims, {"kubernetes.io/serviceaccount/namespace"});
  const std::string name = StringAt(claims, {"kubernetes.io/serviceaccount/service-account.name"});
  const std::string uid = StringAt(claims, {"kubernetes.io/serviceaccount/service-account.uid"});
  const std::string secret = StringAt(claims, {"kubernetes.io/serviceaccount/secret.name"});
  auto split = SplitServiceAccountUsername(StringAt(claims, {"sub"}));
  if (ns.empty() || name.empty() || !split || split->first != ns || split->second != name) {
    return UnauthorizedError("service account token claims are malformed");
  }
  if (lookup_) {
    auto sa_uid = lookup_("serviceaccounts", ns, name);
    if (!sa_uid || *sa_uid != uid) return Gone("service account", ns, name);
    if (!secret.empty() && !lookup_("secrets", ns, secret)) return Gone("secret", ns, secret);
  }
  UserInfo user = ServiceAccountUser(ns, name, uid);
  return std::optional<AuthenticatedUser>(AuthenticatedUser{std::move(user), {}});
}

}  // namespace kube::auth
