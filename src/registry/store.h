// registry::Store: the generic REST storage of one built-in resource (kube's
// generic/registry.Store plus the create/update/delete strategies of rest.md §4): system fields,
// names and generateName, namespace rules, resourceVersion preconditions, generation, the status
// subresource, finalizers and graceful deletion, dry runs, managedFields and server-side apply
// (field_manager.h) — over a storage::Interface (the cacher in the server).
//
// Thread-safety: safe for concurrent use. The storage and the NamespaceLifecycle must outlive it.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "auth/user_info.h"
#include "catalogue/catalogue.h"
#include "registry/field_manager.h"
#include "registry/kind_rules.h"
#include "validation/kind_validation.h"
#include "registry/strategy.h"
#include "storage/interface.h"

namespace kube::registry {

class NamespaceLifecycle;

struct WriteOptions {
  bool dry_run = false;
  // The manager the write is recorded under in metadata.managedFields (an Update entry; "" is
  // recorded as "unknown"). Default: none — the write keeps the managedFields the object carries
  // (the server's own writes, and writes whose managedFields are already computed).
  std::optional<std::string> field_manager;
  // Who asks for the write, for the kind's Strategy::AdmitWrite (RBAC's escalation checks).
  // Default: none — the server's own write, which no user check applies to.
  std::shared_ptr<const auth::UserInfo> user;
  // Where the warnings of the write's validation are appended (Strategy::ValidateUpdate), for the
  // response's Warning headers; like kube's per-request recorder it keeps those of every attempt
  // of a conflicting update. Must outlive the call. Default: null — they are dropped.
  std::vector<std::string>* warnings = nullptr;
};

// A server-side apply (PATCH application/apply-patch+yaml).
struct ApplyOptions {
  std::string field_manager;  // required
  bool force = false;
  bool dry_run = false;
  // An error of the request's strict decoding (fieldValidation=Strict), answered only once the
  // merge succeeded, as kube checks it after the merge. Default: OK.
  Status strict_decoding_error;
  // As WriteOptions::user. Default: none.
  std::shared_ptr<const auth::UserInfo> user;
  // As WriteOptions::warnings. Default: null.
  std::vector<std::string>* warnings = nullptr;
};

struct DeleteOptions {
  std::optional<int64_t> grace_period_seconds;
  storage::Preconditions preconditions;
  std::string propagation_policy;  // "", Orphan, Background, Foreground
  bool dry_run = false;
};

// What a Store needs beyond its resource and storage.
struct StoreConfig {
  // The kind's rules. Default: RulesFor(group, resource) of the built-in table.
  std::optional<KindRules> rules;
  // Kind-specific hooks. Default: none (the generic behaviour only).
  std::shared_ptr<const Strategy> strategy;
  // The kind's schema (catalogue for built-in kinds, the CRD version's for custom resources).
  // Default: none (nothing known about the body's fields).
  const catalogue::Schema* schema = nullptr;
  // Keeps the storage (and whatever `schema` points into) alive as long as the Store: custom
  // resources' storage goes away with their CRD while requests may still hold the Store.
  // Default: none (the caller keeps the storage alive).
  std::shared_ptr<const void> owner;
  // The apiVersion a built-in kind is stored at when it is served at several versions
  // (conversion::StorageApiVersion: "autoscaling/v2" for autoscaling/v1 HPAs, "v1" for
  // events.k8s.io Events). Writes are converted to it after the request version's defaults and
  // field tracking, so the kind's preparation and validation see the storage version; everything
  // served is converted back. Default: empty — stored at the Store's own version.
  std::string storage_api_version;
};

class Store {
 public:
  Store(const catalogue::ResourceInfo& info, storage::Interface* storage,
        NamespaceLifecycle* namespaces, StoreConfig config = {});

  const catalogue::ResourceInfo& info() const { return info_; }
  const KindRules& rules() const { return rules_; }
  storage::Interface* storage() const { return storage_; }
  // The kind's schema, or nullptr when none is known.
  const catalogue::Schema* schema() const { return schema_; }
  // Kind-specific hooks, or nullptr.
  const Strategy* strategy() const { return strategy_.get(); }
  // "v1" or "apps/v1".
  std::string ApiVersion() const;
  bool HasSubresource(std::string_view name) const;

  // Storage keys: <prefix>/<ns>/<name>, <prefix>/<name>; collections <prefix>[/<ns>].
  std::string Key(std::string_view ns, std::string_view name) const;
  // Key() for a name from a request, refused (400, kube's KeyFunc messages) when it cannot be
  // one: empty, "." or "..", or containing '/' or '%'.
  Result<std::string> ObjectKey(std::string_view ns, std::string_view name) const;
  std::string CollectionKey(std::string_view ns) const;

  Result<storage::ObjectPtr> Get(std::string_view ns, std::string_view name,
                                 const storage::GetOptions& options) const;
  // `options.predicate.get_attrs` is filled in; the field selector is checked (400).
  Result<storage::ListResult> List(std::string_view ns, storage::ListOptions options) const;
  Result<storage::WatchStreamPtr> Watch(std::string_view ns, storage::ListOptions options) const;

  Result<storage::ObjectPtr> Create(std::string_view ns, storage::Object obj, const WriteOptions& options);

  // What an update writes, computed from the current object (PUT: the body; PATCH: the patched
  // current object).
  using Transform = std::function<Result<storage::Object>(const storage::Object& current)>;
  Result<storage::ObjectPtr> Update(std::string_view ns, std::string_view name,
                                    std::string_view subresource, const Transform& transform,
                                    const WriteOptions& options);

  // Server-side apply of `config` (the request body as JSON) to the object or its status; an
  // absent object is created from it (not through a subresource). Conflicts are 409s
  // (field_manager.h); the result goes through the same preparation and validation as any write.
  struct ApplyResult {
    storage::ObjectPtr object;
    bool created = false;
  };
  Result<ApplyResult> Apply(std::string_view ns, std::string_view name, std::string_view subresource,
                            const storage::Object& config, const ApplyOptions& options);

  // The field manager of writes to the main resource ("") or a subresource ("status",
  // "finalize"), or nullptr when the kind has no schema to track fields by.
  const FieldManager* field_manager(std::string_view subresource) const;

  struct DeleteResult {
    storage::ObjectPtr object;
    bool deleted = false;  // false: marked for deletion (finalizers or grace period pending)
  };
  Result<DeleteResult> Delete(std::string_view ns, std::string_view name, const DeleteOptions& options);
  Result<std::vector<storage::ObjectPtr>> DeleteCollection(std::string_view ns,
                                                           storage::ListOptions list_options,
                                                           const DeleteOptions& options);

  // The object as served at this resource's version: a built-in kind converted from its
  // storage version (conversion.h), a custom resource relabelled and decorated by its strategy.
  storage::ObjectPtr AsServed(storage::ObjectPtr obj) const;
  // The apiVersion objects of this resource are stored at.
  const std::string& StorageApiVersion() const { return storage_api_version_; }

 private:
  friend class NamespaceLifecycle;
  Status CheckBodyType(storage::Object* obj) const;
  Status CheckCustomResourceTypeMeta(const storage::Object& obj) const;
  Status PrepareForCreate(std::string_view ns, storage::Object* obj, const WriteOptions& options) const;
  // `current_served` is the current object at this Store's version (what the client's change is
  // measured against), `current_stored` the same at the storage version.
  Result<storage::Object> PrepareForUpdate(std::string_view subresource, const storage::Object& current_served,
                                           const storage::Object& current_stored, storage::Object next,
                                           const WriteOptions& options) const;
  // The part of an update that works on the storage version: `served_next` (the request's
  // object, checked and tracked) is converted and prepared against `current` (stored form).
  Result<storage::Object> PrepareStoredUpdate(std::string_view subresource, const storage::Object& current,
                                              storage::Object served_next, std::vector<std::string>* warnings) const;
  // `obj` at the storage version (unchanged when this Store's version is the storage version).
  Result<storage::Object> ToStorage(storage::Object obj) const;
  // A write's result (at the storage version) as this Store serves it.
  storage::ObjectPtr WriteResult(storage::ObjectPtr obj) const;
  bool Converts() const { return storage_api_version_ != ApiVersion(); }
  // An apply's merged object, checked and completed as a decoded body would be (the name and
  // namespace against the request's, custom resource defaults).
  Result<storage::Object> PrepareApplied(std::string_view ns, std::string_view name, storage::Object merged,
                                         const ApplyOptions& options) const;
  // Deletes `obj` for good when it is being deleted and nothing holds it any more (no finalizers,
  // no pending grace period); otherwise returns it unchanged.
  Result<storage::ObjectPtr> RemoveIfFinalized(const std::string& key, storage::ObjectPtr obj);
  std::string NameOf(const storage::Object& obj) const;

  catalogue::ResourceInfo info_;
  KindRules rules_;
  storage::AttrsFunc attrs_;
  storage::Interface* storage_;
  NamespaceLifecycle* namespaces_;
  std::shared_ptr<const Strategy> strategy_;
  // The built-in kind's own validation (ValidateXxx), or null (custom resources, kinds without).
  const validation::KindValidator* kind_validator_ = nullptr;
  // True when kind_validator_ is the request group's own (events.k8s.io's strict Event rules,
  // which kube runs by request version) and so wants objects in this Store's version, not the
  // storage version.
  bool validate_in_request_version_ = false;
  // The group kube's Invalid errors name: the storage type's (events.k8s.io Events are core's).
  std::string invalid_group_;
  // The object as kind_validator_ reads it: converted back from the storage version when
  // validate_in_request_version_.
  Result<storage::Object> ForKindValidation(const storage::Object& stored) const;
  const catalogue::Schema* schema_;
  std::shared_ptr<const void> owner_;
  std::string storage_api_version_;
  // Field managers of the main resource, the status and the finalize subresource; null without
  // a schema (or without that subresource).
  std::unique_ptr<FieldManager> main_fields_, status_fields_, finalize_fields_;
};

// RFC 3339 with second precision, UTC ("2024-05-01T12:00:00Z").
std::string NowRfc3339();

}  // namespace kube::registry
