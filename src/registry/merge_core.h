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

struct MergeResult {
  // Typing errors of the applied configuration or the live object, as kube words them after
  // "failed to create typed patch object (...): " / "failed to create typed live object (...): ".
  Status config_error, live_error;
  std::vector<MergeConflict> conflicts;   // when not forced; the sets are then unchanged
  std::optional<storage::Object> object;  // the merged object; nullopt when it equals the live one
};

// `set` without the fields kube never tracks (kube's stripMetaManager): apiVersion, kind,
// metadata itself and its name, namespace, uid, resourceVersion, generation, creationTimestamp,
// selfLink, clusterName and managedFields.
void StripUntrackedFields(FieldSet* set);

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

  // smd's Updater.Update: `manager` owns what changed from `live` to `next`, the other managers
  // lose it. Errors when either object is not valid for the schema (sets untouched).
  Status Update(const storage::Object& live, const storage::Object& next, ManagedSets* sets,
                const std::string& manager, std::string_view api_version) const;
  // smd's Updater.Apply: `config` merged into `live`; `manager` owns the configuration's fields;
  // what it applied before and no longer does, and nobody else owns, is removed; other managers'
  // fields the merge changes are conflicts unless `force` takes them.
  MergeResult Apply(const storage::Object& live, const storage::Object& config, ManagedSets* sets,
                    const std::string& manager, std::string_view api_version, bool force) const;
  // The fields an object sets, or its typing error.
  Result<FieldSet> FieldsOf(const storage::Object& obj) const;
  // How `to` differs from `from`.
  struct Differences {
    FieldSet modified, added, removed;
  };
  Result<Differences> Compare(const storage::Object& from, const storage::Object& to) const;

 private:
  FieldSet Filter(FieldSet set) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube::registry
