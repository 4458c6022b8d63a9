// The routes of a group version as OpenAPI v3 paths (see openapi_paths.h).
#include "endpoints/openapi_paths.h"

#include <algorithm>
#include <array>
#include <map>
#include <cctype>
#include <utility>

namespace kube::endpoints {

using nlohmann::json;

namespace {

constexpr std::string_view kJson = "application/json";
constexpr std::string_view kYaml = "application/yaml";
constexpr std::string_view kProtobuf = "application/vnd.kubernetes.protobuf";
constexpr std::string_view kStatus = "io.k8s.apimachinery.pkg.apis.meta.v1.Status";
constexpr std::string_view kDeleteOptions = "io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions";
constexpr std::string_view kWatchEvent = "io.k8s.apimachinery.pkg.apis.meta.v1.WatchEvent";
constexpr std::string_view kPatch = "io.k8s.apimachinery.pkg.apis.meta.v1.Patch";
constexpr std::string_view kResourceList = "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList";

std::string Capitalize(std::string_view s) {
  std::string out(s);
  if (!out.empty()) out[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(out[0])));
  return out;
}

// "a Pod", "an Event", "Endpoints": the noun with the article kube's descriptions give it.
std::string WithArticle(const std::string& noun) {
  if (noun.ends_with("s") && !noun.ends_with("ss")) return noun;
  if (!noun.empty() && std::string_view("aeiouAEIOU").find(noun[0]) != std::string_view::npos) return "an " + noun;
  return "a " + noun;
}

// Resources whose DELETE answers with the deleted object rather than a Status.
bool DeleteReturnsObject(const catalogue::ResourceInfo& r) {
  static const std::set<std::pair<std::string_view, std::string_view>> kResources = {
      {"", "persistentvolumeclaims"},
      {"", "persistentvolumes"},
      {"", "pods"},
      {"", "podtemplates"},
      {"", "resourcequotas"},
      {"", "serviceaccounts"},
      {"", "services"},
      {"resource.k8s.io", "deviceclasses"},
      {"resource.k8s.io", "resourceclaims"},
      {"resource.k8s.io", "resourceclaimtemplates"},
      {"resource.k8s.io", "resourceslices"},
      {"storage.k8s.io", "csidrivers"},
      {"storage.k8s.io", "csinodes"},
      {"storage.k8s.io", "storageclasses"},
      {"storage.k8s.io", "volumeattachments"},
      {"storage.k8s.io", "volumeattributesclasses"},
  };
  return kResources.contains({r.group, r.resource});
}

bool Has(const std::vector<std::string>& verbs, std::string_view verb) {
  return std::find(verbs.begin(), verbs.end(), verb) != verbs.end();
}

json Query(std::string_view name, std::string_view type) {
  return {{"name", name}, {"in", "query"}, {"schema", {{"type", type}, {"uniqueItems", true}}}};
}

json PathParam(std::string_view name, const std::string& description) {
  json p = {{"name", name}, {"in", "path"}, {"required", true}, {"schema", {{"type", "string"}, {"uniqueItems", true}}}};
  if (!description.empty()) p["description"] = description;
  return p;
}

using Params = std::vector<json>;

Params Cat(Params a, const Params& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

const Params& ListParams() {
  static const Params p = {Query("allowWatchBookmarks", "boolean"), Query("continue", "string"),
                           Query("fieldSelector", "string"),        Query("labelSelector", "string"),
                           Query("limit", "integer"),               Query("resourceVersion", "string"),
                           Query("resourceVersionMatch", "string"), Query("sendInitialEvents", "boolean"),
                           Query("shardSelector", "string"),        Query("timeoutSeconds", "integer"),
                           Query("watch", "boolean")};
  return p;
}
const Params& WriteParams() {
  static const Params p = {Query("dryRun", "string"), Query("fieldManager", "string"),
                           Query("fieldValidation", "string")};
  return p;
}
const Params& DeleteParams() {
  static const Params p = {Query("dryRun", "string"), Query("gracePeriodSeconds", "integer"),
                           Query("ignoreStoreReadErrorWithClusterBreakingPotential", "boolean"),
                           Query("orphanDependents", "boolean"), Query("propagationPolicy", "string")};
  return p;
}
const Params& DeleteCollectionParams() {
  static const Params p = {Query("continue", "string"),
                           Query("dryRun", "string"),
                           Query("fieldSelector", "string"),
                           Query("gracePeriodSeconds", "integer"),
                           Query("ignoreStoreReadErrorWithClusterBreakingPotential", "boolean"),
                           Query("labelSelector", "string"),
                           Query("limit", "integer"),
                           Query("orphanDependents", "boolean"),
                           Query("propagationPolicy", "string"),
                           Query("resourceVersion", "string"),
                           Query("resourceVersionMatch", "string"),
                           Query("sendInitialEvents", "boolean"),
                           Query("shardSelector", "string"),
                           Query("timeoutSeconds", "integer")};
  return p;
}
const Params& LogParams() {
  static const Params p = {Query("container", "string"),   Query("follow", "boolean"),
                           Query("insecureSkipTLSVerifyBackend", "boolean"),
                           Query("limitBytes", "integer"), Query("previous", "boolean"),
                           Query("sinceSeconds", "integer"), Query("stream", "string"),
                           Query("tailLines", "integer"),  Query("timestamps", "boolean")};
  return p;
}
Params ConnectParams(std::string_view subresource) {
  if (subresource == "exec") {
    return {Query("command", "string"), Query("container", "string"), Query("stderr", "boolean"),
            Query("stdin", "boolean"),  Query("stdout", "boolean"),   Query("tty", "boolean")};
  }
  if (subresource == "attach") {
    return {Query("container", "string"), Query("stderr", "boolean"), Query("stdin", "boolean"),
            Query("stdout", "boolean"), Query("tty", "boolean")};
  }
  if (subresource == "portforward") return {Query("ports", "integer")};
  if (subresource == "proxy") return {Query("path", "string")};
  return {};
}

// Builds the paths of one group version's resources of one flavor.
class Builder {
 public:
  Builder(OpenApiFlavor flavor, const OpenApiSchemaName& schema_name, std::set<std::string>* refs)
      : builtin_(flavor == OpenApiFlavor::kBuiltIn), schema_name_(schema_name), refs_(refs) {}

  void Root(std::string_view group, std::string_view version) {
    const std::string gv = OpenApiOperationGroupVersion(group, version);
    json op = {{"tags", json::array({OpenApiTag(group, version)})},
               {"description", "get available resources"},
               {"operationId", "get" + gv + "APIResources"},
               {"responses", {{"200", Response("OK", ObjectTypes(), Ref(kResourceList))}, {"401", Unauthorized()}}}};
    Add(Prefix(group, version) + "/", "get", std::move(op), {});
  }

  void Resource(const catalogue::ResourceInfo& r) {
    const std::string prefix = Prefix(r.group, r.version);
    const std::string scope = r.namespaced ? "/namespaces/{namespace}/" : "/";
    const std::string collection = prefix + scope + r.resource;
    const std::string item = collection + "/{name}";
    const std::string ns = r.namespaced ? "Namespaced" : "";
    const std::string gv = OpenApiOperationGroupVersion(r.group, r.version);
    const json gvk = Gvk(r.group, r.version, r.kind);
    const json object = Ref(schema_name_(r.group, r.version, r.kind));
    const json list = r.list_kind.empty() ? json() : Ref(schema_name_(r.group, r.version, r.list_kind));
    Params scope_params;
    if (r.namespaced) scope_params.push_back(PathParam("namespace", ""));
    Params item_params = Cat(scope_params, {PathParam("name", "name of the " + r.kind)});
    const auto with_pretty = [](Params p) {
      p.push_back(Query("pretty", "string"));
      return p;
    };

    if (Has(r.verbs, "list")) {
      const std::string desc = (builtin_ ? "list or watch objects of kind " : "list objects of kind ") + r.kind;
      Add(collection, "get", Op(r, "list", "list" + gv + ns + r.kind, desc, gvk, StreamResponses(list)),
          with_pretty(Cat(scope_params, ListParams())));
      if (r.namespaced) {
        Add(prefix + "/" + r.resource, "get",
            Op(r, "list", "list" + gv + r.kind + "ForAllNamespaces", desc, gvk, StreamResponses(list)),
            with_pretty(ListParams()));
      }
    }
    if (Has(r.verbs, "create")) {
      Add(collection, "post", Create(r, "create" + gv + ns + r.kind, "create " + WithArticle(r.kind), gvk, object),
          with_pretty(Cat(scope_params, WriteParams())));
    }
    if (Has(r.verbs, "deletecollection")) {
      json op = Op(r, "deletecollection", "delete" + gv + "Collection" + ns + r.kind, "delete collection of " + r.kind,
                   gvk, {{"200", Response("OK", ObjectTypes(), Ref(kStatus))}, {"401", Unauthorized()}});
      if (builtin_) op["requestBody"] = Body(Ref(kDeleteOptions), false);
      Add(collection, "delete", std::move(op),
          with_pretty(Cat(scope_params, builtin_ ? DeleteCollectionParams() : ListParams())));
    }
    if (Has(r.verbs, "get")) {
      Add(item, "get", Read(r, "read" + gv + ns + r.kind, "read the specified " + r.kind, gvk, object),
          with_pretty(Cat(item_params, builtin_ ? Params{} : Params{Query("resourceVersion", "string")})));
    }
    if (Has(r.verbs, "update")) {
      Add(item, "put", Replace(r, "replace" + gv + ns + r.kind, "replace the specified " + r.kind, gvk, object),
          with_pretty(Cat(item_params, WriteParams())));
    }
    if (Has(r.verbs, "delete")) {
      const json deleted = builtin_ && DeleteReturnsObject(r) ? object : Ref(kStatus);
      json op = Op(r, "delete", "delete" + gv + ns + r.kind, "delete " + WithArticle(r.kind), gvk,
                   {{"200", Response("OK", ObjectTypes(), deleted)},
                    {"202", Response("Accepted", ObjectTypes(), deleted)},
                    {"401", Unauthorized()}});
      op["requestBody"] = Body(Ref(kDeleteOptions), false);
      Add(item, "delete", std::move(op), with_pretty(Cat(item_params, DeleteParams())));
    }
    if (Has(r.verbs, "patch")) {
      Add(item, "patch", Patch(r, "patch" + gv + ns + r.kind, "partially update the specified " + r.kind, gvk, object),
          with_pretty(Cat(item_params, PatchParams())));
    }
    if (builtin_ && Has(r.verbs, "watch")) {
      const std::string watch = prefix + "/watch" + scope + r.resource;
      const Params params = with_pretty(ListParams());
      Add(watch, "get",
          Op(r, "watchlist", "watch" + gv + ns + r.kind + "List", WatchListDescription(r.kind), gvk, WatchResponses()),
          Cat(scope_params, params));
      Add(watch + "/{name}", "get",
          Op(r, "watch", "watch" + gv + ns + r.kind, WatchDescription(r.kind), gvk, WatchResponses()),
          Cat(item_params, params));
      if (r.namespaced) {
        Add(prefix + "/watch/" + r.resource, "get",
            Op(r, "watchlist", "watch" + gv + r.kind + "ListForAllNamespaces", WatchListDescription(r.kind), gvk,
               WatchResponses()),
            params);
      }
    }
    for (const auto& s : r.subresources) Subresource(r, s, item, ns, gv, item_params);
  }

  json Finish() {
    // Parameters every operation of a path shares move to the path, as kube-openapi lays them out.
    json out = json::object();
    for (auto& [path, ops] : paths_) {
      std::vector<json> common;
      bool first = true;
      for (auto& [method, params] : ops.params) {
        if (first) {
          common = params;
          first = false;
          continue;
        }
        std::erase_if(common, [&](const json& p) { return std::find(params.begin(), params.end(), p) == params.end(); });
      }
      json entry = json::object();
      for (auto& [method, op] : ops.ops) {
        Params own = ops.params[method];
        std::erase_if(own, [&](const json& p) { return std::find(common.begin(), common.end(), p) != common.end(); });
        if (!own.empty()) op["parameters"] = Sorted(std::move(own));
        entry[method] = std::move(op);
      }
      if (!common.empty()) entry["parameters"] = Sorted(std::move(common));
      out[path] = std::move(entry);
    }
    return out;
  }

 private:
  struct PathOps {
    std::map<std::string, json> ops;
    std::map<std::string, Params> params;
  };

  static json Sorted(Params params) {
    std::stable_sort(params.begin(), params.end(), [](const json& a, const json& b) {
      return std::pair(a["name"].get<std::string>(), a["in"].get<std::string>()) <
             std::pair(b["name"].get<std::string>(), b["in"].get<std::string>());
    });
    return json(std::move(params));
  }

  static std::string Prefix(std::string_view group, std::string_view version) {
    return group.empty() ? "/api/" + std::string(version) : "/apis/" + std::string(group) + "/" + std::string(version);
  }
  static json Gvk(std::string_view group, std::string_view version, std::string_view kind) {
    return {{"group", group}, {"version", version}, {"kind", kind}};
  }
  static std::string WatchListDescription(const std::string& kind) {
    return "watch individual changes to a list of " + kind +
           ". deprecated: use the 'watch' parameter with a list operation instead.";
  }
  static std::string WatchDescription(const std::string& kind) {
    return "watch changes to an object of kind " + kind +
           ". deprecated: use the 'watch' parameter with a list operation instead, filtered to a single item with "
           "the 'fieldSelector' parameter.";
  }

  void Add(const std::string& path, const std::string& method, json op, Params params) {
    auto& entry = paths_[path];
    entry.ops[method] = std::move(op);
    entry.params[method] = std::move(params);
  }

  // A schema reference (and the name recorded); a bare object schema when there is none.
  json Ref(std::string_view name) {
    if (name.empty()) return {{"type", "object"}};
    refs_->insert(std::string(name));
    return {{"$ref", "#/components/schemas/" + std::string(name)}};
  }

  std::vector<std::string_view> ObjectTypes() const {
    if (!builtin_) return {kJson, kYaml};
    return {kJson, kProtobuf, kYaml};
  }
  std::vector<std::string_view> StreamTypes() const {
    if (!builtin_) return {kJson, kYaml};
    return {kJson, "application/json;stream=watch", kProtobuf, "application/vnd.kubernetes.protobuf;stream=watch",
            kYaml};
  }
  static json Content(const std::vector<std::string_view>& types, const json& schema) {
    json content = json::object();
    for (const auto type : types) content[std::string(type)] = {{"schema", schema}};
    return content;
  }
  static json Response(std::string_view description, const std::vector<std::string_view>& types, const json& schema) {
    return {{"description", description}, {"content", Content(types, schema)}};
  }
  static json Unauthorized() { return {{"description", "Unauthorized"}}; }

  json Body(const json& schema, bool required) const {
    json body = {{"content", builtin_ ? Content({"*/*"}, schema) : Content({kJson, kYaml}, schema)}};
    if (required) body["required"] = true;
    return body;
  }

  json StreamResponses(const json& list) {
    return {{"200", Response("OK", StreamTypes(), list.is_null() ? Ref("") : list)}, {"401", Unauthorized()}};
  }
  json WatchResponses() { return {{"200", Response("OK", StreamTypes(), Ref(kWatchEvent))}, {"401", Unauthorized()}}; }

  json Op(const catalogue::ResourceInfo& r, std::string_view action, const std::string& id, const std::string& desc,
          const json& gvk, json responses) const {
    json op = {{"tags", json::array({OpenApiTag(r.group, r.version)})},
               {"description", desc},
               {"operationId", id},
               {"responses", std::move(responses)},
               {"x-kubernetes-action", action}};
    if (!gvk.is_null()) op["x-kubernetes-group-version-kind"] = gvk;
    return op;
  }
  json Read(const catalogue::ResourceInfo& r, const std::string& id, const std::string& desc, const json& gvk,
            const json& schema) {
    return Op(r, "get", id, desc, gvk, {{"200", Response("OK", ObjectTypes(), schema)}, {"401", Unauthorized()}});
  }
  json Create(const catalogue::ResourceInfo& r, const std::string& id, const std::string& desc, const json& gvk,
              const json& schema) {
    json op = Op(r, "post", id, desc, gvk,
                 {{"200", Response("OK", ObjectTypes(), schema)},
                  {"201", Response("Created", ObjectTypes(), schema)},
                  {"202", Response("Accepted", ObjectTypes(), schema)},
                  {"401", Unauthorized()}});
    op["requestBody"] = Body(schema, true);
    return op;
  }
  json Replace(const catalogue::ResourceInfo& r, const std::string& id, const std::string& desc, const json& gvk,
               const json& schema) {
    json op = Op(r, "put", id, desc, gvk,
                 {{"200", Response("OK", ObjectTypes(), schema)},
                  {"201", Response("Created", ObjectTypes(), schema)},
                  {"401", Unauthorized()}});
    op["requestBody"] = Body(schema, true);
    return op;
  }
  json Patch(const catalogue::ResourceInfo& r, const std::string& id, const std::string& desc, const json& gvk,
             const json& schema) {
    json responses = {{"200", Response("OK", ObjectTypes(), schema)}, {"401", Unauthorized()}};
    if (builtin_) responses["201"] = Response("Created", ObjectTypes(), schema);
    json op = Op(r, "patch", id, desc, gvk, std::move(responses));
    // No strategic merge patch here: see the header.
    op["requestBody"] = {{"content", Content({"application/apply-patch+yaml", "application/json-patch+json",
                                              "application/merge-patch+json"},
                                             Ref(kPatch))},
                         {"required", true}};
    return op;
  }
  static Params PatchParams() { return Cat(WriteParams(), {Query("force", "boolean")}); }

  void Subresource(const catalogue::ResourceInfo& r, const catalogue::ResourceInfo::Subresource& s,
                   const std::string& item, const std::string& ns, const std::string& gv, const Params& item_params) {
    const std::string path = item + "/" + s.name;
    const std::string id_tail = ns + r.kind + Capitalize(s.name);
    // Built-ins tag a subresource with the kind it serves, custom resources with their own kind.
    const json gvk = builtin_ ? Gvk(s.group, s.version, s.kind) : Gvk(r.group, r.version, r.kind);
    const auto with_pretty = [](Params p) {
      p.push_back(Query("pretty", "string"));
      return p;
    };
    if (builtin_ && s.name == "log") {
      const json text = {{"type", "string"}};
      Add(path, "get",
          Op(r, "get", "read" + gv + id_tail, "read log of the specified " + r.kind, gvk,
             {{"200", Response("OK", {kJson, kProtobuf, kYaml, "text/plain"}, text)}, {"401", Unauthorized()}}),
          with_pretty(Cat(item_params, LogParams())));
      return;
    }
    if (builtin_ && s.kind.ends_with("Options")) {
      // Connect subresources (exec, attach, portforward, proxy): one operation per HTTP method.
      std::vector<std::string> methods;
      if (s.name == "proxy") {
        methods = {"GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH"};
      } else {
        if (Has(s.verbs, "get")) methods.push_back("GET");
        if (Has(s.verbs, "create")) methods.push_back("POST");
      }
      const json text = {{"type", "string"}};
      const auto add = [&](const std::string& at, const std::string& suffix, const Params& params) {
        for (const auto& m : methods) {
          std::string lower = m;
          std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
          const std::string method_word = Capitalize(lower);
          Add(at, lower,
              Op(r, "connect", "connect" + gv + method_word + id_tail + suffix,
                 "connect " + m + " requests to " + s.name + " of " + r.kind, gvk,
                 {{"200", Response("OK", {"*/*"}, text)}, {"401", Unauthorized()}}),
              params);
        }
      };
      add(path, "", Cat(item_params, ConnectParams(s.name)));
      if (s.name == "proxy") {
        add(path + "/{path}", "WithPath",
            Cat(Cat(item_params, {PathParam("path", "path to the resource")}), ConnectParams(s.name)));
      }
      return;
    }
    const json schema = Ref(schema_name_(s.group, s.version, s.kind));
    if (Has(s.verbs, "create")) {
      Add(path, "post", Create(r, "create" + gv + id_tail, "create " + s.name + " of " + WithArticle(r.kind), gvk, schema),
          with_pretty(Cat(item_params, WriteParams())));
    }
    if (Has(s.verbs, "get")) {
      Add(path, "get", Read(r, "read" + gv + id_tail, "read " + s.name + " of the specified " + r.kind, gvk, schema),
          with_pretty(Cat(item_params, builtin_ ? Params{} : Params{Query("resourceVersion", "string")})));
    }
    if (Has(s.verbs, "update")) {
      Add(path, "put",
          Replace(r, "replace" + gv + id_tail, "replace " + s.name + " of the specified " + r.kind, gvk, schema),
          with_pretty(Cat(item_params, WriteParams())));
    }
    if (Has(s.verbs, "patch")) {
      Add(path, "patch",
          Patch(r, "patch" + gv + id_tail, "partially update " + s.name + " of the specified " + r.kind, gvk, schema),
          with_pretty(Cat(item_params, PatchParams())));
    }
  }

  bool builtin_;
  const OpenApiSchemaName& schema_name_;
  std::set<std::string>* refs_;
  std::map<std::string, PathOps> paths_;
};

// "rbac.authorization.k8s.io" -> {"rbac", "authorization"}; "" -> {"core"}.
std::vector<std::string> GroupWords(std::string_view group) {
  if (group.empty()) return {"core"};
  if (group.ends_with(".k8s.io")) group.remove_suffix(std::string_view(".k8s.io").size());
  std::vector<std::string> words;
  std::string word;
  for (const char c : group) {
    if (c == '.' || c == '-') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

}  // namespace

std::string OpenApiOperationGroupVersion(std::string_view group, std::string_view version) {
  std::string out;
  for (const auto& w : GroupWords(group)) out += Capitalize(w);
  return out + Capitalize(version);
}

std::string OpenApiTag(std::string_view group, std::string_view version) {
  std::string out;
  for (const auto& w : GroupWords(group)) out += out.empty() ? w : Capitalize(w);
  return out + "_" + std::string(version);
}

json OpenApiV3Paths(const std::vector<const catalogue::ResourceInfo*>& resources, OpenApiFlavor flavor,
                    const OpenApiSchemaName& schema_name, std::set<std::string>* refs) {
  Builder builder(flavor, schema_name, refs);
  if (resources.empty()) return json::object();
  if (flavor == OpenApiFlavor::kBuiltIn) builder.Root(resources.front()->group, resources.front()->version);
  for (const auto* r : resources) builder.Resource(*r);
  return builder.Finish();
}

json OpenApiCustomListSchema(const catalogue::ResourceInfo& info, const std::string& item_schema) {
  return {{"description", info.list_kind + " is a list of " + info.kind},
          {"type", "object"},
          {"required", json::array({"items"})},
          {"properties",
           {{"apiVersion", {{"type", "string"}}},
            {"kind", {{"type", "string"}}},
            {"items", {{"type", "array"}, {"items", {{"$ref", "#/components/schemas/" + item_schema}}}}},
            {"metadata",
             {{"allOf", json::array({{{"$ref", "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"}}})}}}}},
          {"x-kubernetes-group-version-kind",
           json::array({{{"group", info.group}, {"version", info.version}, {"kind", info.list_kind}}})}};
}

}  // namespace kube::endpoints
