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

// Whether two objects are equal but for metadata.managedFields (compared without copying them).
bool EqualButManagedFields(const Object& a, const Object& b) {
  auto equal_except = [](const json& x, const json& y, std::string_view skip) {
    if (!x.is_object() || !y.is_object()) return x == y;
    auto i = x.begin(), j = y.begin();
    while (i != x.end() || j != y.end()) {
      if (i != x.end() && i.key() == skip) {
        ++i;
        continue;
      }
      if (j != y.end() && j.key() == skip) {
        ++j;
        continue;
      }
      if (i == x.end() || j == y.end() || i.key() != j.key() || i.value() != j.value()) return false;
      ++i, ++j;
    }
    return true;
  };
  if (!a.is_object() || !b.is_object()) return a == b;
  const json none;
  const json& ma = a.contains("metadata") ? a["metadata"] : none;
  const json& mb = b.contains("metadata") ? b["metadata"] : none;
  return equal_except(a, b, "metadata") && equal_except(ma, mb, "managedFields");
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

// The fields an update changed, collected under kCurrentOperation, join what `id` owned (kube's
// managedFieldsUpdater over strip-meta): its time moves only when it changed something.
void JoinCurrentOperation(Managed* managed, const std::string& id) {
  auto it = managed->sets.find(kCurrentOperation);
  if (it == managed->sets.end()) return;
  ManagedSet changed = std::move(it->second);
  managed->sets.erase(it);
  StripUntrackedFields(&changed.set);
  if (changed.set.Empty()) return;
  if (auto previous = managed->sets.find(id); previous != managed->sets.end()) {
    changed.set = changed.set.Union(previous->second.set);
  }
  managed->sets[id] = std::move(changed);
  managed->times[id] = NowUnixSeconds();
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

// A write whose manager changed only fields its recorded Update entry holds, none of which (nor
// of the removed ones) another entry holds, leaves every set as it was: the recorded entries stay
// but for that entry's time, which is what decoding, updating and encoding them would give
// (recorded entries are in the encoder's canonical form). nullopt otherwise.
std::optional<json> TimeOnlyUpdate(const json& recorded, const Comparison& changes, std::string_view manager,
                                   const FieldManagerConfig& config) {
  if (!recorded.is_array()) return std::nullopt;
  size_t own = recorded.size();
  for (size_t i = 0; i < recorded.size(); ++i) {
    const json& e = recorded[i];
    if (StringAt(e, "manager") == (manager.empty() ? "unknown" : manager) && StringAt(e, "operation") == kOperationUpdate &&
        StringAt(e, "apiVersion") == config.api_version && StringAt(e, "subresource") == config.subresource) {
      own = i;
    }
  }
  if (own == recorded.size()) return std::nullopt;
  FieldSet changed = changes.modified.Union(changes.added);
  FieldSet removed = changes.removed;
  StripUntrackedFields(&changed);
  StripUntrackedFields(&removed);
  static const json kNoFields = json::object();
  auto fields_of = [&](size_t i) -> const json& {
    auto it = recorded[i].find("fieldsV1");
    return it == recorded[i].end() ? kNoFields : *it;
  };
  bool same_sets = true;
  std::vector<std::string> serialized;
  auto check = [&](const FieldPath& path, bool owned_by_writer) {
    serialized.clear();
    for (const auto& e : path) serialized.push_back(e.Serialize());
    for (size_t i = 0; i < recorded.size() && same_sets; ++i) {
      const bool has = FieldsV1HasMember(fields_of(i), serialized);
      if (has != (owned_by_writer && i == own)) same_sets = false;
    }
  };
  changed.Iterate([&](const FieldPath& p) { check(p, true); });
  removed.Iterate([&](const FieldPath& p) { check(p, false); });
  if (!same_sets) return std::nullopt;
  json entries = recorded;
  entries[own]["time"] = FormatRfc3339(NowUnixSeconds());
  SortManagedFields(&entries);
  return entries;
}

// The recorded Apply entry of `manager` through `subresource` at `api_version`, or null.
const json* RecordedApplyEntry(const json& recorded, std::string_view manager, std::string_view subresource,
                               std::string_view api_version) {
  if (!recorded.is_array()) return nullptr;
  for (const auto& e : recorded) {
    if (StringAt(e, "manager") == manager && StringAt(e, "operation") == kOperationApply &&
        StringAt(e, "subresource") == subresource && StringAt(e, "apiVersion") == api_version && e.contains("fieldsV1")) {
      return &e;
    }
  }
  return nullptr;
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
  // Where the managers come from: the recorded ones, or the client's managedFields when they
  // decode (an empty list, or one empty entry, resets them); never the client's on a subresource.
  const json& recorded = MetaMember(live, "managedFields");
  const json& sent = MetaMember(*next, "managedFields");
  std::optional<Managed> managed;
  bool from_recorded = true;
  if (config_.subresource.empty() && IsResetManagedFields(sent)) {
    managed = Managed{};
    from_recorded = false;
  } else if (config_.subresource.empty() && !sent.is_null() && sent != recorded) {
    if (auto decoded = DecodeManaged(sent); decoded.ok() && !decoded->sets.empty()) {
      managed = std::move(*decoded);
      from_recorded = false;
    }
  }
  // kube starts tracking an object's fields at its creation or its first apply: an existing
  // object without managers stays without.
  const bool creating = MetaMember(live, "uid").is_null();
  const bool none = from_recorded ? !recorded.is_array() || recorded.empty() : managed->sets.empty();
  if (none && !creating) return SetManagedFields(next, nullptr);

  auto changes = impl_->core.Changes(live, *next);
  if (!changes.ok()) {
    // kube's UpdateNoErrors: the write goes ahead with the recorded managers.
    return SetManagedFields(next, recorded);
  }
  if (from_recorded) {
    // What no manager can own changed (or nothing did): the recorded entries stay as they are.
    if (!HasTrackedFields(changes->modified) && !HasTrackedFields(changes->added) &&
        !HasTrackedFields(changes->removed)) {
      return SetManagedFields(next, recorded);
    }
    if (std::optional<json> entries = TimeOnlyUpdate(recorded, *changes, manager, config_)) {
      return SetManagedFields(next, std::move(*entries));
    }
    managed = DecodeManagedOrEmpty(recorded);
  }
  const std::string id = ManagerIdentifierOf(manager, kOperationUpdate, config_.api_version, config_.subresource);
  impl_->core.RecordUpdate(*changes, &managed->sets, kCurrentOperation, config_.api_version);
  JoinCurrentOperation(&*managed, id);
  CapUpdateManagers(&*managed);
  SetManagedFields(next, EncodeManaged(*managed));
}

Result<Object> FieldManager::Apply(const Object& live, const Object& config, std::string_view manager,
                                   bool force) const {
  const json& recorded = MetaMember(live, "managedFields");
  if (auto entries = DecodeManagedFieldsEntries(recorded, /*copy_fields=*/false); !entries.ok()) {
    return Status::Unknown("failed to decode managed fields: " + entries.status().message());
  }
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

  ApplyPlan plan = impl_->core.Plan(live, config);
  if (!plan.config_error.ok()) {
    return Status::Unknown("failed to create typed patch object (" + ObjectName(config) +
                           "): " + plan.config_error.message());
  }
  if (!plan.live_error.ok()) {
    return Status::Unknown("failed to create typed live object (" + ObjectName(live) + "): " + plan.live_error.message());
  }
  const bool kubectl = manager == "kubectl";
  // Applying again what is applied already changes neither the object nor its managers: the
  // recorded entries stay as they are.
  if (!(kubectl && HasLastApplied(live)) && plan.merged == live) {
    if (const json* entry = RecordedApplyEntry(recorded, manager, config_.subresource, config_.api_version)) {
      FieldSet applied = plan.config_fields;
      StripUntrackedFields(&applied);
      if (applied.ToFieldsV1() == (*entry)["fieldsV1"]) return live;
    }
  }

  auto managed = DecodeManaged(recorded);
  if (!managed.ok()) return Status::Unknown("failed to decode managed fields: " + managed.status().message());
  // kube's skipNonAppliedManager: before an object's first apply, what it holds is recorded as
  // owned by "before-first-apply", so that the apply conflicts with it as with any manager.
  if (managed->sets.empty()) {
    if (impl_->core.Update(Object::object(), live, &managed->sets, kCurrentOperation, config_.api_version).ok()) {
      JoinCurrentOperation(&*managed,
                           ManagerIdentifierOf(kBeforeFirstApply, kOperationUpdate, config_.api_version, config_.subresource));
    }
  }

  const std::string id = ManagerIdentifierOf(manager, kOperationApply, "", config_.subresource);
  MergeResult result = impl_->core.Apply(live, std::move(plan), &managed->sets, id, config_.api_version, force);
  if (!result.conflicts.empty() && kubectl) {
    // kube's lastAppliedManager: kubectl taking over from its own client-side apply does not
    // conflict on the fields its last-applied configuration recorded (and the object still holds).
    if (const std::optional<FieldSet> allowed = AllowedByLastApplied(live, config_.api_version, impl_->core)) {
      std::vector<MergeConflict> remaining;
      for (auto& c : result.conflicts) {
        if (!allowed->Has(c.path)) remaining.push_back(std::move(c));
      }
      if (remaining.empty()) {
        result = impl_->core.Apply(live, impl_->core.Plan(live, config), &managed->sets, id, config_.api_version,
                                   /*force=*/true);
      } else {
        result.conflicts = std::move(remaining);
      }
    }
  }
  if (!result.conflicts.empty()) {
    std::vector<ApplyConflict> conflicts;
    conflicts.reserve(result.conflicts.size());
    for (const auto& c : result.conflicts) conflicts.push_back({c.manager, FieldPathString(c.path)});
    return ApplyConflictError(std::move(conflicts));
  }
  if (auto it = managed->sets.find(id); it != managed->sets.end()) {
    StripUntrackedFields(&it->second.set);
    if (it->second.set.Empty()) managed->sets.erase(it);
  }
  // An apply's time moves only when it changed the object.
  if (result.object) managed->times[id] = NowUnixSeconds();
  Object object = result.object ? std::move(*result.object) : live;
  // kube's lastAppliedUpdater: kubectl's annotation follows what it applies, when present.
  if (kubectl) UpdateLastApplied(config, &object);
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
  if (!EqualButManagedFields(current, *next)) return;
  (*next)["metadata"]["managedFields"] = before;
}

}  // namespace kube::registry
