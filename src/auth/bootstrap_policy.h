// The RBAC bootstrap policy kube-apiserver creates at start (kube's
// plugin/pkg/auth/authorizer/rbac/bootstrappolicy): cluster-admin, admin, edit, view and their
// aggregate-to-* roles, system:basic-user, system:discovery, system:public-info-viewer, the
// system:* roles of nodes, controllers and components, the namespaced roles in kube-system and
// kube-public, and their bindings — each labelled kubernetes.io/bootstrapping=rbac-defaults and
// annotated rbac.authorization.kubernetes.io/autoupdate=true.
//
// EnsureBootstrapPolicy creates what is absent and, as kube's reconciliation does for objects
// still annotated autoupdate=true, adds rules, aggregation selectors and subjects an existing
// object lacks (it never removes any). Idempotent: a restart with --data-dir writes nothing.
//
// Thread-safety: pure functions; EnsureBootstrapPolicy writes through the thread-safe registry.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "auth/rbac_index.h"
#include "registry/api_registry.h"

namespace kube::auth {

struct BootstrapObject {
  RbacKind kind;
  nlohmann::json object;  // apiVersion, kind, metadata, rules/aggregationRule or roleRef/subjects
};

// The policy, in kube's order (cluster roles, controller roles, namespaced roles, bindings).
const std::vector<BootstrapObject>& BootstrapPolicy();

// The catalogue text BootstrapPolicy() is parsed from (bootstrap_policy_data.cc).
const char* BootstrapPolicyText();

// Creates or completes every object of the policy (see above). Errors name the object.
Status EnsureBootstrapPolicy(registry::ApiRegistry* registry);

}  // namespace kube::auth
