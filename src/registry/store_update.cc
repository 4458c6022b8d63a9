// registry::Store: update (PUT and PATCH share it) and the status subresource.
#include <nlohmann/json.hpp>

#include "registry/defaults.h"
#include "registry/errors.h"
#include "registry/namespace_lifecycle.h"
#include "registry/store.h"
#include "storage/object_codec.h"

namespace kube::registry {

using storage::Object;
using storage::ObjectPtr;

namespace {

// Everything but metadata and status: what a "spec change" means for generation.
Object SpecOf(const Object& obj) {
  Object out = obj;
  out.erase("metadata");
  out.erase("status");
  out.erase("apiVersion");
  out.erase("kind");
  return out;
}

const Object& Member(const Object& obj, const char* key) {
  static const Object kNull;
  auto it = obj.find(key);
  return it == obj.end() ? kNull : *it;
}

}  // namespace

Result<Object> Store::PrepareForUpdate(std::string_view subresource, const Object& current_served,
                                       const Object& current_stored, Object next, const WriteOptions& options) const {
  const Object& current = current_served;
  KUBE_RETURN_IF_ERROR(CheckBodyType(&next));
  // Before comparing specs: an apply of an undefaulted body must not look like a spec change.
  ApplyDefaults(info_.group, info_.version, info_.kind, &next);
  const Object& cur_meta = current["metadata"];
  Object& meta = next["metadata"];
  const std::string name = cur_meta.value("name", "");
  const std::string body_name = meta.value("name", "");
  if (!body_name.empty() && body_name != name) {
    return Status::BadRequest("the name of the object (" + body_name + ") does not match the name on the URL (" +
                              name + ")");
  }
  if (info_.namespaced) {
    const std::string body_ns = meta.value("namespace", "");
    if (!body_ns.empty() && body_ns != cur_meta.value("namespace", "")) {
      return Status::BadRequest(
          "the namespace of the provided object does not match the namespace sent on the request");
    }
  }
  // A uid in the body is a precondition, as kube derives one from it.
  const std::string body_uid = meta.value("uid", "");
  if (!body_uid.empty() && body_uid != cur_meta.value("uid", "")) {
    return ConflictError(info_.group, info_.resource, name,
                         "Precondition failed: UID in precondition: " + body_uid +
                             ", UID in object meta: " + cur_meta.value("uid", ""));
  }
  // Optimistic concurrency: a stale resourceVersion loses.
  const std::string rv = meta.value("resourceVersion", "");
  if (rv.empty() && rules_.custom_resource) {
    // Custom resources allow no unconditional update (kube's AllowUnconditionalUpdate false).
    // kube's store names the resource here, not the kind ("widgets.example.com \"x\" is invalid").
    return InvalidError(info_.group, info_.resource, name,
                        {FieldError{FieldError::Type::kInvalid, "metadata.resourceVersion", "0",
                                    "must be specified for an update"}});
  }
  if (!rv.empty() && rv != cur_meta.value("resourceVersion", "")) {
    return ConflictError(info_.group, info_.resource, name, kObjectModified);
  }

  // Before the subresource rules below: the field manager judges what the client sent, its reset
  // fields standing for what those rules take back.
  if (options.field_manager) {
    if (const FieldManager* fields = field_manager(subresource)) fields->Update(current, &next, *options.field_manager);
  }
  return PrepareStoredUpdate(subresource, current_stored, std::move(next), options.warnings);
}

Result<Object> Store::PrepareStoredUpdate(std::string_view subresource, const Object& current, Object served_next,
                                          std::vector<std::string>* warnings) const {
  // From here on both objects are at the storage version: the kind's rules and validation
  // see one form whatever version the client wrote.
  auto converted = ToStorage(std::move(served_next));
  if (!converted.ok()) return converted.status();
  Object next = std::move(*converted);
  const Object& cur_meta = current["metadata"];
  Object& meta = next["metadata"];
  const std::string name = cur_meta.value("name", "");

  if (subresource == "status" || subresource == "finalize") {
    Object updated = current;
    if (subresource == "status") {
      // The status subresource writes only .status.
      if (next.contains("status")) {
        updated["status"] = next["status"];
      } else {
        updated.erase("status");
      }
    } else {
      updated["spec"]["finalizers"] = Member(Member(next, "spec"), "finalizers").is_array()
                                          ? next["spec"]["finalizers"]
                                          : Object::array();
    }
    // ... and the managedFields the write has: what the field manager recorded for it (writers
    // that track nothing start from the current object and keep its entries).
    const Object& recorded = Member(next["metadata"], "managedFields");
    if (recorded.is_null()) {
      updated["metadata"].erase("managedFields");
    } else {
      updated["metadata"]["managedFields"] = recorded;
    }
    next = std::move(updated);
  } else {
    if (HasSubresource("status")) {
      // ... and the main resource keeps the current status.
      if (current.contains("status")) {
        next["status"] = current["status"];
      } else {
        next.erase("status");
      }
    }
    for (const char* f : {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
                          "name", "namespace", "generation"}) {
      if (cur_meta.contains(f)) {
        meta[f] = cur_meta[f];
      } else {
        meta.erase(f);
      }
    }
    meta.erase("selfLink");
    if (cur_meta.contains("deletionTimestamp")) {
      // Finalizers may only go away while an object is being deleted.
      const Object& old_f = Member(cur_meta, "finalizers");
      const Object& new_f = Member(meta, "finalizers");
      if (new_f.is_array()) {
        std::string added;
        for (const auto& f : new_f) {
          if (!old_f.is_array() || std::find(old_f.begin(), old_f.end(), f) == old_f.end()) {
            added += (added.empty() ? "" : ", ") + GoQuote(f.is_string() ? f.get<std::string>() : f.dump());
          }
        }
        if (!added.empty()) {
          return InvalidError(info_.group, info_.kind, name,
                              {FieldError{FieldError::Type::kForbidden, "metadata.finalizers", "",
                                          "no new finalizers can be added if the object is being deleted, found new "
                                          "finalizers []string{" + added + "}"}});
        }
      }
    }
    if (rules_.tracks_generation) {
      bool changed = SpecOf(current) != SpecOf(next);
      if (rules_.generation_counts_status) changed = changed || Member(current, "status") != Member(next, "status");
      if (rules_.generation_counts_annotations) {
        changed = changed || Member(cur_meta, "annotations") != Member(meta, "annotations");
      }
      if (changed) meta["generation"] = cur_meta.value("generation", int64_t{0}) + 1;
    }
    if (namespaces_ != nullptr) namespaces_->PrepareNamespaceObject(info_, &next, &current);
  }
  if (strategy_) strategy_->PrepareForUpdate(subresource, &next, current);
  FieldErrors errors = ValidateObjectMeta(next["metadata"], rules_.name_rule, info_.namespaced);
  if (kind_validator_) {
    auto validate = subresource == "status" ? kind_validator_->update_status
                                            : subresource.empty() ? kind_validator_->update : nullptr;
    if (validate) {
      auto subject = ForKindValidation(next);
      if (!subject.ok()) return subject.status();
      auto old = ForKindValidation(current);
      if (!old.ok()) return old.status();
      FieldErrors kind_errors = validate(*subject, *old);
      errors.insert(errors.end(), kind_errors.begin(), kind_errors.end());
    }
  }
  if (errors.empty() && strategy_) {
    std::vector<std::string> dropped;
    errors = strategy_->ValidateUpdate(subresource, next, current, warnings != nullptr ? warnings : &dropped);
  }
  if (!errors.empty()) return InvalidError(invalid_group_, info_.kind, name, errors);
  return next;
}

Result<ObjectPtr> Store::Update(std::string_view ns, std::string_view name, std::string_view subresource,
                                const Transform& transform, const WriteOptions& options) {
  // A pod's ephemeralcontainers and resize are updates of the pod that its strategy narrows to
  // the fields they own.
  const bool pod_update = info_.group.empty() && info_.resource == "pods" &&
                          (subresource == "ephemeralcontainers" || subresource == "resize");
  if (!subresource.empty() && subresource != "status" && !pod_update &&
      !(subresource == "finalize" && info_.resource == "namespaces")) {
    return MethodNotSupportedError(info_.group, info_.resource + "/" + std::string(subresource), "update");
  }
  auto object_key = ObjectKey(ns, name);
  if (!object_key.ok()) return object_key.status();
  const std::string& key = *object_key;
  if (info_.namespaced && namespaces_ != nullptr) {
    KUBE_RETURN_IF_ERROR(namespaces_->Admit(ns, /*create=*/false, info_.group, info_.resource));
  }
  auto compute = [&](const Object& current) -> Result<Object> {
    if (current.empty()) return NotFoundError(info_.group, info_.resource, name);
    // The object as this version serves it (a custom resource defaulted by its current schema):
    // what the client changed is measured against that, not against the stored bytes.
    const ObjectPtr served = AsServed(std::make_shared<Object>(current));
    // Objects kept from before their resource had a storage version may carry another one.
    auto stored = ToStorage(current);
    if (!stored.ok()) return stored.status();
    const Object& current_stored = Converts() ? *stored : *served;
    auto next = transform(*served);
    if (!next.ok()) return next.status();
    if (strategy_ && options.user && subresource.empty()) {
      KUBE_RETURN_IF_ERROR(strategy_->AdmitWrite(ns, *next, served.get(), *options.user));
    }
    auto prepared = PrepareForUpdate(subresource, *served, current_stored, std::move(*next), options);
    if (prepared.ok()) KeepTimesOfUnchangedObject(current_stored, &*prepared);
    return prepared;
  };
  if (options.dry_run) {
    auto current = storage_->Get(key, storage::GetOptions{});
    if (!current.ok()) return FromStorage(current.status(), info_.group, info_.resource, name);
    auto next = compute(**current);
    if (!next.ok()) return next.status();
    // A dry run answers with the unchanged resourceVersion.
    storage::SetResourceVersion(&*next, std::stoll(storage::ObjectResourceVersion(**current)));
    return WriteResult(std::make_shared<Object>(std::move(*next)));
  }
  auto updated = storage_->GuaranteedUpdate(
      key, /*ignore_not_found=*/false, nullptr,
      [&](const Object& current, const storage::ResponseMeta&, std::optional<uint64_t>*) {
        return compute(current);
      },
      nullptr);
  if (!updated.ok()) return FromStorage(updated.status(), info_.group, info_.resource, name);
  auto result = RemoveIfFinalized(key, *updated);
  if (!result.ok()) return result;
  return WriteResult(*result);
}

Result<ObjectPtr> Store::RemoveIfFinalized(const std::string& key, ObjectPtr obj) {
  // An object being deleted goes away with its last finalizer (and, for pods, a zero grace).
  const Object& meta = (*obj)["metadata"];
  if (!meta.contains("deletionTimestamp")) return obj;
  const Object& finalizers = Member(meta, "finalizers");
  if (finalizers.is_array() && !finalizers.empty()) return obj;
  if (rules_.graceful_delete && meta.value("deletionGracePeriodSeconds", int64_t{0}) > 0) return obj;
  storage::Preconditions pre{.uid = std::nullopt, .resource_version = storage::ObjectResourceVersion(*obj)};
  auto deleted = storage_->Delete(key, &pre, nullptr, nullptr, {});
  if (!deleted.ok()) {
    // Someone changed it meanwhile; they will see the same rule applied on their write.
    if (deleted.status().IsConflict() || deleted.status().IsNotFound()) return obj;
    return FromStorage(deleted.status(), info_.group, info_.resource, NameOf(*obj));
  }
  return AsServed(*deleted);
}

}  // namespace kube::registry
