#include "endpoints/openapi.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <deque>
#include <set>
#include <tuple>

#include "endpoints/openapi_paths.h"
#include "endpoints/responses.h"
#include "protobuf/openapi_v2.h"
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
  json schemas = json::object();
  std::deque<std::string> pending;
  // The schema of each group/version/kind: custom kinds (and their lists) by their CRD names,
  // built-ins by the definitions tagged with it.
  std::map<std::tuple<std::string, std::string, std::string>, std::string> schema_of;
  for (const auto& [name, def] : catalogue_.RawDefinitions().items()) {
    if (!def.contains("x-kubernetes-group-version-kind")) continue;
    for (const auto& g : def["x-kubernetes-group-version-kind"]) {
      schema_of.try_emplace({g.value("group", ""), g.value("version", ""), g.value("kind", "")}, name);
    }
  }
  std::vector<const catalogue::ResourceInfo*> builtin, custom;
  for (const auto& r : catalogue_.Resources()) {
    if (GroupVersionKey(r) == key && served_(r)) builtin.push_back(&r);
  }
  for (const auto& kind : custom_) {
    if (GroupVersionKey(kind.info) != key) continue;
    auto [name, schema] = CustomSchemaLocked(kind);
    std::set<std::string> refs;
    Rewrite(&schema, &refs);
    for (const auto& ref : refs) pending.push_back(ref);
    schemas[name] = std::move(schema);
    const std::string list_name = name.substr(0, name.size() - kind.info.kind.size()) + kind.info.list_kind;
    schemas[list_name] = OpenApiCustomListSchema(kind.info, name);
    pending.push_back("io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta");
    schema_of[{kind.info.group, kind.info.version, kind.info.kind}] = name;
    schema_of[{kind.info.group, kind.info.version, kind.info.list_kind}] = list_name;
    custom.push_back(&kind.info);
  }
  const OpenApiSchemaName schema_name = [&](std::string_view g, std::string_view v, std::string_view k) {
    auto it = schema_of.find({std::string(g), std::string(v), std::string(k)});
    return it == schema_of.end() ? std::string() : it->second;
  };
  std::set<std::string> path_refs;
  json paths = OpenApiV3Paths(builtin, OpenApiFlavor::kBuiltIn, schema_name, &path_refs);
  paths.update(OpenApiV3Paths(custom, OpenApiFlavor::kCustomResource, schema_name, &path_refs));
  for (const auto& ref : path_refs) pending.push_back(ref);
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
    if (d == nullptr) {
      // kube-openapi's v3 handler answers a group version it has no document for with a bare 404.
      r.status = 404;
      r.content_type.clear();
      return r;
    }
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
    // kube-openapi's negotiation: the Accept clauses by preference (q, then the specific before
    // wildcards); the first one JSON or one of the two gnostic protobuf types fits picks the form.
    struct Clause {
      std::string type, subtype;
      double q = 1;
    };
    auto trim = [](std::string_view v) {
      while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
      while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
      return v;
    };
    std::vector<Clause> clauses;
    for (std::string_view rest = accept.empty() ? std::string_view("*/*") : accept; !rest.empty();) {
      const size_t comma = rest.find(',');
      std::string_view part = rest.substr(0, comma);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      Clause c;
      const size_t semi = part.find(';');
      std::string media(trim(part.substr(0, semi)));
      for (std::string_view params = semi == std::string_view::npos ? "" : part.substr(semi + 1); !params.empty();) {
        const size_t next = params.find(';');
        const std::string_view param = trim(params.substr(0, next));
        params = next == std::string_view::npos ? std::string_view() : params.substr(next + 1);
        if (param.starts_with("q=")) c.q = std::atof(std::string(param.substr(2)).c_str());
      }
      const size_t slash = media.find('/');
      if (slash == std::string::npos) {
        if (media != "*") continue;
        c.type = c.subtype = "*";
      } else {
        c.type = media.substr(0, slash);
        c.subtype = media.substr(slash + 1);
      }
      clauses.push_back(std::move(c));
    }
    std::stable_sort(clauses.begin(), clauses.end(), [](const Clause& a, const Clause& b) {
      if (a.q != b.q) return a.q > b.q;
      if ((a.type != "*") != (b.type != "*")) return a.type != "*";
      return a.subtype != "*" && b.subtype == "*";
    });
    constexpr std::string_view kJsonSubtype = "json";
    const std::string_view proto_subtype = protobuf::kOpenApiV2ProtoType.substr(sizeof("application/") - 1);
    const std::string_view alias_subtype = protobuf::kOpenApiV2ProtoTypeAlias.substr(sizeof("application/") - 1);
    std::optional<bool> as_proto;
    for (const auto& c : clauses) {
      if (c.type != "application" && c.type != "*") continue;
      if (c.subtype == "*" || c.subtype == kJsonSubtype) {
        as_proto = false;
      } else if (c.subtype == proto_subtype || c.subtype == alias_subtype) {
        as_proto = true;
      } else {
        continue;
      }
      break;
    }
    r.headers.emplace("Vary", "Accept");
    if (!as_proto) {
      r.status = 406;
      r.content_type.clear();
      return r;
    }
    if (v2_.empty()) {
      json definitions = ServedDefinitionsLocked();
      // v3 references (#/components/schemas/X) as v2 ones (#/definitions/X).
      auto to_v2 = [](auto& self, json* node) -> void {
        constexpr std::string_view kV3 = "#/components/schemas/";
        if (node->is_object()) {
          for (auto it = node->begin(); it != node->end(); ++it) {
            if (it.key() == "$ref" && it->is_string() && it->get_ref<const std::string&>().starts_with(kV3)) {
              *it = "#/definitions/" + it->get<std::string>().substr(kV3.size());
            } else {
              self(self, &it.value());
            }
          }
        } else if (node->is_array()) {
          for (auto& v : *node) self(self, &v);
        }
      };
      for (const auto& kind : custom_) {
        auto [name, schema] = CustomSchemaLocked(kind);
        // Each custom kind's list kind too, as kube's CRD OpenAPI builder publishes it.
        json list = OpenApiCustomListSchema(kind.info, name);
        to_v2(to_v2, &list);
        definitions[name.substr(0, name.size() - kind.info.kind.size()) + kind.info.list_kind] = std::move(list);
        definitions[name] = std::move(schema);
      }
      const json doc = {{"swagger", "2.0"},
                        {"info", {{"title", "Kubernetes"}, {"version", "v1.36.0"}}},
                        {"paths", json::object()},
                        {"definitions", std::move(definitions)}};
      v2_ = Dump(doc);
      auto encoded = protobuf::EncodeOpenApiV2(doc);
      v2_proto_ = encoded.ok() ? std::move(*encoded) : std::string();
    }
    // The protobuf form shares the JSON's ETag, as kube-openapi's (the answer varies by Accept).
    r.headers.emplace("Etag", "\"" + ContentHash(v2_) + "\"");
    if (*as_proto) {
      r.content_type = std::string(protobuf::kOpenApiV2ProtoType);
      r.body = v2_proto_;
    } else {
      r.body = v2_;
    }
    return r;
  }
  return ErrorResponse(Status::NotFound("the server could not find the requested resource"));
}

}  // namespace kube::endpoints
