#include "auth/clusterrole_aggregation.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "auth/rbac_rules.h"

namespace kube::auth {

using nlohmann::json;

namespace {

constexpr char kFieldManager[] = "clusterrole-aggregation-controller";
constexpr auto kPoll = std::chrono::milliseconds(200);

std::string NameOf(const json& obj) {
  const json& meta = obj.value("metadata", json::object());
  return meta.value("name", "");
}

bool HasAggregationRule(const json& role) {
  auto it = role.find("aggregationRule");
  return it != role.end() && it->is_object();
}

// The rules `role` aggregates from `all` (kube's syncClusterRole).
json AggregatedRules(const json& role, const std::vector<storage::ObjectPtr>& all) {
  json rules = json::array();
  const json& selectors = role["aggregationRule"].value("clusterRoleSelectors", json::array());
  if (!selectors.is_array()) return rules;
  const std::string self = NameOf(role);
  for (const auto& selector : selectors) {
    std::vector<const json*> matched;
    for (const auto& other : all) {
      if (NameOf(*other) != self && LabelSelectorMatches(selector, *other)) matched.push_back(other.get());
    }
    std::sort(matched.begin(), matched.end(), [](const json* a, const json* b) { return NameOf(*a) < NameOf(*b); });
    for (const json* other : matched) {
      auto it = other->find("rules");
      if (it == other->end() || !it->is_array()) continue;
      for (const auto& rule : *it) {
        if (std::find(rules.begin(), rules.end(), rule) == rules.end()) rules.push_back(rule);
      }
    }
  }
  return rules;
}

}  // namespace

bool LabelSelectorMatches(const json& selector, const json& obj) {
  if (!selector.is_object()) return false;
  const json& meta = obj.value("metadata", json::object());
  const json labels = meta.is_object() ? meta.value("labels", json::object()) : json::object();
  auto label = [&](const std::string& key) -> const json* {
    if (!labels.is_object()) return nullptr;
    auto it = labels.find(key);
    return it != labels.end() && it->is_string() ? &*it : nullptr;
  };
  if (auto it = selector.find("matchLabels"); it != selector.end() && it->is_object()) {
    for (const auto& [key, value] : it->items()) {
      const json* have = label(key);
      if (have == nullptr || *have != value) return false;
    }
  }
  if (auto it = selector.find("matchExpressions"); it != selector.end() && it->is_array()) {
    for (const auto& expr : *it) {
      if (!expr.is_object()) return false;
      const std::string key = expr.value("key", "");
      const std::string op = expr.value("operator", "");
      const json values = expr.value("values", json::array());
      const json* have = label(key);
      const bool in = have != nullptr && values.is_array() && std::find(values.begin(), values.end(), *have) != values.end();
      if (op == "In") {
        if (!in) return false;
      } else if (op == "NotIn") {
        if (in) return false;
      } else if (op == "Exists") {
        if (have == nullptr) return false;
      } else if (op == "DoesNotExist") {
        if (have != nullptr) return false;
      } else {
        return false;
      }
    }
  }
  return true;
}

Status ClusterRoleAggregator::SyncAll(bool* changed) {
  if (changed != nullptr) *changed = false;
  if (!store_) store_ = registry_->Find(kRbacGroup, "v1", "clusterroles");
  if (!store_) return Status::Internal("rbac: clusterroles are not served");
  auto list = store_->List("", storage::ListOptions{});
  if (!list.ok()) return list.status();
  Status result;
  for (const auto& role : list->items) {
    if (!HasAggregationRule(*role)) continue;
    json rules = AggregatedRules(*role, list->items);
    json have = role->value("rules", json::array());
    if (have.is_null()) have = json::array();
    if (have == rules) continue;
    json config = {{"apiVersion", std::string(kRbacGroup) + "/v1"},
                   {"kind", "ClusterRole"},
                   {"metadata", {{"name", NameOf(*role)}}},
                   {"rules", rules}};
    auto applied = store_->Apply("", NameOf(*role), "", config,
                                 registry::ApplyOptions{.field_manager = kFieldManager, .force = true});
    // A role deleted meanwhile is no longer anyone's business; other errors are retried on the
    // next change.
    if (!applied.ok() && !applied.status().IsNotFound() && result.ok()) result = applied.status();
    if (applied.ok() && changed != nullptr) *changed = true;
  }
  return result;
}

Status ClusterRoleAggregator::Start() {
  store_ = registry_->Find(kRbacGroup, "v1", "clusterroles");
  if (!store_) return Status::Internal("rbac: clusterroles are not served");
  auto list = store_->List("", storage::ListOptions{});
  if (!list.ok()) return list.status();
  // Each pass completes one more level of roles aggregating aggregated roles; kube's own policy
  // nests two deep (admin <- edit <- view).
  for (int pass = 0; pass < 10; ++pass) {
    bool changed = false;
    KUBE_RETURN_IF_ERROR(SyncAll(&changed));
    if (!changed) break;
  }
  thread_ = std::thread([this, rv = list->resource_version] { Run(rv); });
  return Status::OK();
}

void ClusterRoleAggregator::Stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void ClusterRoleAggregator::Run(std::string resource_version) {
  bool dirty = true;  // what changed between the first sync and the watch's start
  while (!stopping_) {
    auto stream = store_->Watch("", storage::ListOptions{.resource_version = resource_version});
    if (!stream.ok()) {
      std::this_thread::sleep_for(kPoll);
      resource_version.clear();
      dirty = true;
      continue;
    }
    while (!stopping_) {
      storage::WatchEvent event;
      // Drain what is queued before syncing; sync once the stream is quiet.
      auto next = (*stream)->NextEvent(&event, storage::Clock::now() + (dirty ? std::chrono::milliseconds(0) : kPoll));
      if (next == storage::WatchStream::Next::kClosed) break;
      if (next == storage::WatchStream::Next::kEvent) {
        if (event.type == storage::WatchEventType::kError) break;
        if (!event.object) continue;
        resource_version = event.object->value("metadata", json::object()).value("resourceVersion", resource_version);
        if (event.type != storage::WatchEventType::kBookmark) dirty = true;
        continue;
      }
      if (dirty) {
        // Our own writes come back as events; a pass that changes nothing ends the cycle.
        dirty = !SyncAll().ok();
        if (dirty) std::this_thread::sleep_for(kPoll);
      }
    }
    resource_version.clear();
    dirty = true;
  }
}

}  // namespace kube::auth
