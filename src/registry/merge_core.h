// The structured merge of one kind's objects (structured-merge-diff's merge.Updater): managers'
// field sets updated by a write, and server-side apply with pruning and conflicts, with kube's
// reset fields left out of every set and comparison.
//
// It stands in for the structured-merge layer the project plans (src/structured_merge): the field
// manager uses nothing else of it, so that layer can take its place behind this header.
//
// Objects are handled at one version: versions of a kind share their fields in this server
// (conversion relabels apiVersion only), so sets recorded at another version are compared as
// they are.
//
// Thread-safety: immutable after construction; safe for concurrent use.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/schema.h"
#include "registry/field_set.h"
#include "registry/typed_value.h"
#include "storage/interface.h"
#include "util/status.h"

namespace kube::registry {

// One manager's fields (fieldpath.VersionedSet).
struct ManagedSet {
  FieldSet set;
  std::string api_version;
  bool applied = false;
};
// By manager identifier.
using ManagedSets = std::map<std::string, ManagedSet>;

struct MergeConflict {
  std::string manager;  // identifier
  FieldPath path;
};

// An apply's first step: the configuration typed and merged into the live object.
struct ApplyPlan {
  // Typing errors of the applied configuration or the live object, as kube words them after
  // "failed to create typed patch object (...): " / "failed to create typed live object (...): ";
  // the rest is set only when both are OK.
  Status config_error, live_error;
  storage::Object merged;   // the live object with the configuration merged in, before pruning
  FieldSet config_fields;   // the configuration's fields, without the reset ones
};

struct MergeResult {
  std::vector<MergeConflict> conflicts;   // when not forced; the sets are then unchanged
  std::optional<storage::Object> object;  // the merged object; nullopt when it equals the live one
};

// `set` without the fields kube never tracks (kube's stripMetaManager): apiVersion, kind,
// metadata itself and its name, namespace, uid, resourceVersion, generation, creationTimestamp,
// selfLink, clusterName and managedFields.
void StripUntrackedFields(FieldSet* set);
// Whether `set` has a field StripUntrackedFields keeps.
bool HasTrackedFields(const FieldSet& set);

class MergeCore {
 public:
  // `reset_fields`: top-level fields no write through this path can change; `kept_fields`
  // (when not empty): the only top-level fields it can. A custom resource's root schema is
  // completed with apiVersion, kind and metadata (ObjectMeta), as kube completes it.
  MergeCore(const catalogue::Schema* schema, std::vector<std::string> reset_fields,
            std::vector<std::string> kept_fields);
  ~MergeCore();
  MergeCore(const MergeCore&) = delete;
  MergeCore& operator=(const MergeCore&) = delete;

  // What a write from `live` to `next` through this path changes (without the reset fields), or
  // the typing error of either object.
  Result<Comparison> Changes(const storage::Object& live, const storage::Object& next) const;
  // smd's Updater.Update given the changes: `manager` owns what changed, the other managers lose it.
  void RecordUpdate(const Comparison& changes, ManagedSets* sets, const std::string& manager,
                    std::string_view api_version) const;
  // Changes, then RecordUpdate (sets untouched on errors).
  Status Update(const storage::Object& live, const storage::Object& next, ManagedSets* sets,
                const std::string& manager, std::string_view api_version) const;
  // smd's Updater.Apply in two steps. Plan types the configuration and merges it into `live`;
  // Apply then gives `manager` the configuration's fields, removes what it applied before and no
  // longer does (unless another manager owns it), and takes the fields the merge changes from
  // the other managers: conflicts unless `force`. REQUIRES: the plan's errors are OK.
  ApplyPlan Plan(const storage::Object& live, const storage::Object& config) const;
  MergeResult Apply(const storage::Object& live, ApplyPlan plan, ManagedSets* sets, const std::string& manager,
                    std::string_view api_version, bool force) const;
  // The fields an object sets, or its typing error.
  Result<FieldSet> FieldsOf(const storage::Object& obj) const;
  // How `to` differs from `from`.
  Result<Comparison> Compare(const storage::Object& from, const storage::Object& to) const;
  // `set` without what this write path resets.
  FieldSet Filter(FieldSet set) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube::registry
