// registry::FieldManager: kube's field manager (apimachinery managedfields.FieldManager with the
// managers kube stacks in NewDefaultFieldManager) for one kind, at one version, through one
// subresource. It keeps metadata.managedFields on every write and performs server-side apply:
//
//   Update  a create, update or patch by `manager`: the fields the write changed become that
//           manager's (an Update entry at this version and subresource, its time set only when
//           its fields changed) and leave the other managers; at most 10 Update entries are
//           kept, the oldest merged into "ancient-changes" entries per version; managedFields
//           the client sent replace the recorded ones when they decode (an empty list, or a
//           list of one empty entry, resets them; an invalid list is ignored), never on a
//           subresource; an object without managedFields stays without until its first apply.
//   Apply   the applied configuration merged into the live object by the schema's list and map
//           semantics, its fields owned by the applier (an Apply entry), fields it applied
//           before and no longer does removed unless another manager owns them, conflicts
//           (another manager owns a field the apply changes) a 409 unless `force` takes them;
//           kubectl's client-side apply is migrated (fields recorded in the last-applied
//           annotation do not conflict for manager "kubectl", and the annotation follows the
//           applied configuration when the object has one).
//
// Fields kube never tracks (apiVersion, kind, metadata's name, namespace, uid, resourceVersion,
// generation, creationTimestamp, selfLink, managedFields) and the fields the write path resets
// (status through the main resource, everything but status through /status) are owned by no one.
//
// Why here: the field manager belongs to the registry rather than the handlers because every
// write of every kind passes through registry::Store, which knows the kind's schema (built-in or
// the CRD version's) and what its subresources reset; the Store calls Update on each write that
// names a manager and Apply inside its guaranteed update, so no write path can forget it. The
// endpoints only resolve the manager (fieldManager or User-Agent) and parse apply requests.
//
// Objects are JSON as served at `api_version`; versions of one kind share fields here, so entries
// recorded at another version are compared as they are.
//
// Thread-safety: immutable after construction; safe for concurrent use.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "catalogue/schema.h"
#include "storage/interface.h"
#include "util/status.h"

namespace kube::registry {

struct FieldManagerConfig {
  // The kind's schema (the catalogue's definition, or a CRD version's openAPIV3Schema). Required.
  const catalogue::Schema* schema = nullptr;
  std::string api_version;  // "apps/v1"; required
  std::string kind;         // "Deployment"; required
  // "" for the main resource, "status", "scale" (the autoscaling/v1 Scale), "finalize".
  std::string subresource;
  // Top-level fields a write through this path cannot change (reset fields): main resources with
  // a status subresource reset {"status"}. Default: none.
  std::vector<std::string> reset_fields;
  // Reset everything but these top-level fields instead (status subresource: {"status"}).
  // Default: empty (use reset_fields).
  std::vector<std::string> kept_fields;
};

class FieldManager {
 public:
  explicit FieldManager(FieldManagerConfig config);
  ~FieldManager();
  FieldManager(const FieldManager&) = delete;
  FieldManager& operator=(const FieldManager&) = delete;

  const FieldManagerConfig& config() const { return config_; }

  // Records `manager`'s write of `next` over `live` (an empty object for a create) in next's
  // metadata.managedFields. `manager` "" is recorded as "unknown". Never fails: when the objects
  // cannot be compared (not valid for the schema) next keeps live's managedFields, as kube's
  // UpdateNoErrors does.
  void Update(const storage::Object& live, storage::Object* next, std::string_view manager) const;

  // The live object (an empty object when absent) with `config` applied by `manager`, with its
  // managedFields. Errors: 400 for a body of another kind or version ("invalid object type: ...")
  // or with metadata.managedFields; 409 Conflict with FieldManagerConflict causes; 500 for a body
  // the schema cannot type ("failed to create typed patch object (...): .spec.x: ...").
  Result<storage::Object> Apply(const storage::Object& live, const storage::Object& config,
                                std::string_view manager, bool force) const;

 private:
  struct Impl;
  FieldManagerConfig config_;
  std::unique_ptr<Impl> impl_;
};

// kube's IgnoreManagedFieldsTimestampsTransformer: when `next` differs from `current` only in
// managedFields times (same entries otherwise, in the same order), next takes current's times, so
// a write that changes nothing stays a no-op (no new resourceVersion).
void KeepTimesOfUnchangedObject(const storage::Object& current, storage::Object* next);

}  // namespace kube::registry
