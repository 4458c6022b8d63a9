#include "apiextensions/crd_serving.h"

#include <nlohmann/json.hpp>

#include <algorithm>

#include "apiextensions/custom_resource_strategy.h"
#include "util/version_priority.h"

namespace kube::apiextensions {

using nlohmann::json;

namespace {

const json& Member(const json& obj, const char* key) {
  static const json kNull;
  if (!obj.is_object()) return kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

std::string StringAt(const json& obj, const char* key) {
  const json& v = Member(obj, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::vector<std::string> Strings(const json& v) {
  std::vector<std::string> out;
  if (!v.is_array()) return out;
  for (const auto& s : v) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

// The state owned by one served set: the schema graphs of its versions and their JSON.
struct Owned {
  std::vector<std::shared_ptr<const schema::SchemaGraph>> graphs;
};

// kube's default: "<group>/<version> <Kind> is deprecated", and "; use <group>/<v> <Kind>" naming
// the highest-priority served, non-deprecated version that has priority over it.
std::string DefaultDeprecationWarning(const json& crd, const std::string& deprecated) {
  const json& spec = Member(crd, "spec");
  const std::string group = StringAt(spec, "group");
  const std::string kind = StringAt(Member(spec, "names"), "kind");
  std::string message = group + "/" + deprecated + " " + kind + " is deprecated";
  std::string best;
  for (const auto& v : Member(spec, "versions")) {
    const std::string name = StringAt(v, "name");
    const bool served = Member(v, "served").is_boolean() && Member(v, "served").get<bool>();
    const bool deprecated_too = Member(v, "deprecated").is_boolean() && Member(v, "deprecated").get<bool>();
    if (!served || deprecated_too || !VersionHasPriority(name, deprecated)) continue;
    if (best.empty() || VersionHasPriority(name, best)) best = name;
  }
  if (!best.empty()) message += "; use " + group + "/" + best + " " + kind;
  return message;
}

}  // namespace

std::string StorageVersion(const json& crd) {
  for (const auto& v : Member(Member(crd, "spec"), "versions")) {
    if (Member(v, "storage").is_boolean() && Member(v, "storage").get<bool>()) return StringAt(v, "name");
  }
  return "";
}

Result<registry::CustomResourceSet> ServingFor(const json& crd, bool terminating) {
  const json& spec = Member(crd, "spec");
  const json& names = Member(Member(crd, "status"), "acceptedNames");
  const std::string group = StringAt(spec, "group");
  const std::string plural = StringAt(names, "plural");
  const std::string kind = StringAt(names, "kind");
  registry::CustomResourceSet set;
  set.crd_name = StringAt(Member(crd, "metadata"), "name");
  set.crd_uid = StringAt(Member(crd, "metadata"), "uid");
  set.kind = kind;
  set.storage_api_version = group + "/" + StorageVersion(crd);
  if (plural.empty() || kind.empty() || group.empty()) return set;  // names not accepted: nothing served

  auto owned = std::make_shared<Owned>();
  const bool namespaced = StringAt(spec, "scope") != "Cluster";
  for (const auto& v : Member(spec, "versions")) {
    if (!Member(v, "served").is_boolean() || !Member(v, "served").get<bool>()) continue;
    const std::string version = StringAt(v, "name");
    catalogue::ResourceInfo info;
    info.group = group;
    info.version = version;
    info.resource = plural;
    info.singular = StringAt(names, "singular");
    info.kind = kind;
    info.list_kind = StringAt(names, "listKind");
    if (info.list_kind.empty()) info.list_kind = kind + "List";
    info.namespaced = namespaced;
    // kube's order; a terminating CRD can still be read and emptied, not written.
    info.verbs = terminating ? std::vector<std::string>{"delete", "deletecollection", "get", "list", "watch"}
                             : std::vector<std::string>{"delete", "deletecollection", "get", "list",
                                                        "patch",  "create",           "update", "watch"};
    info.short_names = Strings(Member(names, "shortNames"));
    info.categories = Strings(Member(names, "categories"));
    info.storage_prefix = "/" + group + "/" + plural;

    const json& subresources = Member(v, "subresources");
    CustomResourceVersionSpec strategy_spec{
        .group = group, .version = version, .kind = kind, .resource = plural, .terminating = terminating};
    const bool has_status = Member(subresources, "status").is_object();
    if (Member(v, "deprecated").is_boolean() && Member(v, "deprecated").get<bool>()) {
      const json& warning = Member(v, "deprecationWarning");
      strategy_spec.warning = warning.is_string() ? warning.get<std::string>() : DefaultDeprecationWarning(crd, version);
    }
    if (Member(subresources, "scale").is_object()) {
      const json& scale = subresources["scale"];
      strategy_spec.scale = registry::ScalePaths{.spec_replicas = StringAt(scale, "specReplicasPath"),
                                                 .status_replicas = StringAt(scale, "statusReplicasPath"),
                                                 .label_selector = StringAt(scale, "labelSelectorPath")};
      info.subresources.push_back({.name = "scale",
                                   .group = "autoscaling",
                                   .version = "v1",
                                   .kind = "Scale",
                                   .verbs = {"get", "patch", "update"}});
    }
    if (has_status) {
      info.subresources.push_back(
          {.name = "status", .group = group, .version = version, .kind = kind, .verbs = {"get", "patch", "update"}});
    }

    strategy_spec.table = std::make_shared<const printers::CustomResourceTable>(
        printers::CustomResourceTable::Build(Member(v, "additionalPrinterColumns")));
    if (strategy_spec.scale) {
      strategy_spec.scale_table =
          std::make_shared<const printers::CustomResourceTable>(printers::CustomResourceTable::BuildForScale(v));
    }
    const json& openapi = Member(Member(v, "schema"), "openAPIV3Schema");
    std::shared_ptr<const schema::SchemaGraph> graph;
    if (openapi.is_object()) {
      auto built = schema::SchemaGraph::FromOpenAPIV3(openapi);
      if (!built.ok()) return built.status();
      graph = std::move(*built);
      owned->graphs.push_back(graph);
    }
    strategy_spec.schema = graph;
    if (graph) strategy_spec.rules = ValidationRules::Compile(graph->Root());

    registry::KindRules rules;
    rules.name_rule = registry::NameRule::kDnsSubdomain;
    rules.tracks_generation = true;
    // Without the status subresource, status is just more of the object.
    rules.generation_counts_status = !has_status;
    rules.custom_field_labels = true;
    rules.custom_resource = true;
    for (const auto& f : Member(v, "selectableFields")) {
      std::string path = StringAt(f, "jsonPath");
      if (path.starts_with('.')) path.erase(0, 1);
      if (!path.empty()) rules.selectable_fields.push_back(std::move(path));
    }

    registry::CustomResourceVersion served;
    served.info = std::move(info);
    served.rules = std::move(rules);
    auto strategy = std::make_shared<CustomResourceStrategy>(std::move(strategy_spec));
    served.schema = strategy->root();
    served.strategy = std::move(strategy);
    served.openapi_schema = openapi.is_object() ? std::make_shared<const json>(openapi) : nullptr;
    set.versions.push_back(std::move(served));
  }
  std::stable_sort(set.versions.begin(), set.versions.end(), [](const auto& a, const auto& b) {
    return VersionHasPriority(a.info.version, b.info.version);
  });
  set.keep_alive = owned;
  return set;
}

}  // namespace kube::apiextensions
