#include "endpoints/discovery.h"

#include <algorithm>

#include "util/version_priority.h"

namespace kube::endpoints {

using nlohmann::json;

namespace {

std::string GroupVersion(std::string_view group, std::string_view version) {
  return group.empty() ? std::string(version) : std::string(group) + "/" + std::string(version);
}

}  // namespace

bool Discovery::ServedSubresource(std::string_view name) {
  return name == "status" || name == "scale" || name == "finalize" || name == "token" || name == "binding" ||
         name == "eviction" || name == "ephemeralcontainers" || name == "resize" || name == "log" ||
         name == "exec" || name == "attach" || name == "portforward" || name == "proxy";
}

Discovery::Discovery(const catalogue::Catalogue& catalogue,
                     const std::function<bool(const catalogue::ResourceInfo&)>& served,
                     const std::vector<catalogue::ResourceInfo>& custom) {
  group_list_ = {{"kind", "APIGroupList"}, {"apiVersion", "v1"}, {"groups", json::array()}};
  aggregated_core_ = json::array();
  aggregated_groups_ = json::array();
  for (const auto& group : catalogue.Groups()) {
    std::vector<const catalogue::ResourceInfo*> resources;
    for (const auto& info : catalogue.Resources()) {
      if (info.group == group.name && served(info)) resources.push_back(&info);
    }
    AddGroup(group, resources);
  }
  // Custom resources' groups follow the built-in ones, by name; their versions in kube's
  // priority order, the first one preferred.
  std::map<std::string, std::vector<const catalogue::ResourceInfo*>> custom_groups;
  for (const auto& info : custom) custom_groups[info.group].push_back(&info);
  for (const auto& [name, resources] : custom_groups) {
    if (catalogue.FindGroup(name) != nullptr) continue;  // a built-in group is never redefined
    catalogue::GroupInfo group{.name = name};
    for (const auto* r : resources) {
      if (std::find(group.versions.begin(), group.versions.end(), r->version) == group.versions.end()) {
        group.versions.push_back(r->version);
      }
    }
    std::sort(group.versions.begin(), group.versions.end(),
              [](const std::string& a, const std::string& b) { return VersionHasPriority(a, b); });
    group.preferred_version = group.versions.front();
    AddGroup(group, resources);
  }
}

void Discovery::AddGroup(const catalogue::GroupInfo& group,
                         const std::vector<const catalogue::ResourceInfo*>& group_resources) {
  json versions = json::array();
  json aggregated_versions = json::array();
  for (const auto& version : group.versions) {
    json resources = json::array();
    json aggregated_resources = json::array();
    for (const catalogue::ResourceInfo* r : group_resources) {
      const catalogue::ResourceInfo& info = *r;
      if (info.version != version) continue;
      json entry = {{"name", info.resource},       {"singularName", info.singular},
                    {"namespaced", info.namespaced}, {"kind", info.kind},
                    {"verbs", info.verbs}};
      if (!info.short_names.empty()) entry["shortNames"] = info.short_names;
      if (!info.categories.empty()) entry["categories"] = info.categories;
      json aggregated = {{"resource", info.resource},
                         {"singularResource", info.singular},
                         {"scope", info.namespaced ? "Namespaced" : "Cluster"},
                         {"responseKind", {{"group", info.group}, {"version", info.version}, {"kind", info.kind}}},
                         {"verbs", info.verbs}};
      if (!info.short_names.empty()) aggregated["shortNames"] = info.short_names;
      if (!info.categories.empty()) aggregated["categories"] = info.categories;
      resources.push_back(std::move(entry));
      json subresources = json::array();
      for (const auto& sub : info.subresources) {
        if (!ServedSubresource(sub.name)) continue;
        json s = {{"name", info.resource + "/" + sub.name}, {"singularName", ""},
                  {"namespaced", info.namespaced},           {"kind", sub.kind},
                  {"verbs", sub.verbs}};
        // Only a subresource whose kind lives in another group/version says so.
        if (sub.group != info.group || sub.version != info.version) {
          s["group"] = sub.group;
          s["version"] = sub.version;
        }
        resources.push_back(std::move(s));
        subresources.push_back({{"subresource", sub.name},
                                {"responseKind", {{"group", sub.group}, {"version", sub.version}, {"kind", sub.kind}}},
                                {"verbs", sub.verbs}});
      }
      if (!subresources.empty()) aggregated["subresources"] = std::move(subresources);
      aggregated_resources.push_back(std::move(aggregated));
    }
    if (resources.empty()) continue;
    const std::string gv = GroupVersion(group.name, version);
    resource_lists_[gv] = {{"kind", "APIResourceList"}, {"apiVersion", "v1"},
                           {"groupVersion", gv},          {"resources", std::move(resources)}};
    versions.push_back({{"groupVersion", gv}, {"version", version}});
    aggregated_versions.push_back(
        {{"version", version}, {"resources", std::move(aggregated_resources)}, {"freshness", "Current"}});
  }
  if (versions.empty()) return;
  if (group.name.empty()) {
    aggregated_core_.push_back({{"metadata", {{"creationTimestamp", nullptr}}}, {"versions", aggregated_versions}});
    return;
  }
  // The preferred version must be one we serve; the catalogue orders versions preferred first.
  json preferred = versions[0];
  for (const auto& v : versions) {
    if (v["version"] == group.preferred_version) preferred = v;
  }
  json g = {{"name", group.name}, {"versions", versions}, {"preferredVersion", preferred}};
  groups_[group.name] = json{{"kind", "APIGroup"}, {"apiVersion", "v1"}, {"name", group.name},
                             {"versions", versions}, {"preferredVersion", preferred}};
  group_list_["groups"].push_back(std::move(g));
  aggregated_groups_.push_back({{"metadata", {{"name", group.name}, {"creationTimestamp", nullptr}}},
                                {"versions", aggregated_versions}});
}

json Discovery::ApiVersions(const std::string& server_address) const {
  return {{"kind", "APIVersions"},
          {"versions", {"v1"}},
          {"serverAddressByClientCIDRs", {{{"clientCIDR", "0.0.0.0/0"}, {"serverAddress", server_address}}}}};
}

const json* Discovery::Group(std::string_view group) const {
  auto it = groups_.find(group);
  return it == groups_.end() ? nullptr : &it->second;
}

const json* Discovery::ResourceList(std::string_view group, std::string_view version) const {
  auto it = resource_lists_.find(GroupVersion(group, version));
  return it == resource_lists_.end() ? nullptr : &it->second;
}

json Discovery::Aggregated(bool core, std::string_view version) const {
  return {{"kind", "APIGroupDiscoveryList"},
          {"apiVersion", "apidiscovery.k8s.io/" + std::string(version)},
          {"metadata", json::object()},
          {"items", core ? aggregated_core_ : aggregated_groups_}};
}

}  // namespace kube::endpoints
