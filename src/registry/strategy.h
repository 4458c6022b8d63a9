// Strategy: what one kind adds to the generic registry::Store beyond its KindRules — kube's
// RESTCreateStrategy / RESTUpdateStrategy / RESTDeleteStrategy hooks for kinds whose behaviour is
// not a table entry: custom resources (schema validation, pruning and defaulting on read), and
// CustomResourceDefinitions themselves (defaulting, validation, the cleanup finalizer).
//
// Every hook has a neutral default, so a kind overrides only what it needs. Hooks are called with
// no lock held and may run concurrently for different objects.
//
// Thread-safety: implementations must be immutable after construction (shared between threads).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "auth/user_info.h"
#include "printers/printers.h"
#include "registry/errors.h"
#include "storage/interface.h"

namespace kube::registry {

// Where a kind keeps what its autoscaling/v1 Scale subresource shows (custom resources name the
// paths in their CRD: ".spec.replicas"). Built-in workloads use spec.replicas, status.replicas
// and spec.selector.
struct ScalePaths {
  std::string spec_replicas;    // ".spec.replicas"
  std::string status_replicas;  // ".status.replicas"
  std::string label_selector;   // ".status.selector" (a string); empty: no selector
};

class Strategy {
 public:
  virtual ~Strategy() = default;

  // Refuses a create of `name` before anything else happens (a custom resource whose CRD is
  // terminating: 403).
  virtual Status AdmitCreate(std::string_view name) const { return Status::OK(); }

  // Refuses a create (`old` null) or an update of the main resource by `user` before the object
  // is prepared and validated (RBAC's escalation checks: 403). `ns` is the request's namespace.
  // Called only for writes made for a user (WriteOptions::user), the computed object of an
  // update or apply included.
  virtual Status AdmitWrite(std::string_view ns, const storage::Object& obj, const storage::Object* old,
                            const auth::UserInfo& user) const {
    return Status::OK();
  }

  // Create: called after system fields and built-in defaults are set, before validation.
  virtual void PrepareForCreate(storage::Object* obj) const {}
  // Create: called once the object's name is final (generateName resolved) and before
  // validation — kube's completions that need the name and uid (a Job's generated selector and
  // pod template labels). Called again with the new name when a generated name collides.
  virtual void PrepareNamedForCreate(storage::Object* obj) const {}
  // Update of the main resource or a subresource: `next` already carries the system fields kept
  // from `current`; called before validation.
  virtual void PrepareForUpdate(std::string_view subresource, storage::Object* next,
                                const storage::Object& current) const {}

  // Field errors for a new object (422 Invalid when not empty).
  virtual FieldErrors Validate(const storage::Object& obj) const { return {}; }
  // Field errors for an update of the main resource or of `subresource` ("status"); `old` is
  // the stored object. What the validation reports without refusing the update (kube's
  // warning.AddWarning during validation: ratcheted x-kubernetes-validations failures) is
  // appended to `warnings` (never null), which the response carries as Warning headers.
  virtual FieldErrors ValidateUpdate(std::string_view subresource, const storage::Object& obj,
                                     const storage::Object& old, std::vector<std::string>* warnings) const {
    return {};
  }

  // Finalizers a DELETE adds before marking the object for deletion (a CRD gets
  // customresourcecleanup.apiextensions.k8s.io, so its custom resources go first).
  virtual std::vector<std::string> FinalizersOnDelete(const storage::Object& obj) const { return {}; }

  // The object read from storage as served (a custom resource is pruned and defaulted against
  // the served version's schema). Returns `obj` itself when nothing changes; never mutates it.
  virtual storage::ObjectPtr Decorate(storage::ObjectPtr obj) const { return obj; }

  // How a request body is decoded into this kind, for kinds not decoded by the built-in
  // catalogue's typed rules (custom resources: pruning of unknown fields against the schema,
  // then defaulting, as kube's unstructured decoder does). Returns the paths of the fields it
  // dropped for fieldValidation, or nullopt when the built-in decoding applies.
  virtual std::optional<std::vector<std::string>> DecodeBody(storage::Object* obj) const { return std::nullopt; }

  // A warning every request to this resource version gets (a deprecated CRD version's
  // deprecationWarning), or empty.
  virtual std::string_view Warning() const { return {}; }

  // The scale subresource's paths, or nullptr for the built-in workload layout.
  virtual const ScalePaths* Scale() const { return nullptr; }

  // Server-side printing for a kind without a built-in printer (a CRD's printer columns; for
  // `subresource` "scale" the Scale's columns), or nullptr for the built-in printers.
  virtual const printers::TablePrinter* Printer(std::string_view subresource = "") const { return nullptr; }
};

}  // namespace kube::registry
