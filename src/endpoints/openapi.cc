#include "endpoints/openapi.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <deque>
#include <set>

#include "endpoints/responses.h"
#include "util/strings.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {


std::string GroupVersionKey(const catalogue::ResourceInfo& r) {
  return r.group.empty() ? "api/" + r.version : "apis/" + r.group + "/" + r.version;
}

// v2 references (#/definitions/X) become v3 ones (#/components/schemas/X), collecting targets.
void Rewrite(json* node, std::set<std::string>* refs) {
  if (node->is_object()) {
    for (auto it = node->begin(); it != node->end(); ++it) {
      if (it.key() == "$ref" && it->is_string()) {
        std::string target = it->get<std::string>();
        constexpr std::string_view kPrefix = "#/definitions/";
        if (target.starts_with(kPrefix)) {
          std::string name = target.substr(kPrefix.size());
          refs->insert(name);
          *it = "#/components/schemas/" + name;
        }
      } else {
        Rewrite(&it.value(), refs);
      }
    }
  } else if (node->is_array()) {
    for (auto& v : *node) Rewrite(&v, refs);
  }
}

json Parameter(const char* name, const char* type) {
  return {{"name", name}, {"in", "query"}, {"schema", {{"type", type}}}};
}

}  // namespace

OpenApi::OpenApi(const catalogue::Catalogue& catalogue, Served served)
    : catalogue_(catalogue), served_(std::move(served)) {}

void OpenApi::SetCustomKinds(std::vector<CustomKind> kinds) {
  std::lock_guard lock(mu_);
  custom_ = std::move(kinds);
  // Built-in group-versions never change, but a CRD may join one of their groups' siblings:
  // rebuilding everything on a CRD change is cheap next to how rarely CRDs change.
  docs_.clear();
  v2_.clear();
}

std::pair<std::string, json> OpenApi::CustomSchemaLocked(const CustomKind& kind) const {
  // kube names a CRD's schema by its reversed group: "com.example.v1.Widget".
  std::string reversed;
  std::string_view group = kind.info.group;
  while (!group.empty()) {
    const size_t dot = group.rfind('.');
    const std::string_view label = dot == std::string_view::npos ? group : group.substr(dot + 1);
    if (!reversed.empty()) reversed += '.';
    reversed += label;
    group = dot == std::string_view::npos ? std::string_view() : group.substr(0, dot);
  }
  json schema = kind.schema ? *kind.schema : json::object();
  if (!schema.is_object()) schema = json::object();
  schema["type"] = "object";
  // The fields every object has, described as kube's CRD OpenAPI builder does.
  schema["properties"]["apiVersion"] = {
      {"type", "string"},
      {"description",
       "APIVersion defines the versioned schema of this representation of an object. Servers should convert "
       "recognized schemas to the latest internal value, and may reject unrecognized values."}};
  schema["properties"]["kind"] = {
      {"type", "string"},
      {"description",
       "Kind is a string value representing the REST resource this object represents. Servers may infer this "
       "from the endpoint the client submits requests to. Cannot be updated. In CamelCase."}};
  schema["properties"]["metadata"] = {
      {"allOf", json::array({{{"$ref", "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"}}})},
      {"description", "Standard object's metadata."}};
  schema["x-kubernetes-group-version-kind"] =
      json::array({{{"group", kind.info.group}, {"version", kind.info.version}, {"kind", kind.info.kind}}});
  return {reversed + "." + kind.info.version + "." + kind.info.kind, std::move(schema)};
}

const OpenApi::Document* OpenApi::GroupVersionLocked(const std::string& key) {
  if (auto it = docs_.find(key); it != docs_.end()) return &it->second;
  json paths = json::object();
  json schemas = json::object();
  std::deque<std::string> pending;
  const json params = json::array({Parameter("dryRun", "string"), Parameter("fieldManager", "string"),
                                   Parameter("fieldValidation", "string"), Parameter("force", "boolean")});
  auto add_paths = [&](const catalogue::ResourceInfo& r, const std::string& schema_ref) {
    const std::string prefix = r.group.empty() ? "/api/" + r.version : "/apis/" + r.group + "/" + r.version;
    const std::string item = prefix + (r.namespaced ? "/namespaces/{namespace}/" : "/") + r.resource + "/{name}";
    const json gvk = {{"group", r.group}, {"version", r.version}, {"kind", r.kind}};
    json ok = {{"description", "OK"}};
    if (!schema_ref.empty()) {
      ok["content"]["application/json"]["schema"]["$ref"] = "#/components/schemas/" + schema_ref;
    }
    paths[item] = {
        {"get", {{"x-kubernetes-action", "get"}, {"x-kubernetes-group-version-kind", gvk}, {"responses", {{"200", ok}}}}},
        {"patch",
         {{"x-kubernetes-action", "patch"},
          {"x-kubernetes-group-version-kind", gvk},
          {"parameters", params},
          {"requestBody",
           {{"content", {{"application/json-patch+json", {{"schema", json::object()}}},
                         {"application/merge-patch+json", {{"schema", json::object()}}},
                         {"application/apply-patch+yaml", {{"schema", json::object()}}}}}}},
          {"responses", {{"200", ok}}}}}};
  };
  for (const auto& r : catalogue_.Resources()) {
    if (GroupVersionKey(r) != key || !served_(r)) continue;
    const std::string schema_ref = [&] {
      for (const auto& [name, def] : catalogue_.RawDefinitions().items()) {
        if (!def.contains("x-kubernetes-group-version-kind")) continue;
        for (const auto& g : def["x-kubernetes-group-version-kind"]) {
          if (g.value("group", "") == r.group && g.value("version", "") == r.version && g.value("kind", "") == r.kind) {
            return name;
          }
        }
      }
      return std::string();
    }();
    if (!schema_ref.empty()) pending.push_back(schema_ref);
    add_paths(r, schema_ref);
  }
  for (const auto& kind : custom_) {
    if (GroupVersionKey(kind.info) != key) continue;
    auto [name, schema] = CustomSchemaLocked(kind);
    std::set<std::string> refs;
    Rewrite(&schema, &refs);
    for (const auto& ref : refs) pending.push_back(ref);
    schemas[name] = std::move(schema);
    add_paths(kind.info, name);
  }
  if (paths.empty()) return nullptr;
  // Every schema reachable from the group-version's kinds.
  const json& defs = catalogue_.RawDefinitions();
  std::set<std::string> seen;
  while (!pending.empty()) {
    std::string name = pending.front();
    pending.pop_front();
    if (!seen.insert(name).second || !defs.contains(name)) continue;
    json schema = defs[name];
    std::set<std::string> refs;
    Rewrite(&schema, &refs);
    for (const auto& ref : refs) pending.push_back(ref);
    schemas[name] = std::move(schema);
  }
  json doc = {{"openapi", "3.0.0"},
              {"info", {{"title", "Kubernetes"}, {"version", "v1.36.0"}}},
              {"paths", std::move(paths)},
              {"components", {{"schemas", std::move(schemas)}}}};
  Document d;
  d.body = Dump(doc);
  d.hash = ContentHash(d.body);
  return &docs_.emplace(key, std::move(d)).first->second;
}

json OpenApi::ServedDefinitionsLocked() const {
  // A definition belongs to the package of its name ("io.k8s.api.resource.v1beta1" of
  // "io.k8s.api.resource.v1beta1.DeviceRequest"). Packages that hold kinds of the catalogue are
  // published only when one of their resources is served; the rest (meta, runtime, ...) always.
  auto package_of = [](const std::string& name) { return name.substr(0, name.rfind('.')); };
  std::set<std::string> resource_packages, served_packages;
  const json& defs = catalogue_.RawDefinitions();
  for (const auto& [name, def] : defs.items()) {
    if (!def.contains("x-kubernetes-group-version-kind")) continue;
    for (const auto& g : def["x-kubernetes-group-version-kind"]) {
      const auto* r = catalogue_.FindByKind(g.value("group", ""), g.value("version", ""), g.value("kind", ""));
      if (r == nullptr) continue;
      resource_packages.insert(package_of(name));
      if (served_(*r)) served_packages.insert(package_of(name));
    }
  }
  json out = json::object();
  for (const auto& [name, def] : defs.items()) {
    const std::string package = package_of(name);
    if (resource_packages.contains(package) && !served_packages.contains(package)) continue;
    out[name] = def;
  }
  return out;
}

std::string OpenApi::IndexLocked() {
  json paths = json::object();
  std::set<std::string> keys;
  for (const auto& r : catalogue_.Resources()) {
    if (served_(r)) keys.insert(GroupVersionKey(r));
  }
  for (const auto& kind : custom_) keys.insert(GroupVersionKey(kind.info));
  for (const auto& key : keys) {
    const Document* d = GroupVersionLocked(key);
    if (d == nullptr) continue;
    paths[key] = {{"serverRelativeURL", "/openapi/v3/" + key + "?hash=" + d->hash}};
  }
  return Dump(json{{"paths", std::move(paths)}});
}

HttpResponse OpenApi::Serve(std::string_view path, std::string_view hash_param, std::string_view accept) {
  std::lock_guard lock(mu_);
  HttpResponse r;
  if (path == "/openapi/v3" || path == "/openapi/v3/") {
    r.body = IndexLocked();
    return r;
  }
  if (path.starts_with("/openapi/v3/")) {
    const std::string key(path.substr(std::string_view("/openapi/v3/").size()));
    const Document* d = GroupVersionLocked(key);
    if (d == nullptr) return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
    if (!hash_param.empty() && hash_param != d->hash) {
      // An outdated hash is sent to the current document, as kube-openapi does.
      r.status = 301;
      r.headers.emplace("Location", "/openapi/v3/" + key + "?hash=" + d->hash);
      return r;
    }
    if (!hash_param.empty()) {
      r.headers.emplace("Cache-Control", "public, immutable");
      r.headers.emplace("Expires", "Fri, 01 Jan 2100 00:00:00 GMT");
    }
    r.headers.emplace("Etag", "\"" + d->hash + "\"");
    r.body = d->body;
    return r;
  }
  if (path == "/openapi/v2" || path == "/openapi/v2/") {
    // Only JSON is offered; kubectl's protobuf-only requests get 404, which it tolerates.
    const bool json_ok = accept.empty() || accept.find("application/json") != std::string_view::npos ||
                         accept.find("*/*") != std::string_view::npos;
    if (!json_ok) return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
    if (v2_.empty()) {
      json definitions = ServedDefinitionsLocked();
      for (const auto& kind : custom_) {
        auto [name, schema] = CustomSchemaLocked(kind);
        definitions[name] = std::move(schema);
      }
      v2_ = Dump(json{{"swagger", "2.0"},
                      {"info", {{"title", "Kubernetes"}, {"version", "v1.36.0"}}},
                      {"paths", json::object()},
                      {"definitions", std::move(definitions)}});
    }
    r.body = v2_;
    return r;
  }
  return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
}

}  // namespace kube::endpoints
