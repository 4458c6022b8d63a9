#include "registry/merge_core.h"

#include <algorithm>

#include "catalogue/catalogue.h"
#include "registry/typed_value.h"

namespace kube::registry {

using nlohmann::json;
using catalogue::Schema;
using storage::Object;

namespace {

constexpr std::string_view kObjectMeta = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

// A custom resource's root as kube types it for merges: its schema plus apiVersion, kind and
// metadata (ObjectMeta), which CRD schemas leave out or describe only as an object.
class ObjectRoot final : public Schema {
 public:
  explicit ObjectRoot(const Schema* inner) : inner_(inner) {
    const Schema* config_map = catalogue::Catalogue::BuiltIn().KindSchema("", "v1", "ConfigMap");
    metadata_ = config_map->Field("metadata");
    string_ = config_map->Field("apiVersion");
  }
  Type type() const override { return Type::kObject; }
  std::string_view definition() const override { return inner_->definition(); }
  const Schema* Field(std::string_view name) const override {
    if (name == "metadata") return metadata_;
    if (name == "apiVersion" || name == "kind") return string_;
    return inner_->type() == Type::kObject ? inner_->Field(name) : nullptr;
  }
  std::vector<std::string> FieldNames() const override {
    std::vector<std::string> names = inner_->type() == Type::kObject ? inner_->FieldNames() : std::vector<std::string>{};
    for (const char* f : {"apiVersion", "kind", "metadata"}) {
      if (std::find(names.begin(), names.end(), f) == names.end()) names.emplace_back(f);
    }
    std::sort(names.begin(), names.end());
    return names;
  }
  const std::vector<std::string>& Required() const override { return inner_->Required(); }
  const Schema* Items() const override { return inner_->Items(); }
  std::string_view ListType() const override { return {}; }
  const std::vector<std::string>& ListMapKeys() const override { return inner_->ListMapKeys(); }
  std::string_view PatchStrategy() const override { return {}; }
  std::string_view PatchMergeKey() const override { return {}; }
  bool PreserveUnknownFields() const override { return inner_->PreserveUnknownFields(); }

 private:
  const Schema* inner_;
  const Schema* metadata_;
  const Schema* string_;
};

}  // namespace

struct MergeCore::Impl {
  std::unique_ptr<ObjectRoot> root_holder;
  const Schema* root = nullptr;
  FieldSet reset;  // top-level reset fields
  std::vector<std::string> kept;
};

void StripUntrackedFields(FieldSet* set) {
  static const FieldSet kStripped = [] {
    FieldSet s;
    s.Insert({PathElement::Field("apiVersion")});
    s.Insert({PathElement::Field("kind")});
    s.Insert({PathElement::Field("metadata")});
    for (const char* f : {"name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName", "generation",
                          "managedFields", "resourceVersion"}) {
      s.Insert({PathElement::Field("metadata"), PathElement::Field(f)});
    }
    return s;
  }();
  set->Subtract(kStripped);
}

bool HasTrackedFields(const FieldSet& set) {
  for (const auto& m : set.members()) {
    if (m.kind != PathElement::Kind::kField || (m.name != "apiVersion" && m.name != "kind" && m.name != "metadata")) {
      return true;
    }
  }
  for (const auto& [e, child] : set.children()) {
    if (e.kind != PathElement::Kind::kField || e.name != "metadata" || !child.children().empty()) return true;
    for (const auto& m : child.members()) {
      static constexpr std::string_view kUntracked[] = {"name", "namespace", "creationTimestamp", "selfLink", "uid",
                                                         "clusterName", "generation", "managedFields", "resourceVersion"};
      if (m.kind != PathElement::Kind::kField ||
          std::find(std::begin(kUntracked), std::end(kUntracked), m.name) == std::end(kUntracked)) {
        return true;
      }
    }
  }
  return false;
}

MergeCore::MergeCore(const Schema* schema, std::vector<std::string> reset_fields, std::vector<std::string> kept_fields)
    : impl_(std::make_unique<Impl>()) {
  const Schema* metadata = schema != nullptr && schema->type() == Schema::Type::kObject ? schema->Field("metadata") : nullptr;
  if (schema != nullptr && (metadata == nullptr || metadata->definition() != kObjectMeta)) {
    impl_->root_holder = std::make_unique<ObjectRoot>(schema);
    impl_->root = impl_->root_holder.get();
  } else {
    impl_->root = schema;
  }
  for (const auto& f : reset_fields) impl_->reset.Insert({PathElement::Field(f)});
  impl_->kept = std::move(kept_fields);
}

MergeCore::~MergeCore() = default;

FieldSet MergeCore::Filter(FieldSet set) const {
  if (!impl_->reset.Empty()) set = set.RecursiveDifference(impl_->reset);
  if (impl_->kept.empty()) return set;
  // Only the kept top-level fields stay: everything else is what the write path resets.
  FieldSet others;
  for (const auto& m : set.members()) {
    if (m.kind != PathElement::Kind::kField || std::find(impl_->kept.begin(), impl_->kept.end(), m.name) == impl_->kept.end()) {
      others.Insert({m});
    }
  }
  for (const auto& [e, child] : set.children()) {
    if (e.kind != PathElement::Kind::kField || std::find(impl_->kept.begin(), impl_->kept.end(), e.name) == impl_->kept.end()) {
      others.Insert({e});
    }
  }
  return set.RecursiveDifference(others);
}

namespace {

// smd's update: the others lose what changed (removed fields, and modified or added ones they
// owned: conflicts unless forced). Returns the conflicts found when not forced.
std::vector<MergeConflict> TakeChanges(const Comparison& changes, ManagedSets* sets, const std::string& manager,
                                       bool force) {
  bool others = false;
  for (const auto& [id, managed] : *sets) others = others || id != manager;
  if (!others) return {};
  const FieldSet changed = changes.modified.Union(changes.added);
  std::vector<MergeConflict> conflicts;
  if (!force) {
    for (const auto& [id, managed] : *sets) {
      if (id == manager) continue;
      managed.set.Intersection(changed).Iterate([&](const FieldPath& p) { conflicts.push_back({id, p}); });
    }
    if (!conflicts.empty()) return conflicts;
  }
  for (auto it = sets->begin(); it != sets->end();) {
    if (it->first != manager) {
      it->second.set.Subtract(changed);
      it->second.set.Subtract(changes.removed);
      if (it->second.set.Empty()) {
        it = sets->erase(it);
        continue;
      }
    }
    ++it;
  }
  return {};
}

}  // namespace

Result<Comparison> MergeCore::Changes(const Object& live, const Object& next) const {
  KUBE_RETURN_IF_ERROR(ValidateTyped(impl_->root, live, /*allow_duplicates=*/true));
  KUBE_RETURN_IF_ERROR(ValidateTyped(impl_->root, next, /*allow_duplicates=*/true));
  Comparison changes = CompareValues(impl_->root, live, next);
  changes.modified = Filter(std::move(changes.modified));
  changes.added = Filter(std::move(changes.added));
  changes.removed = Filter(std::move(changes.removed));
  return changes;
}

void MergeCore::RecordUpdate(const Comparison& changes, ManagedSets* sets, const std::string& manager,
                             std::string_view api_version) const {
  TakeChanges(changes, sets, manager, /*force=*/true);
  FieldSet own;
  if (auto it = sets->find(manager); it != sets->end()) own = std::move(it->second.set);
  own = Filter(std::move(own).Difference(changes.removed).Union(changes.modified).Union(changes.added));
  if (own.Empty()) {
    sets->erase(manager);
  } else {
    (*sets)[manager] = ManagedSet{std::move(own), std::string(api_version), false};
  }
}

Status MergeCore::Update(const Object& live, const Object& next, ManagedSets* sets, const std::string& manager,
                         std::string_view api_version) const {
  auto changes = Changes(live, next);
  if (!changes.ok()) return changes.status();
  RecordUpdate(*changes, sets, manager, api_version);
  return Status::OK();
}

ApplyPlan MergeCore::Plan(const Object& live, const Object& config) const {
  ApplyPlan plan;
  plan.config_error = ValidateTyped(impl_->root, config, /*allow_duplicates=*/false);
  if (!plan.config_error.ok()) return plan;
  plan.live_error = ValidateTyped(impl_->root, live, /*allow_duplicates=*/true);
  if (!plan.live_error.ok()) return plan;
  plan.merged = MergeValues(impl_->root, live, config);
  plan.config_fields = Filter(FieldsOfValue(impl_->root, config));
  return plan;
}

MergeResult MergeCore::Apply(const Object& live, ApplyPlan plan, ManagedSets* sets, const std::string& manager,
                             std::string_view api_version, bool force) const {
  MergeResult result;
  std::optional<ManagedSet> last;
  if (auto it = sets->find(manager); it != sets->end()) last = std::move(it->second);
  (*sets)[manager] = ManagedSet{std::move(plan.config_fields), std::string(api_version), true};
  if (last && !last->set.Empty()) {
    // What the manager applied before and no one holds now goes; what others own stays.
    std::vector<const FieldSet*> owners;
    for (const auto& [id, managed] : *sets) owners.push_back(&managed.set);
    RemoveUnowned(impl_->root, &plan.merged, last->set, owners);
  }
  Comparison changes = CompareValues(impl_->root, live, plan.merged);
  changes.modified = Filter(std::move(changes.modified));
  changes.added = Filter(std::move(changes.added));
  changes.removed = Filter(std::move(changes.removed));
  result.conflicts = TakeChanges(changes, sets, manager, force);
  if (!result.conflicts.empty()) {
    // Nothing changes on a conflict.
    if (last) {
      (*sets)[manager] = std::move(*last);
    } else {
      sets->erase(manager);
    }
    return result;
  }
  if (plan.merged != live) result.object = std::move(plan.merged);
  return result;
}

Result<FieldSet> MergeCore::FieldsOf(const Object& obj) const {
  KUBE_RETURN_IF_ERROR(ValidateTyped(impl_->root, obj, /*allow_duplicates=*/false));
  return FieldsOfValue(impl_->root, obj);
}

Result<Comparison> MergeCore::Compare(const Object& from, const Object& to) const {
  KUBE_RETURN_IF_ERROR(ValidateTyped(impl_->root, from, /*allow_duplicates=*/true));
  KUBE_RETURN_IF_ERROR(ValidateTyped(impl_->root, to, /*allow_duplicates=*/true));
  return CompareValues(impl_->root, from, to);
}

}  // namespace kube::registry
