#include "endpoints/access_reviews.h"

#include "registry/errors.h"
#include "util/json_fields.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr char kGroup[] = "authorization.k8s.io";

auth::Attributes AttributesFrom(const json& spec, const auth::UserInfo& user) {
  auth::Attributes a{.user = user};
  if (const json* r = ObjectField(spec, "resourceAttributes")) {
    a.resource_request = true;
    a.verb = StringField(*r, "verb");
    a.namespace_ = StringField(*r, "namespace");
    a.api_group = StringField(*r, "group");
    a.api_version = StringField(*r, "version");
    a.resource = StringField(*r, "resource");
    a.subresource = StringField(*r, "subresource");
    a.name = StringField(*r, "name");
  } else if (const json* n = ObjectField(spec, "nonResourceAttributes")) {
    a.verb = StringField(*n, "verb");
    a.path = StringField(*n, "path");
  }
  return a;
}

// kube's ValidateSubjectAccessReviewSpec and its Self/Local variants.
FieldErrors ValidateSpec(const json& spec, bool needs_subject, bool local) {
  FieldErrors errors;
  const bool has_resource = ObjectField(spec, "resourceAttributes") != nullptr;
  const bool has_non_resource = ObjectField(spec, "nonResourceAttributes") != nullptr;
  if (local && has_non_resource) {
    errors.push_back({FieldError::Type::kInvalid, "spec.nonResourceAttributes", spec["nonResourceAttributes"].dump(),
                      "disallowed on this kind of request"});
  } else if (has_resource && has_non_resource) {
    errors.push_back({FieldError::Type::kInvalid, "spec.nonResourceAttributes", spec["nonResourceAttributes"].dump(),
                      "cannot be specified in combination with resourceAttributes"});
  }
  if (!has_resource && (!has_non_resource || local)) {
    errors.push_back({FieldError::Type::kInvalid, "spec.resourceAttributes", "null",
                      local ? "resourceAttributes must be specified"
                            : "exactly one of nonResourceAttributes or resourceAttributes must be specified"});
  }
  if (needs_subject && StringField(spec, "user").empty() && StringsField(spec, "groups").empty()) {
    errors.push_back({FieldError::Type::kInvalid, "spec.user", "\"\"", "at least one of user or group must be specified"});
  }
  return errors;
}

json StatusOf(const auth::AuthorizationResult& r) {
  json status = {{"allowed", r.decision == auth::Decision::kAllow}};
  if (r.decision == auth::Decision::kDeny) status["denied"] = true;
  if (!r.reason.empty()) status["reason"] = r.reason;
  return status;
}

auth::AuthorizationResult Authorize(const AccessReviewContext& c, const auth::Attributes& a) {
  if (c.authorizer == nullptr) return {auth::Decision::kAllow, ""};
  return c.authorizer->Authorize(a);
}

json RulesReviewStatus(const auth::RulesInfo& info) {
  json resource_rules = json::array();
  for (const auto& r : info.resource_rules) {
    json rule = {{"verbs", r.verbs}};
    if (!r.api_groups.empty()) rule["apiGroups"] = r.api_groups;
    if (!r.resources.empty()) rule["resources"] = r.resources;
    if (!r.resource_names.empty()) rule["resourceNames"] = r.resource_names;
    resource_rules.push_back(std::move(rule));
  }
  json non_resource_rules = json::array();
  for (const auto& r : info.non_resource_rules) {
    json rule = {{"verbs", r.verbs}};
    if (!r.non_resource_urls.empty()) rule["nonResourceURLs"] = r.non_resource_urls;
    non_resource_rules.push_back(std::move(rule));
  }
  json status = {{"resourceRules", resource_rules}, {"nonResourceRules", non_resource_rules},
                 {"incomplete", info.incomplete}};
  if (!info.evaluation_error.empty()) status["evaluationError"] = info.evaluation_error;
  return status;
}

}  // namespace

const auth::UserInfo& PlainPortUser() {
  static const auth::UserInfo user{.name = "kube-apiserver-lite:admin",
                                   .groups = {auth::kSystemMasters, auth::kAllAuthenticated}};
  return user;
}

bool IsAccessReview(const catalogue::ResourceInfo& info) {
  return info.group == kGroup &&
         (info.resource == "subjectaccessreviews" || info.resource == "selfsubjectaccessreviews" ||
          info.resource == "localsubjectaccessreviews" || info.resource == "selfsubjectrulesreviews");
}

Result<json> AnswerAccessReview(const catalogue::ResourceInfo& info, json body, const AccessReviewContext& context) {
  if (!body.is_object()) body = json::object();
  body["apiVersion"] = info.group + "/" + info.version;
  body["kind"] = info.kind;
  json& meta = body["metadata"];
  if (!meta.is_object()) meta = json::object();
  meta["creationTimestamp"] = nullptr;
  json& spec = body["spec"];
  if (!spec.is_object()) spec = json::object();
  const auth::UserInfo& requester = context.user != nullptr ? *context.user : PlainPortUser();

  if (info.resource == "selfsubjectrulesreviews") {
    const std::string ns = StringField(spec, "namespace");
    if (ns.empty()) return Status::BadRequest("no namespace on request");
    auth::RulesInfo rules =
        context.rule_resolver != nullptr ? context.rule_resolver->RulesFor(requester, ns) : auth::AllRules();
    // kube answers with a new object: the spec is not echoed.
    return json{{"kind", info.kind},
                {"apiVersion", body["apiVersion"]},
                {"metadata", {{"creationTimestamp", nullptr}}},
                {"spec", json::object()},
                {"status", RulesReviewStatus(rules)}};
  }

  const bool self = info.resource == "selfsubjectaccessreviews";
  const bool local = info.resource == "localsubjectaccessreviews";
  FieldErrors errors = ValidateSpec(spec, /*needs_subject=*/!self, local);
  // kube names the kind from the decoded object's TypeMeta, which decoding has emptied: the
  // message reads ".authorization.k8s.io \"\" is invalid" and details carry no kind.
  if (!errors.empty()) return registry::InvalidError(info.group, "", "", errors);
  if (local) {
    const std::string ns = StringField(spec["resourceAttributes"], "namespace");
    if (ns != context.namespace_) {
      return Status::BadRequest("spec.resourceAttributes.namespace must match namespace: " + context.namespace_);
    }
  }
  auth::UserInfo subject;
  if (self) {
    subject = requester;
  } else {
    subject.name = StringField(spec, "user");
    subject.uid = StringField(spec, "uid");
    subject.groups = StringsField(spec, "groups");
    if (const json* extra = ObjectField(spec, "extra")) {
      for (const auto& [k, v] : extra->items()) subject.extra[k] = StringsField(*extra, k.c_str());
    }
  }
  body["status"] = StatusOf(Authorize(context, AttributesFrom(spec, subject)));
  return body;
}

}  // namespace kube::endpoints
