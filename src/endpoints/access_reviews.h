// The authorization.k8s.io review resources answered from the server's authorizer, as kube's
// registry/authorization storages do: SubjectAccessReview (for the user in spec),
// SelfSubjectAccessReview (for the requester), LocalSubjectAccessReview (spec in the request's
// namespace) and SelfSubjectRulesReview (the requester's rules in spec.namespace, from the
// rule resolver). Spec validation and its 400/422 answers follow kube's.
//
// Thread-safety: pure functions over thread-safe authorizers.
#pragma once

#include <nlohmann/json.hpp>

#include "auth/authorizer.h"
#include "auth/rule_resolver.h"
#include "catalogue/catalogue.h"
#include "util/status.h"

namespace kube::endpoints {

struct AccessReviewContext {
  // The server's authorizer chain; null: none configured (everything is allowed).
  const auth::Authorizer* authorizer = nullptr;
  // Lists rules for SelfSubjectRulesReview; null: everything (as AlwaysAllow lists).
  const auth::RuleResolver* rule_resolver = nullptr;
  // Who asks; null: the privileged user of the plain-HTTP port.
  const auth::UserInfo* user = nullptr;
  // The request's namespace (LocalSubjectAccessReview's URL).
  std::string namespace_;
};

// SubjectAccessReview, SelfSubjectAccessReview, LocalSubjectAccessReview, SelfSubjectRulesReview.
bool IsAccessReview(const catalogue::ResourceInfo& info);

// The review's answer (the body with its status, as kube returns it), or kube's error.
Result<nlohmann::json> AnswerAccessReview(const catalogue::ResourceInfo& info, nlohmann::json body,
                                          const AccessReviewContext& context);

// The user requests on the plain-HTTP port are made as (kube's old insecure port: a member of
// system:masters).
const auth::UserInfo& PlainPortUser();

}  // namespace kube::endpoints
