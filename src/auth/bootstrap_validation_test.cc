// Every object of the RBAC bootstrap policy passes kube's RBAC validation (the registry refuses
// what does not, and the server creates these at start).
#include <doctest/doctest.h>

#include "auth/bootstrap_policy.h"
#include "validation/kind_validation.h"

namespace kube::auth {
namespace {

const char* ResourceOf(const nlohmann::json& obj) {
  const std::string kind = obj.value("kind", "");
  if (kind == "Role") return "roles";
  if (kind == "ClusterRole") return "clusterroles";
  if (kind == "RoleBinding") return "rolebindings";
  return "clusterrolebindings";
}

TEST_CASE("bootstrap policy objects pass RBAC validation") {
  REQUIRE(!BootstrapPolicy().empty());
  for (const auto& entry : BootstrapPolicy()) {
    const auto* validator = validation::FindKindValidator("rbac.authorization.k8s.io", ResourceOf(entry.object));
    REQUIRE(validator != nullptr);
    CAPTURE(entry.object.dump());
    nlohmann::json obj = entry.object;
    // Bindings are stored with their defaults (roleRef.apiGroup, subjects' apiGroup).
    if (obj.contains("roleRef") && !obj["roleRef"].contains("apiGroup")) {
      obj["roleRef"]["apiGroup"] = "rbac.authorization.k8s.io";
    }
    if (obj.contains("subjects")) {
      for (auto& subject : obj["subjects"]) {
        const std::string kind = subject.value("kind", "");
        if ((kind == "User" || kind == "Group") && !subject.contains("apiGroup")) {
          subject["apiGroup"] = "rbac.authorization.k8s.io";
        }
      }
    }
    CHECK(validator->create(obj).empty());
  }
}

}  // namespace
}  // namespace kube::auth
