// Authorization: may this user do this to that? (kube's authorizer.Authorizer.) The request's
// attributes are derived once per request from its RequestInfo and the authenticated user; an
// authorizer answers allow, deny or no opinion with a reason. --authorization-mode chains
// authorizers: the first that allows or denies decides, no opinion from all of them is a denial.
//
// Implementations: AlwaysAllow (kube's default mode) here; RBAC reads Roles and bindings from
// the registry.
//
// Thread-safety: implementations are safe for concurrent Authorize calls.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "auth/user_info.h"

namespace kube::auth {

// kube's authorizer.Attributes for one request.
struct Attributes {
  UserInfo user;
  // "get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", and for
  // non-resource requests the lower-case HTTP method; "impersonate", "bind", "escalate" and
  // "use" when those are checked.
  std::string verb;
  bool resource_request = false;
  // Resource requests.
  std::string namespace_;  // "" for cluster-scoped resources and all-namespaces requests
  std::string api_group;   // "" for the core group
  std::string api_version;
  std::string resource;
  std::string subresource;
  std::string name;
  // Non-resource requests: the URL path.
  std::string path;
};

enum class Decision { kDeny, kAllow, kNoOpinion };

struct AuthorizationResult {
  Decision decision = Decision::kNoOpinion;
  // Why (kube's reason string, shown in 403 messages and SubjectAccessReview status.reason).
  std::string reason;
};

class Authorizer {
 public:
  virtual ~Authorizer() = default;
  virtual AuthorizationResult Authorize(const Attributes& attributes) const = 0;
};

// Allows everything (--authorization-mode=AlwaysAllow).
class AlwaysAllowAuthorizer final : public Authorizer {
 public:
  AuthorizationResult Authorize(const Attributes&) const override { return {Decision::kAllow, ""}; }
};

// --authorization-mode=AlwaysDeny: no opinion on anything (as kube's, so a later authorizer in
// the chain may still allow), which ends in a denial when nothing else allows.
class AlwaysDenyAuthorizer final : public Authorizer {
 public:
  AuthorizationResult Authorize(const Attributes&) const override {
    return {Decision::kNoOpinion, "Everything is forbidden."};
  }
};

// The first authorizer that allows or denies decides; no opinion from all is no opinion, with
// the reasons they gave joined by newlines (kube's union authorizer: SubjectAccessReview shows
// them, e.g. RBAC's resolution errors).
class AuthorizerChain final : public Authorizer {
 public:
  explicit AuthorizerChain(std::vector<std::unique_ptr<Authorizer>> chain) : chain_(std::move(chain)) {}
  AuthorizationResult Authorize(const Attributes& attributes) const override {
    std::string reasons;
    for (const auto& a : chain_) {
      auto r = a->Authorize(attributes);
      if (r.decision != Decision::kNoOpinion) return r;
      if (!r.reason.empty()) reasons += (reasons.empty() ? "" : "\n") + r.reason;
    }
    return {Decision::kNoOpinion, reasons};
  }

 private:
  std::vector<std::unique_ptr<Authorizer>> chain_;
};

}  // namespace kube::auth
