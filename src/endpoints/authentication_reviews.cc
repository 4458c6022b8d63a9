#include "endpoints/authentication_reviews.h"

namespace kube::endpoints {

using nlohmann::json;

bool IsAuthenticationReview(const catalogue::ResourceInfo& info) {
  return info.group == "authentication.k8s.io" && (info.resource == "tokenreviews" || info.resource == "selfsubjectreviews");
}

json UserInfoJson(const auth::UserInfo& user) {
  json out = json::object();
  if (!user.name.empty()) out["username"] = user.name;
  if (!user.uid.empty()) out["uid"] = user.uid;
  if (!user.groups.empty()) out["groups"] = user.groups;
  if (!user.extra.empty()) {
    json extra = json::object();
    for (const auto& [k, v] : user.extra) extra[k] = v;
    out["extra"] = std::move(extra);
  }
  return out;
}

Result<json> AnswerAuthenticationReview(const catalogue::ResourceInfo& info, json body, const auth::UserInfo& user,
                                        const auth::RequestAuthenticator* authenticator) {
  if (!body.is_object()) body = json::object();
  body["apiVersion"] = info.group + "/" + info.version;
  body["kind"] = info.kind;
  json& meta = body["metadata"];
  if (!meta.is_object()) meta = json::object();
  meta["creationTimestamp"] = nullptr;
  if (info.resource == "selfsubjectreviews") {
    body["status"] = {{"userInfo", UserInfoJson(user)}};
    return body;
  }
  const json* spec = body.contains("spec") && body["spec"].is_object() ? &body["spec"] : nullptr;
  const std::string token = spec && spec->contains("token") && (*spec)["token"].is_string() ? (*spec)["token"].get<std::string>() : "";
  if (token.empty()) return Status::BadRequest("token is required for TokenReview in authentication");
  std::vector<std::string> audiences;
  if (spec && spec->contains("audiences") && (*spec)["audiences"].is_array()) {
    for (const auto& a : (*spec)["audiences"]) {
      if (a.is_string()) audiences.push_back(a.get<std::string>());
    }
  }
  json status = json::object();
  auto result = authenticator ? authenticator->AuthenticateToken(token, audiences)
                              : Result<auth::AuthenticatedUser>(auth::UnauthorizedError("Unauthorized"));
  if (result.ok()) {
    status["authenticated"] = true;
    status["user"] = UserInfoJson(result->user);
    status["audiences"] = result->audiences;
  } else {
    status["user"] = json::object();
    status["error"] = "[invalid bearer token, " + result.status().message() + "]";
  }
  body["status"] = std::move(status);
  return body;
}

}  // namespace kube::endpoints
