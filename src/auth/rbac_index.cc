#include "auth/rbac_index.h"

#include <charconv>

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "registry/errors.h"

namespace kube::auth {

namespace {

constexpr auto kWatchPoll = std::chrono::milliseconds(200);

std::string Meta(const storage::Object& obj, const char* field) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return "";
  auto it = m->find(field);
  return it != m->end() && it->is_string() ? it->get<std::string>() : "";
}

// "system:serviceaccount:<ns>:<name>" as the service account index key "<ns>:<name>".
std::optional<std::string> ServiceAccountKey(std::string_view user) {
  constexpr std::string_view kPrefix = "system:serviceaccount:";
  if (user.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  return std::string(user.substr(kPrefix.size()));
}

}  // namespace

const char* RbacResource(RbacKind kind) {
  switch (kind) {
    case RbacKind::kRole: return "roles";
    case RbacKind::kClusterRole: return "clusterroles";
    case RbacKind::kRoleBinding: return "rolebindings";
    case RbacKind::kClusterRoleBinding: return "clusterrolebindings";
  }
  return "";
}

RbacIndex::~RbacIndex() { Stop(); }

void RbacIndex::Stop() {
  if (registry_ != nullptr && restore_listener_ != 0) {
    registry_->RemoveRestoreListener(restore_listener_);
    restore_listener_ = 0;
  }
  stopping_ = true;
  for (auto& t : watchers_) {
    if (t.joinable()) t.join();
  }
}

void RbacIndex::Apply(RbacKind kind, const storage::Object& obj, bool deleted) {
  std::unique_lock lock(mu_);
  ApplyLocked(kind, obj, deleted);
}

void RbacIndex::ApplyWatched(RbacKind kind, const storage::Object& obj, bool deleted) {
  uint64_t rv = 0;
  const std::string rv_text = Meta(obj, "resourceVersion");
  std::from_chars(rv_text.data(), rv_text.data() + rv_text.size(), rv);
  std::unique_lock lock(mu_);
  if (rv != 0 && rv <= listed_rv_[static_cast<int>(kind)]) return;
  ApplyLocked(kind, obj, deleted);
}

void RbacIndex::ApplyLocked(RbacKind kind, const storage::Object& obj, bool deleted) {
  const std::string name = Meta(obj, "name");
  const std::string ns = Meta(obj, "namespace");
  switch (kind) {
    case RbacKind::kClusterRole:
      if (deleted) {
        cluster_roles_.erase(name);
      } else {
        cluster_roles_[name] = std::make_shared<const std::vector<PolicyRule>>(RulesFromJson(obj));
      }
      return;
    case RbacKind::kRole:
      if (deleted) {
        roles_.erase(ns + "/" + name);
      } else {
        roles_[ns + "/" + name] = std::make_shared<const std::vector<PolicyRule>>(RulesFromJson(obj));
      }
      return;
    case RbacKind::kClusterRoleBinding:
    case RbacKind::kRoleBinding: {
      SubjectIndex* index = kind == RbacKind::kClusterRoleBinding ? &cluster_bindings_ : &role_bindings_[ns];
      if (auto it = index->bindings.find(name); it != index->bindings.end()) {
        Unindex(index, *it->second);
        index->bindings.erase(it);
      }
      if (!deleted) {
        auto b = std::make_shared<Binding>();
        b->name = name;
        b->namespace_ = kind == RbacKind::kClusterRoleBinding ? "" : ns;
        b->role_ref = RoleRefFromJson(obj);
        b->subjects = SubjectsFromJson(obj);
        Index(index, b);
      } else if (kind == RbacKind::kRoleBinding && index->bindings.empty()) {
        role_bindings_.erase(ns);
      }
      return;
    }
  }
}

void RbacIndex::Index(SubjectIndex* index, const BindingPtr& b) {
  index->bindings[b->name] = b;
  for (const auto& s : b->subjects) {
    if (s.kind == "User") {
      index->users[s.name].insert(b->name);
    } else if (s.kind == "Group") {
      index->groups[s.name].insert(b->name);
    } else if (s.kind == "ServiceAccount") {
      // A service account without a namespace is in the binding's (none for cluster bindings,
      // which then names nobody).
      const std::string& ns = s.namespace_.empty() ? b->namespace_ : s.namespace_;
      if (!ns.empty()) index->service_accounts[ns + ":" + s.name].insert(b->name);
    }
  }
}

void RbacIndex::Unindex(SubjectIndex* index, const Binding& b) {
  auto drop = [&](std::map<std::string, std::set<std::string>, std::less<>>& m, const std::string& key) {
    auto it = m.find(key);
    if (it == m.end()) return;
    it->second.erase(b.name);
    if (it->second.empty()) m.erase(it);
  };
  for (const auto& s : b.subjects) {
    if (s.kind == "User") {
      drop(index->users, s.name);
    } else if (s.kind == "Group") {
      drop(index->groups, s.name);
    } else if (s.kind == "ServiceAccount") {
      const std::string& ns = s.namespace_.empty() ? b.namespace_ : s.namespace_;
      if (!ns.empty()) drop(index->service_accounts, ns + ":" + s.name);
    }
  }
}

std::vector<const RbacIndex::Binding*> RbacIndex::Candidates(const SubjectIndex& index, const UserInfo& user) {
  std::vector<const std::string*> names;
  auto add = [&](const std::map<std::string, std::set<std::string>, std::less<>>& m, std::string_view key) {
    auto it = m.find(key);
    if (it == m.end()) return;
    for (const auto& n : it->second) names.push_back(&n);
  };
  add(index.users, user.name);
  for (const auto& g : user.groups) add(index.groups, g);
  if (auto sa = ServiceAccountKey(user.name)) add(index.service_accounts, *sa);
  std::sort(names.begin(), names.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  names.erase(std::unique(names.begin(), names.end(), [](const std::string* a, const std::string* b) { return *a == *b; }),
              names.end());
  std::vector<const Binding*> out;
  out.reserve(names.size());
  for (const auto* n : names) {
    auto it = index.bindings.find(*n);
    if (it != index.bindings.end()) out.push_back(it->second.get());
  }
  return out;
}

std::string RbacIndex::RuleSource::Describe() const {
  if (binding == nullptr || subject == nullptr) return "";
  const Binding& b = *binding;
  if (b.namespace_.empty()) {
    return "ClusterRoleBinding " + GoQuote(b.name) + " of " + b.role_ref.kind + " " + GoQuote(b.role_ref.name) + " to " +
           DescribeSubject(*subject, "");
  }
  return "RoleBinding " + GoQuote(b.name + "/" + b.namespace_) + " of " + b.role_ref.kind + " " +
         GoQuote(b.role_ref.name) + " to " + DescribeSubject(*subject, b.namespace_);
}

RbacIndex::Rules RbacIndex::RoleRulesLocked(const RoleRef& ref, std::string_view ns, std::string* error) const {
  // The messages of kube's listers (singular resource names).
  if (ref.kind == "ClusterRole") {
    auto it = cluster_roles_.find(ref.name);
    if (it != cluster_roles_.end()) return it->second;
    *error = "clusterrole.rbac.authorization.k8s.io " + GoQuote(ref.name) + " not found";
    return nullptr;
  }
  if (ref.kind == "Role") {
    auto it = roles_.find(std::string(ns) + "/" + ref.name);
    if (it != roles_.end()) return it->second;
    *error = "role.rbac.authorization.k8s.io " + GoQuote(ref.name) + " not found";
    return nullptr;
  }
  *error = "unsupported role reference kind: " + GoQuote(ref.kind);
  return nullptr;
}

void RbacIndex::VisitRulesFor(const UserInfo& user, std::string_view ns, const Visitor& visit) const {
  std::shared_lock lock(mu_);
  auto visit_bindings = [&](const SubjectIndex& index, std::string_view binding_ns) {
    for (const auto& b : Candidates(index, user)) {
      const Subject* subject = nullptr;
      for (const auto& s : b->subjects) {
        if (SubjectAppliesTo(user, s, binding_ns)) {
          subject = &s;
          break;
        }
      }
      if (subject == nullptr) continue;
      std::string error;
      Rules rules = RoleRulesLocked(b->role_ref, binding_ns, &error);
      if (!rules) {
        if (!visit(RuleSource{}, nullptr, &error)) return false;
        continue;
      }
      const RuleSource source{b, subject};
      for (const auto& rule : *rules) {
        if (!visit(source, &rule, nullptr)) return false;
      }
    }
    return true;
  };
  if (!visit_bindings(cluster_bindings_, "")) return;
  if (ns.empty()) return;
  auto it = role_bindings_.find(ns);
  if (it != role_bindings_.end()) visit_bindings(it->second, ns);
}

std::vector<PolicyRule> RbacIndex::RulesFor(const UserInfo& user, std::string_view ns,
                                            std::vector<std::string>* errors) const {
  std::vector<PolicyRule> rules;
  VisitRulesFor(user, ns, [&](const RuleSource&, const PolicyRule* rule, const std::string* error) {
    if (rule != nullptr) rules.push_back(*rule);
    if (error != nullptr && errors != nullptr) errors->push_back(*error);
    return true;
  });
  return rules;
}

Result<std::vector<PolicyRule>> RbacIndex::RoleReferenceRules(const RoleRef& ref, std::string_view ns) const {
  std::shared_lock lock(mu_);
  std::string error;
  Rules rules = RoleRulesLocked(ref, ns, &error);
  if (rules) return *rules;
  // The registry's answer (plural resources), as kube's storage-backed resolver gives it.
  if (ref.kind == "ClusterRole") return registry::NotFoundError(kRbacGroup, "clusterroles", ref.name);
  if (ref.kind == "Role") return registry::NotFoundError(kRbacGroup, "roles", ref.name);
  return Status::Internal(error);
}

size_t RbacIndex::BindingCount() const {
  std::shared_lock lock(mu_);
  size_t n = cluster_bindings_.bindings.size();
  for (const auto& [ns, index] : role_bindings_) n += index.bindings.size();
  return n;
}

Status RbacIndex::Relist(const registry::StorePtr& store, RbacKind kind, std::string* resource_version) {
  auto list = store->List("", storage::ListOptions{});
  if (!list.ok()) return list.status();
  uint64_t rv = 0;
  std::from_chars(list->resource_version.data(), list->resource_version.data() + list->resource_version.size(), rv);
  *resource_version = list->resource_version;
  std::unique_lock lock(mu_);
  // Two relists may race (a watch thread's and a restore's): the newer list wins.
  if (rv < listed_rv_[static_cast<int>(kind)]) return Status::OK();
  switch (kind) {
    case RbacKind::kClusterRole: cluster_roles_.clear(); break;
    case RbacKind::kRole: roles_.clear(); break;
    case RbacKind::kClusterRoleBinding: cluster_bindings_ = SubjectIndex{}; break;
    case RbacKind::kRoleBinding: role_bindings_.clear(); break;
  }
  for (const auto& item : list->items) ApplyLocked(kind, *item, false);
  listed_rv_[static_cast<int>(kind)] = rv;
  return Status::OK();
}

Status RbacIndex::Follow(registry::ApiRegistry* registry) {
  std::vector<std::pair<RbacKind, registry::StorePtr>> stores;
  for (RbacKind kind : {RbacKind::kClusterRole, RbacKind::kRole, RbacKind::kClusterRoleBinding, RbacKind::kRoleBinding}) {
    if (auto store = registry->Find(kRbacGroup, "v1", RbacResource(kind))) stores.emplace_back(kind, std::move(store));
  }
  registry_ = registry;
  // The watches end with 410 on a restore and relist on their own, but authorization must
  // follow the restored bindings as soon as the restore returns.
  restore_listener_ = registry->AddRestoreListener(registry::RestoreListener{
      .after = [this, stores](int64_t) {
        for (const auto& [kind, store] : stores) {
          std::string rv;
          Status s = Relist(store, kind, &rv);
          (void)s;  // the watch thread relists again once its watch ends
        }
      }});
  for (RbacKind kind : {RbacKind::kClusterRole, RbacKind::kRole, RbacKind::kClusterRoleBinding, RbacKind::kRoleBinding}) {
    auto store = registry->Find(kRbacGroup, "v1", RbacResource(kind));
    if (!store) return Status::Internal(std::string("rbac: ") + RbacResource(kind) + " are not served");
    std::string rv;
    KUBE_RETURN_IF_ERROR(Relist(store, kind, &rv));
    watchers_.emplace_back([this, store, kind, rv] { Watch(store, kind, rv); });
  }
  return Status::OK();
}

void RbacIndex::Watch(registry::StorePtr store, RbacKind kind, std::string resource_version) {
  while (!stopping_) {
    auto stream = store->Watch("", storage::ListOptions{.resource_version = resource_version});
    if (stream.ok()) {
      while (!stopping_) {
        storage::WatchEvent event;
        auto next = (*stream)->NextEvent(&event, storage::Clock::now() + kWatchPoll);
        if (next == storage::WatchStream::Next::kClosed) break;
        if (next != storage::WatchStream::Next::kEvent) continue;
        if (event.type == storage::WatchEventType::kError) break;
        if (!event.object) continue;
        if (event.type != storage::WatchEventType::kBookmark) {
          ApplyWatched(kind, *event.object, event.type == storage::WatchEventType::kDeleted);
        }
        resource_version = Meta(*event.object, "resourceVersion");
      }
    }
    if (stopping_) return;
    // The watch ended (compaction, cache re-initialising): start again from a fresh list.
    std::this_thread::sleep_for(kWatchPoll);
    if (!Relist(store, kind, &resource_version).ok()) resource_version.clear();
  }
}

}  // namespace kube::auth
