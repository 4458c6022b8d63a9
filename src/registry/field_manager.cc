// The field manager: kube's stack of managers (version check, last-applied updater and manager,
// skip-non-applied, cap, build-manager-info, managed-fields updater, strip-meta, structured merge)
// as straight-line code over the structured merge (merge_core.h).
#include "registry/field_manager.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>

#include "registry/apply_conflict.h"
#include "registry/last_applied.h"
#include "registry/managed_fields.h"
#include "registry/managed_sets.h"
#include "registry/merge_core.h"

namespace kube::registry {

using nlohmann::json;
using storage::Object;

namespace {

// kube's DefaultMaxUpdateManagers, and the entry older Update entries are merged into.
constexpr size_t kMaxUpdateManagers = 10;
constexpr std::string_view kAncientChanges = "ancient-changes";
constexpr std::string_view kBeforeFirstApply = "before-first-apply";
// What the changed fields of an update are collected under before they join the manager's.
const std::string kCurrentOperation = "current-operation";

const json& MetaMember(const Object& obj, const char* key) {
  static const json kNull;
  auto meta = obj.find("metadata");
  if (meta == obj.end() || !meta->is_object()) return kNull;
  auto it = meta->find(key);
  return it == meta->end() ? kNull : *it;
}

// The object without metadata.managedFields: what the merge compares (kube strips them too).
Object WithoutManagedFields(const Object& obj) {
  Object out = obj;
  if (auto meta = out.find("metadata"); meta != out.end() && meta->is_object()) meta->erase("managedFields");
  return out;
}

void SetManagedFields(Object* obj, json entries) {
  json& meta = (*obj)["metadata"];
  if (!meta.is_object()) meta = json::object();
  if (entries.is_null()) {
    meta.erase("managedFields");
  } else {
    meta["managedFields"] = std::move(entries);
  }
}

// kube's capManagersManager: beyond kMaxUpdateManagers Update entries, the oldest are merged into
// one "ancient-changes" entry per version.
void CapUpdateManagers(Managed* managed) {
  std::vector<std::string> updaters;
  for (const auto& [id, set] : managed->sets) {
    if (!set.applied) updaters.push_back(id);
  }
  if (updaters.size() <= kMaxUpdateManagers) return;
  auto seconds = [&](const std::string& id) { return managed->times[id].value_or(0); };
  std::sort(updaters.begin(), updaters.end(), [&](const std::string& a, const std::string& b) {
    const int64_t sa = seconds(a), sb = seconds(b);
    return sa != sb ? sa < sb : a < b;
  });
  std::map<std::string, std::string> first_of_version;
  size_t remaining = updaters.size();
  for (size_t i = 0; i < updaters.size() && remaining > kMaxUpdateManagers; ++i) {
    const std::string& id = updaters[i];
    const ManagedSet set = managed->sets[id];
    const std::optional<int64_t> time = managed->times[id];
    auto first = first_of_version.find(set.api_version);
    if (first == first_of_version.end()) {
      first_of_version[set.api_version] = id;
      continue;
    }
    const std::string bucket = ManagerIdentifierOf(kAncientChanges, kOperationUpdate, set.api_version, "");
    if (!managed->sets.contains(bucket)) {
      // The first entry of this version becomes the bucket.
      managed->sets[bucket] = std::move(managed->sets[first->second]);
      managed->sets.erase(first->second);
      managed->times.erase(first->second);
    }
    ManagedSet& into = managed->sets[bucket];
    into = ManagedSet{set.set.Union(into.set), set.api_version, set.applied};
    managed->sets.erase(id);
    managed->times.erase(id);
    // The bucket takes the newer time of what it just received.
    managed->times[bucket] = time;
    --remaining;
  }
}

// Runs an update as `manager` (an Update entry; kube's managedFieldsUpdater, strip-meta and
// structured merge): its changed fields join what it owned, its time moves only when it changed
// something. False when the objects cannot be compared.
bool RecordUpdate(const MergeCore& core, const Object& live, const Object& next, Managed* managed,
                  const std::string& id, std::string_view api_version) {
  if (!core.Update(live, next, &managed->sets, kCurrentOperation, api_version).ok()) return false;
  auto it = managed->sets.find(kCurrentOperation);
  if (it == managed->sets.end()) return true;
  ManagedSet changed = std::move(it->second);
  managed->sets.erase(it);
  StripUntrackedFields(&changed.set);
  if (changed.set.Empty()) return true;
  if (auto previous = managed->sets.find(id); previous != managed->sets.end()) {
    changed.set = changed.set.Union(previous->second.set);
  }
  managed->sets[id] = std::move(changed);
  managed->times[id] = NowUnixSeconds();
  return true;
}

std::string StringAt(const json& obj, const char* key) {
  auto it = obj.is_object() ? obj.find(key) : obj.end();
  return it != obj.end() && it->is_string() ? it->get<std::string>() : "";
}

// "ns/name; group/version, Kind=Kind", as kube names an object in the field manager's errors.
std::string ObjectName(const Object& obj) {
  const json& meta = obj.contains("metadata") ? obj["metadata"] : json();
  const std::string api_version = StringAt(obj, "apiVersion");
  return StringAt(meta, "namespace") + "/" + StringAt(meta, "name") + "; " +
         (api_version.find('/') == std::string::npos ? "/" : "") + api_version + ", Kind=" + StringAt(obj, "kind");
}

}  // namespace

struct FieldManager::Impl {
  explicit Impl(const FieldManagerConfig& config) : core(config.schema, config.reset_fields, config.kept_fields) {}
  MergeCore core;
};

FieldManager::FieldManager(FieldManagerConfig config)
    : config_(std::move(config)), impl_(std::make_unique<Impl>(config_)) {}

FieldManager::~FieldManager() = default;

void FieldManager::Update(const Object& live, Object* next, std::string_view manager) const {
  // Where the managers come from: the client's managedFields when they decode (an empty list or
  // one empty entry resets them), else the recorded ones; never the client's on a subresource.
  Managed managed;
  const json& sent = MetaMember(*next, "managedFields");
  if (!config_.subresource.empty()) {
    managed = DecodeManagedOrEmpty(MetaMember(live, "managedFields"));
  } else if (IsResetManagedFields(sent)) {
    managed = Managed{};
  } else {
    auto decoded = DecodeManaged(sent);
    managed = decoded.ok() && !decoded->sets.empty() ? std::move(*decoded)
                                                      : DecodeManagedOrEmpty(MetaMember(live, "managedFields"));
  }
  const json live_entries = MetaMember(live, "managedFields");
  SetManagedFields(next, nullptr);
  // kube starts tracking an object's fields at its creation or its first apply: an existing
  // object without managers stays without.
  const bool creating = MetaMember(live, "uid").is_null();
  if (managed.sets.empty() && !creating) return;

  const std::string id = ManagerIdentifierOf(manager, kOperationUpdate, config_.api_version, config_.subresource);
  if (!RecordUpdate(impl_->core, WithoutManagedFields(live), *next, &managed, id, config_.api_version)) {
    // kube's UpdateNoErrors: the write goes ahead with the recorded managers.
    SetManagedFields(next, live_entries);
    return;
  }
  CapUpdateManagers(&managed);
  SetManagedFields(next, EncodeManaged(managed));
}

Result<Object> FieldManager::Apply(const Object& live, const Object& config, std::string_view manager,
                                   bool force) const {
  auto managed = DecodeManaged(MetaMember(live, "managedFields"));
  if (!managed.ok()) return Status::Unknown("failed to decode managed fields: " + managed.status().message());
  // kube's versionCheckManager: the body must be this endpoint's kind at its version.
  const std::string api_version = StringAt(config, "apiVersion");
  const std::string kind = StringAt(config, "kind");
  if (api_version != config_.api_version || kind != config_.kind) {
    const size_t slash = api_version.find('/');
    const bool parses = slash == std::string::npos || api_version.find('/', slash + 1) == std::string::npos;
    std::string gvk = "/, Kind=";
    if (parses) gvk = (slash == std::string::npos ? "/" + api_version : api_version) + ", Kind=" + kind;
    return Status::BadRequest("invalid object type: " + gvk);
  }
  if (MetaMember(config, "managedFields").is_array()) return Status::BadRequest("metadata.managedFields must be nil");

  Object current = WithoutManagedFields(live);
  // kube's skipNonAppliedManager: before an object's first apply, what it holds is recorded as
  // owned by "before-first-apply", so that the apply conflicts with it as with any manager.
  if (managed->sets.empty()) {
    const std::string id = ManagerIdentifierOf(kBeforeFirstApply, kOperationUpdate, config_.api_version, config_.subresource);
    RecordUpdate(impl_->core, Object::object(), current, &*managed, id, config_.api_version);
  }

  const std::string id = ManagerIdentifierOf(manager, kOperationApply, "", config_.subresource);
  ManagedSets sets = managed->sets;
  MergeResult result = impl_->core.Apply(current, config, &sets, id, config_.api_version, force);
  if (!result.conflicts.empty() && manager == "kubectl") {
    // kube's lastAppliedManager: kubectl taking over from its own client-side apply does not
    // conflict on the fields its last-applied configuration recorded (and the object still holds).
    if (const std::optional<FieldSet> allowed = AllowedByLastApplied(current, config_.api_version, impl_->core)) {
      std::vector<MergeConflict> remaining;
      for (auto& c : result.conflicts) {
        if (!allowed->Has(c.path)) remaining.push_back(std::move(c));
      }
      if (remaining.empty()) {
        sets = managed->sets;
        result = impl_->core.Apply(current, config, &sets, id, config_.api_version, /*force=*/true);
      } else {
        result.conflicts = std::move(remaining);
      }
    }
  }
  if (!result.config_error.ok()) {
    return Status::Unknown("failed to create typed patch object (" + ObjectName(config) +
                           "): " + result.config_error.message());
  }
  if (!result.live_error.ok()) {
    return Status::Unknown("failed to create typed live object (" + ObjectName(current) +
                           "): " + result.live_error.message());
  }
  if (!result.conflicts.empty()) {
    std::vector<ApplyConflict> conflicts;
    conflicts.reserve(result.conflicts.size());
    for (const auto& c : result.conflicts) conflicts.push_back({c.manager, FieldPathString(c.path)});
    return ApplyConflictError(std::move(conflicts));
  }
  managed->sets = std::move(sets);
  if (auto it = managed->sets.find(id); it != managed->sets.end()) {
    StripUntrackedFields(&it->second.set);
    if (it->second.set.Empty()) managed->sets.erase(it);
  }
  Object object = std::move(current);
  if (result.object) {
    // An apply's time moves only when it changed the object.
    object = std::move(*result.object);
    managed->times[id] = NowUnixSeconds();
  }
  // kube's lastAppliedUpdater: kubectl's annotation follows what it applies, when present.
  if (manager == "kubectl") UpdateLastApplied(config, &object);
  SetManagedFields(&object, EncodeManaged(*managed));
  return object;
}

void KeepTimesOfUnchangedObject(const Object& current, Object* next) {
  const json& before = MetaMember(current, "managedFields");
  const json& after = MetaMember(*next, "managedFields");
  if (!before.is_array() || !after.is_array() || before.size() != after.size() || after.empty()) return;
  bool times_changed = false;
  for (size_t i = 0; i < after.size(); ++i) {
    if (!before[i].is_object() || !after[i].is_object()) return;
    if (before[i].value("time", json()) != after[i].value("time", json())) times_changed = true;
  }
  if (!times_changed) return;
  // The same entries but for their times, in the same order...
  for (size_t i = 0; i < after.size(); ++i) {
    json a = after[i], b = before[i];
    a.erase("time");
    b.erase("time");
    if (a != b) return;
  }
  // ... and the same object besides: the write changes nothing, so it keeps the times.
  if (WithoutManagedFields(current) != WithoutManagedFields(*next)) return;
  (*next)["metadata"]["managedFields"] = before;
}

}  // namespace kube::registry
