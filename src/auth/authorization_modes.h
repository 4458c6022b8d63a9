// --authorization-mode: the comma-separated list of authorizers kube-apiserver chains, in order.
// As kube's authorizer config, members of system:masters are allowed first whatever the modes
// (the privileged-groups authorizer); then AlwaysAllow, AlwaysDeny and RBAC (through a factory
// the server sets, since RBAC reads the registry). Node, ABAC and Webhook are not available here
// and refuse to start.
//
// Thread-safety: the built chain is immutable and safe for concurrent use; BuildAuthorizer is
// called once at start.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "auth/authorizer.h"
#include "util/status.h"

namespace kube::auth {

inline constexpr const char* kAuthorizationModes[] = {"AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node"};

// Allows members of a group (system:masters), no opinion for everybody else.
class PrivilegedGroupsAuthorizer final : public Authorizer {
 public:
  explicit PrivilegedGroupsAuthorizer(std::vector<std::string> groups) : groups_(std::move(groups)) {}
  AuthorizationResult Authorize(const Attributes& attributes) const override;

 private:
  std::vector<std::string> groups_;
};

struct AuthorizerFactories {
  // Builds the RBAC authorizer; empty when this build has none (RBAC mode then fails to start).
  std::function<Result<std::unique_ptr<Authorizer>>()> rbac;
};

// Splits and checks --authorization-mode (kube's messages for unknown, repeated or empty modes).
Result<std::vector<std::string>> ParseAuthorizationModes(const std::string& flag);
Result<std::shared_ptr<const Authorizer>> BuildAuthorizer(const std::vector<std::string>& modes,
                                                          const AuthorizerFactories& factories);

}  // namespace kube::auth
