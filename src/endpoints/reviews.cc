#include "endpoints/reviews.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr const char* kReason = "kube-apiserver-lite has no authorization configured: every request is allowed";

json AdminUser() {
  return {{"username", "kube-apiserver-lite:admin"}, {"groups", {"system:masters", "system:authenticated"}}};
}

}  // namespace

bool IsReview(const catalogue::ResourceInfo& info) {
  if (info.group == "authorization.k8s.io") {
    return info.resource == "subjectaccessreviews" || info.resource == "selfsubjectaccessreviews" ||
           info.resource == "localsubjectaccessreviews" || info.resource == "selfsubjectrulesreviews";
  }
  if (info.group == "authentication.k8s.io") {
    return info.resource == "tokenreviews" || info.resource == "selfsubjectreviews";
  }
  return false;
}

json AnswerReview(const catalogue::ResourceInfo& info, json body) {
  if (!body.is_object()) body = json::object();
  body["apiVersion"] = info.group + "/" + info.version;
  body["kind"] = info.kind;
  json& meta = body["metadata"];
  if (!meta.is_object()) meta = json::object();
  meta["creationTimestamp"] = nullptr;
  if (info.resource == "selfsubjectrulesreviews") {
    body["status"] = {{"resourceRules", {{{"verbs", {"*"}}, {"apiGroups", {"*"}}, {"resources", {"*"}}}}},
                      {"nonResourceRules", {{{"verbs", {"*"}}, {"nonResourceURLs", {"*"}}}}},
                      {"incomplete", false}};
  } else if (info.resource == "selfsubjectreviews") {
    body["status"] = {{"userInfo", AdminUser()}};
  } else if (info.resource == "tokenreviews") {
    body["status"] = {{"authenticated", true}, {"user", AdminUser()}};
  } else {
    body["status"] = {{"allowed", true}, {"reason", kReason}};
  }
  return body;
}

}  // namespace kube::endpoints
