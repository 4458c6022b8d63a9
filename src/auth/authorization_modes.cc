#include "auth/authorization_modes.h"

#include <algorithm>

namespace kube::auth {

AuthorizationResult PrivilegedGroupsAuthorizer::Authorize(const Attributes& attributes) const {
  for (const auto& g : groups_) {
    if (attributes.user.InGroup(g)) return {Decision::kAllow, ""};
  }
  return {Decision::kNoOpinion, ""};
}

Result<std::vector<std::string>> ParseAuthorizationModes(const std::string& flag) {
  std::vector<std::string> modes;
  size_t start = 0;
  while (start <= flag.size()) {
    const size_t comma = flag.find(',', start);
    std::string mode = flag.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    mode.erase(0, mode.find_first_not_of(' '));
    mode.erase(mode.find_last_not_of(' ') + 1);
    if (!mode.empty()) {
      if (std::find(std::begin(kAuthorizationModes), std::end(kAuthorizationModes), mode) == std::end(kAuthorizationModes)) {
        return Status::BadRequest("authorization-mode \"" + mode +
                                  "\" is not a valid mode (AlwaysAllow, AlwaysDeny, ABAC, Webhook, RBAC, Node)");
      }
      if (std::find(modes.begin(), modes.end(), mode) != modes.end()) {
        return Status::BadRequest("authorization-mode \"" + mode + "\" has mode specified more than once");
      }
      modes.push_back(mode);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (modes.empty()) return Status::BadRequest("at least one authorization-mode must be passed");
  return modes;
}

Result<std::shared_ptr<const Authorizer>> BuildAuthorizer(const std::vector<std::string>& modes,
                                                          const AuthorizerFactories& factories) {
  std::vector<std::unique_ptr<Authorizer>> chain;
  chain.push_back(std::make_unique<PrivilegedGroupsAuthorizer>(std::vector<std::string>{kSystemMasters}));
  for (const auto& mode : modes) {
    if (mode == "AlwaysAllow") {
      chain.push_back(std::make_unique<AlwaysAllowAuthorizer>());
    } else if (mode == "AlwaysDeny") {
      chain.push_back(std::make_unique<AlwaysDenyAuthorizer>());
    } else if (mode == "RBAC") {
      if (!factories.rbac) {
        return Status::BadRequest("authorization mode RBAC is not available in this build of kube-apiserver-lite");
      }
      auto rbac = factories.rbac();
      if (!rbac.ok()) return rbac.status();
      chain.push_back(std::move(*rbac));
    } else {
      return Status::BadRequest("authorization mode " + mode + " is not supported by kube-apiserver-lite");
    }
  }
  return std::shared_ptr<const Authorizer>(std::make_shared<AuthorizerChain>(std::move(chain)));
}

}  // namespace kube::auth
