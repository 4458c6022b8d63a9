// Discovery documents generated from the catalogue (rest.md §3.2, §3.3): legacy APIVersions,
// APIGroupList, APIGroup and APIResourceList, and aggregated discovery v2 / v2beta1. Only what
// the server really serves is advertised: stored resources and the status, scale and finalize
// subresources.
//
// Custom resources are advertised beside the built-in ones; the server builds a new Discovery
// whenever the set of served custom resources changes.
//
// Thread-safety: immutable after construction.
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "catalogue/catalogue.h"

namespace kube::endpoints {

class Discovery {
 public:
  // `served` says whether a built-in resource has storage behind it; `custom` are the served
  // custom resource versions.
  Discovery(const catalogue::Catalogue& catalogue,
            const std::function<bool(const catalogue::ResourceInfo&)>& served,
            const std::vector<catalogue::ResourceInfo>& custom = {});

  // /api: APIVersions (serverAddress filled per request).
  nlohmann::json ApiVersions(const std::string& server_address) const;
  // /apis: APIGroupList of every non-core group.
  const nlohmann::json& GroupList() const { return group_list_; }
  // /apis/<group>; nullptr when unknown.
  const nlohmann::json* Group(std::string_view group) const;
  // /api/v1, /apis/<g>/<v>; nullptr when unknown.
  const nlohmann::json* ResourceList(std::string_view group, std::string_view version) const;
  // Aggregated: core (for /api) or every other group (for /apis), as version "v2" or "v2beta1".
  nlohmann::json Aggregated(bool core, std::string_view version) const;

  static bool ServedSubresource(std::string_view name);

 private:
  void AddGroup(const catalogue::GroupInfo& group, const std::vector<const catalogue::ResourceInfo*>& resources);

  nlohmann::json group_list_;
  std::map<std::string, nlohmann::json, std::less<>> groups_;          // group -> APIGroup
  std::map<std::string, nlohmann::json, std::less<>> resource_lists_;  // "g/v" -> APIResourceList
  nlohmann::json aggregated_core_;    // items for /api
  nlohmann::json aggregated_groups_;  // items for /apis
};

}  // namespace kube::endpoints
