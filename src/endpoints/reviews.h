// The review resources (authentication.k8s.io TokenReview, SelfSubjectReview;
// authorization.k8s.io SubjectAccessReview, SelfSubjectAccessReview,
// LocalSubjectAccessReview, SelfSubjectRulesReview): create-only, never stored, answered from
// the server's policy. The authorization reviews are answered from the configured authorizer
// (access_reviews.h); the authentication ones report the plain-HTTP port's administrator, as
// this server has no authentication yet.
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
