// CREATE, UPDATE (PUT) and PATCH handlers, with body decoding and field validation.
#include <nlohmann/json.hpp>

#include "endpoints/access_reviews.h"
#include "endpoints/api_server.h"
#include "endpoints/field_validation.h"
#include "endpoints/render.h"
#include "endpoints/request_body.h"
#include "endpoints/authentication_reviews.h"
#include "endpoints/reviews.h"
#include "endpoints/request_options.h"
#include "endpoints/responses.h"
#include "endpoints/scale.h"
#include "endpoints/warnings.h"
#include "patch/json_patch.h"
#include "patch/merge_patch.h"
#include "patch/strategic_merge_patch.h"
#include "registry/managed_fields.h"
#include "registry/scale_fields.h"
#include "util/json_depth.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

// A built-in resource's PATCH route consumes only the patch types, so go-restful refuses any
// other Content-Type before kube's handler runs, in its own words.
constexpr std::string_view kUnsupportedPatch = "415: Unsupported Media Type";
constexpr std::string_view kUnsupportedCustomPatch =
    "the body of the request was in an unknown format - accepted media types include: "
    "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

Status Unsupported(std::string_view message) { return Status(StatusCode::kUnsupportedMediaType, std::string(message)); }

// The kind a write to this request's target expects in its body (autoscaling/v1 Scale for scale).
protobuf::KindDefaults ExpectedKind(const RequestScope& scope) {
  if (scope.info.subresource == "scale") return {.api_version = "autoscaling/v1", .kind = "Scale"};
  return {.api_version = scope.store->ApiVersion(), .kind = scope.store->info().kind};
}

// Typed decoding of `obj` (field_validation.h), then fieldValidation applied to the unknown
// fields and to `duplicates`.
Status ValidateFields(RequestScope& scope, const WriteParams& params, json* obj, const catalogue::Catalogue& cat,
                      const std::vector<std::string>& duplicates = {}) {
  const auto& info = scope.store->info();
  const registry::Strategy* strategy = scope.store->strategy();
  // Go decodes an empty managedFields list into an empty slice, which the field manager reads as
  // a reset; typed decoding here drops empty lists, so the request is kept aside.
  const bool reset_managed_fields = obj->is_object() && obj->contains("metadata") && (*obj)["metadata"].is_object() &&
                                    registry::IsResetManagedFields((*obj)["metadata"].value("managedFields", json()));
  std::optional<std::vector<std::string>> decoded = strategy ? strategy->DecodeBody(obj) : std::nullopt;
  std::vector<std::string> unknown;
  if (decoded) {
    // Decoded by the kind's schema (custom resources): wrong types are its validation's 422s.
    unknown = std::move(*decoded);
  } else {
    TypedDecodeResult typed = DecodeTyped(cat.KindSchema(info.group, info.version, info.kind), obj);
    // Typed decoding fails on a value of the wrong type whatever fieldValidation says.
    if (!typed.type_error.empty()) {
      return Status::BadRequest(info.kind + " in version \"" + info.version + "\" cannot be handled as a " +
                                info.kind + ": " + typed.type_error);
    }
    unknown = std::move(typed.unknown_fields);
  }
  if (reset_managed_fields) (*obj)["metadata"]["managedFields"] = json::array();
  std::vector<std::string> problems = duplicates;
  for (const auto& f : unknown) problems.push_back("unknown field \"" + f + "\"");
  if (problems.empty() || params.field_validation == "Ignore") return Status::OK();
  if (params.field_validation == "Strict") {
    std::string message = info.kind + " in version \"" + info.version + "\" cannot be handled as a " + info.kind +
                          ": strict decoding error: ";
    for (size_t i = 0; i < problems.size(); ++i) message += (i ? ", " : "") + problems[i];
    return Status::BadRequest(message);
  }
  for (const auto& p : problems) {
    for (auto& w : SplitYamlWarnings(p)) scope.warnings.push_back(std::move(w));
  }
  return Status::OK();
}

}  // namespace

HttpResponse RespondWritten(const RequestScope& scope, int code, const storage::ObjectPtr& obj) {
  auto rendered = scope.info.subresource == "scale"
                      ? RenderScale(*scope.store, ScaleOf(*obj, ScalePathsOf(*scope.store)), scope.representation,
                                    scope.query.Get("includeObject"))
                      : RenderObject(*scope.store, obj, scope.representation, scope.query.Get("includeObject"));
  if (!rendered.ok()) return ErrorResponse(rendered.status());
  return Respond(scope, code, *rendered);
}

HttpResponse ApiServer::Create(RequestScope& scope) {
  auto params = ParseWriteParams(scope.query, "CreateOptions");
  if (!params.ok()) return ErrorResponse(params.status());
  std::vector<std::string> duplicates;
  auto body = DecodeObjectBody(scope.request, ExpectedKind(scope), &duplicates);
  if (!body.ok()) return ErrorResponse(body.status());
  KUBE_RETURN_IF_ERROR_RESPONSE(ValidateFields(scope, *params, &*body, registry_->catalogue(), duplicates));
  const std::string ns = scope.store->info().namespaced ? scope.info.namespace_ : "";
  auto created = scope.store->Create(
      ns, std::move(*body),
      registry::WriteOptions{.dry_run = params->dry_run,
                             .field_manager = ManagerOrUserAgent(*params, scope.request.Header("User-Agent")),
                             .user = RequestUser(scope.request),
                             .warnings = &scope.warnings});
  if (!created.ok()) return ErrorResponse(created.status());
  return RespondWritten(scope, 201, *created);
}

HttpResponse ApiServer::CreateReview(const HttpRequest& request, const RequestInfo& request_info,
                                     const catalogue::ResourceInfo& info, bool pretty) {
  std::vector<std::string> duplicates;
  auto body = DecodeObjectBody(request, {.api_version = info.group.empty() ? info.version : info.group + "/" + info.version,
                                         .kind = info.kind},
                               &duplicates);
  if (!body.ok()) return ErrorResponse(body.status());
  if (IsAuthenticationReview(info)) {
    auto answer = AnswerAuthenticationReview(info, std::move(*body), request.user, options_.authenticator.get());
    if (!answer.ok()) return ErrorResponse(answer.status());
    return JsonResponse(201, *answer, pretty);
  }
  if (IsAccessReview(info)) {
    auto answer = AnswerAccessReview(info, std::move(*body),
                                     AccessReviewContext{.authorizer = options_.authorizer.get(),
                                                         .rule_resolver = options_.rule_resolver.get(),
                                                         .user = &request.user,
                                                         .namespace_ = request_info.namespace_});
    if (!answer.ok()) return ErrorResponse(answer.status());
    return JsonResponse(201, *answer, pretty);
  }
  return JsonResponse(201, AnswerReview(info, std::move(*body)), pretty);
}

HttpResponse ApiServer::Update(RequestScope& scope) {
  auto params = ParseWriteParams(scope.query, "UpdateOptions");
  if (!params.ok()) return ErrorResponse(params.status());
  std::vector<std::string> duplicates;
  auto body = DecodeObjectBody(scope.request, ExpectedKind(scope), &duplicates);
  if (!body.ok()) return ErrorResponse(body.status());
  const bool scale = scope.info.subresource == "scale";
  if (!scale) KUBE_RETURN_IF_ERROR_RESPONSE(ValidateFields(scope, *params, &*body, registry_->catalogue(), duplicates));
  const json& new_obj = *body;
  const std::string manager = ManagerOrUserAgent(*params, scope.request.Header("User-Agent"));
  auto transform = [&](const json& current) -> Result<json> {
    if (!scale) return new_obj;
    return WriteThroughScale(*scope.store, current, [&](const json& old_scale) -> Result<json> {
      json new_scale = new_obj;
      registry::ScaleFieldManager().Update(old_scale, &new_scale, manager);
      return new_scale;
    });
  };
  const std::string ns = scope.store->info().namespaced ? scope.info.namespace_ : "";
  // Writes through the Scale record their manager on the Scale (WriteThroughScale).
  auto updated = scope.store->Update(
      ns, scope.info.name, scale ? "" : scope.info.subresource, transform,
      registry::WriteOptions{.dry_run = params->dry_run,
                             .field_manager = scale ? std::nullopt : std::optional(manager),
                             .user = RequestUser(scope.request),
                             .warnings = &scope.warnings});
  if (!updated.ok()) return ErrorResponse(updated.status());
  return RespondWritten(scope, 200, *updated);
}

HttpResponse ApiServer::Patch(RequestScope& scope) {
  const BodyType type = ParseContentType(scope.request.Header("Content-Type"));
  if (type == BodyType::kApplyPatch) return Apply(scope);
  // Custom resources have no Go struct to merge strategically by.
  const bool custom = scope.store->rules().custom_resource;
  if (type != BodyType::kJsonPatch && type != BodyType::kMergePatch &&
      (type != BodyType::kStrategicMergePatch || custom)) {
    return ErrorResponse(Unsupported(custom ? kUnsupportedCustomPatch : kUnsupportedPatch));
  }
  auto params = ParseWriteParams(scope.query, "PatchOptions");
  if (!params.ok()) return ErrorResponse(params.status());
  const std::string manager = ManagerOrUserAgent(*params, scope.request.Header("User-Agent"));
  const auto& info = scope.store->info();
  const bool scale = scope.info.subresource == "scale";
  const auto* schema = scale ? registry_->catalogue().KindSchema("autoscaling", "v1", "Scale")
                             : registry_->catalogue().KindSchema(info.group, info.version, info.kind);
  const std::string& patch_body = scope.request.body;
  // Field warnings are per attempt (a conflict retries the transform); the rest stay.
  const size_t request_warnings = scope.warnings.size();
  auto patch = [&](const json& target) -> Result<json> {
    Result<json> patched = type == BodyType::kJsonPatch    ? patch::ApplyJsonPatch(target, patch_body)
                           : type == BodyType::kMergePatch ? patch::ApplyMergePatch(target, patch_body)
                                                           : patch::ApplyStrategicMergePatch(target, patch_body, schema);
    if (!patched.ok()) {
      // kube answers a strategic merge patch its library cannot apply (a field the struct lacks,
      // lists it cannot merge) with a bare 500; a patch that does not fit is the client's error.
      if (patched.status().HttpCode() >= 500) return Status::BadRequest(patched.status().message());
      return patched.status();
    }
    // A patch can nest values deeper than any body may be; kube's decoder then refuses the result.
    if (NestedDeeperThan(*patched, kMaxJsonDepth)) {
      const std::string text = patched->dump(-1, ' ', false, json::error_handler_t::replace);
      return registry::InvalidError(
          "", "", "",
          {registry::FieldError{registry::FieldError::Type::kInvalid, "patch", registry::GoQuote(text),
                                "couldn't get version/kind; json parse error: " +
                                    JsonDepthError(text[FindJsonDepthExcess(text)])}});
    }
    return patched;
  };
  auto transform = [&](const json& current) -> Result<json> {
    if (scale) {
      // A scale patch applies to the Scale view, then lands in spec.replicas.
      return WriteThroughScale(*scope.store, current, [&](const json& old_scale) -> Result<json> {
        auto patched = patch(old_scale);
        if (patched.ok()) registry::ScaleFieldManager().Update(old_scale, &*patched, manager);
        return patched;
      });
    }
    auto patched = patch(current);
    if (!patched.ok()) return patched;
    scope.warnings.resize(request_warnings);
    Status fs = ValidateFields(scope, *params, &*patched, registry_->catalogue());
    if (!fs.ok()) return fs;
    return patched;
  };
  const std::string ns = info.namespaced ? scope.info.namespace_ : "";
  auto updated = scope.store->Update(
      ns, scope.info.name, scale ? "" : scope.info.subresource, transform,
      registry::WriteOptions{.dry_run = params->dry_run,
                             .field_manager = scale ? std::nullopt : std::optional(manager),
                             .user = RequestUser(scope.request),
                             .warnings = &scope.warnings});
  if (!updated.ok()) return ErrorResponse(updated.status());
  return RespondWritten(scope, 200, *updated);
}

}  // namespace kube::endpoints
