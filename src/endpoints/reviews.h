// The review resources (authentication.k8s.io TokenReview, SelfSubjectReview;
// authorization.k8s.io SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectRulesReview): create-only, never stored, answered from
// the server's policy. This server has no authentication or authorization, so every request is
// made as an administrator and allowed — which is what these reviews report (kubectl auth can-i
// answers yes).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"

namespace kube::endpoints {

bool IsReview(const catalogue::ResourceInfo& info);
// The review `body` with its status filled in (metadata as kube returns it).
nlohmann::json AnswerReview(const catalogue::ResourceInfo& info, nlohmann::json body);

}  // namespace kube::endpoints
