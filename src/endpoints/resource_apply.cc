// PATCH with application/apply-patch+yaml: server-side apply, as kube's patch handler runs it
// (PatchOptions validation, the body transcoded from YAML, the merge by the field manager inside
// the store's update, create when absent, strict decoding judged after the merge). The merge
// itself is registry::FieldManager's.
#include <nlohmann/json.hpp>

#include <cmath>

#include "endpoints/api_server.h"
#include "endpoints/field_validation.h"
#include "endpoints/request_options.h"
#include "endpoints/responses.h"
#include "endpoints/scale.h"
#include "endpoints/warnings.h"
#include "registry/scale_fields.h"
#include "util/json_depth.h"
#include "yaml/yaml.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

// Go's name of a JSON value's type in encoding/json errors.
std::string GoJsonTypeName(const json& v) {
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "number";
  return v.type_name();
}

// Floats with an integral value as integers, as kube's YAML-to-JSON conversion writes them.
void IntegralFloatsAsIntegers(json* v) {
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (std::trunc(d) == d && std::fabs(d) < 9.2e18) *v = static_cast<int64_t>(d);
  } else if (v->is_structured()) {
    for (auto& item : *v) IntegralFloatsAsIntegers(&item);
  }
}

bool LooksLikeJsonObject(std::string_view body) {
  const size_t first = body.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && body[first] == '{';
}

// The applied configuration: any YAML (JSON included), which must be an object. `json_text`
// tells whether the body was read as JSON.
Result<json> DecodeApplyBody(std::string_view body, bool* json_text) {
  *json_text = false;
  if (LooksLikeJsonObject(body)) {
    // JSON is YAML: kubectl and client-go send JSON, which needs no YAML parser (the result is
    // the same; the depth limit is the JSON decoder's kube applies to the converted body).
    if (size_t at = FindJsonDepthExcess(body); at != std::string_view::npos) {
      return Status::BadRequest("error decoding patch: " + JsonDepthError(body[at]));
    }
    json parsed = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_discarded()) {
      *json_text = true;
      IntegralFloatsAsIntegers(&parsed);
      return parsed;
    }
  }
  auto converted = yaml::YamlToJson(body);
  if (!converted.ok()) return Status::BadRequest("error encoding patch: " + converted.status().message());
  // An empty body decodes to no object at all; the field manager then finds no kind in it.
  if (converted->is_null()) return json::object();
  if (NestedDeeperThan(*converted, kMaxJsonDepth)) {
    return Status::BadRequest("error decoding patch: " + JsonDepthError('{'));
  }
  if (!converted->is_object()) {
    return Status::BadRequest(
        "error decoding patch: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal " +
        GoJsonTypeName(*converted) + " into Go value of type map[string]interface {}");
  }
  return converted;
}

// fieldValidation for an apply: only repeated keys can be found (the configuration is decoded
// into a map); Strict makes them a 400 once the merge succeeded, Warn a warning each.
Status StrictDecoding(RequestScope& scope, const WriteParams& params, std::string_view body, bool json_text) {
  if (params.field_validation == "Ignore") return Status::OK();
  // A JSON body without repeated keys needs no second YAML parse to know it has none.
  if (json_text && DuplicateFields(body).empty()) return Status::OK();
  auto strict = yaml::YamlToJsonStrict(body);
  if (strict.ok()) return Status::OK();
  if (params.field_validation == "Strict") {
    return Status::BadRequest("error strict decoding patch: " + strict.status().message());
  }
  for (auto& w : SplitYamlWarnings(strict.status().message())) scope.warnings.push_back(std::move(w));
  return Status::OK();
}

}  // namespace

HttpResponse ApiServer::Apply(RequestScope& scope) {
  auto params = ParseWriteParams(scope.query, "PatchOptions", /*apply=*/true);
  if (!params.ok()) return ErrorResponse(params.status());
  bool json_text = false;
  auto config = DecodeApplyBody(scope.request.body, &json_text);
  if (!config.ok()) return ErrorResponse(config.status());
  const Status strict = StrictDecoding(scope, *params, scope.request.body, json_text);
  const std::string ns = scope.store->info().namespaced ? scope.info.namespace_ : "";
  const bool force = params->force.value_or(false);

  if (scope.info.subresource == "scale") {
    // Applied to the Scale view; no create through a subresource.
    auto transform = [&](const json& current) -> Result<json> {
      return WriteThroughScale(*scope.store, current, [&](const json& old_scale) -> Result<json> {
        auto merged = registry::ScaleFieldManager().Apply(old_scale, *config, params->field_manager, force);
        if (!merged.ok()) return merged.status();
        KUBE_RETURN_IF_ERROR(strict);
        const json& meta = (*merged)["metadata"];
        const std::string name = meta.is_object() ? meta.value("name", "") : "";
        if (name != scope.info.name) {
          return Status::BadRequest("the name of the object (" + name + ") does not match the name on the URL (" +
                                    scope.info.name + ")");
        }
        return merged;
      });
    };
    auto updated = scope.store->Update(ns, scope.info.name, "", transform,
                                       registry::WriteOptions{.dry_run = params->dry_run,
                                                              .user = RequestUser(scope.request),
                                                              .warnings = &scope.warnings});
    if (!updated.ok()) return ErrorResponse(updated.status());
    return RespondWritten(scope, 200, *updated);
  }

  auto applied = scope.store->Apply(ns, scope.info.name, scope.info.subresource, *config,
                                    registry::ApplyOptions{.field_manager = params->field_manager,
                                                           .force = force,
                                                           .dry_run = params->dry_run,
                                                           .strict_decoding_error = strict,
                                                           .user = RequestUser(scope.request),
                                                           .warnings = &scope.warnings});
  if (!applied.ok()) return ErrorResponse(applied.status());
  return RespondWritten(scope, applied->created ? 201 : 200, applied->object);
}

}  // namespace kube::endpoints
