// registry::Store: server-side apply, as kube's patch handler runs it through the store's update
// with create allowed (applyPatcher, rest.Update with forceAllowCreate).
#include <nlohmann/json.hpp>

#include "registry/errors.h"
#include "registry/store.h"

namespace kube::registry {

using storage::Object;
using storage::ObjectPtr;

Result<Object> Store::PrepareApplied(std::string_view ns, std::string_view name, Object merged,
                                     const ApplyOptions& options) const {
  // kube's strict decoding is judged after the merge, so a conflict wins over it.
  KUBE_RETURN_IF_ERROR(options.strict_decoding_error);
  Object& meta = merged["metadata"];
  if (!meta.is_object()) meta = Object::object();
  // The namespace and name checks of kube's patcher, in its order.
  const std::string body_ns = meta.value("namespace", "");
  if (!info_.namespaced) {
    meta.erase("namespace");
  } else if (body_ns.empty()) {
    meta["namespace"] = std::string(ns);
  } else if (body_ns != ns) {
    return Status::BadRequest("the namespace of the provided object does not match the namespace sent on the request");
  }
  const std::string body_name = meta.value("name", "");
  if (body_name != name) {
    return Status::BadRequest("the name of the object (" + body_name + ") does not match the name on the URL (" +
                              std::string(name) + ")");
  }
  // A custom resource's merged object is defaulted as a decoded body is (kube defaults the
  // result of the merge).
  if (strategy_) strategy_->DecodeBody(&merged);
  return merged;
}

Result<Store::ApplyResult> Store::Apply(std::string_view ns, std::string_view name, std::string_view subresource,
                                        const Object& config, const ApplyOptions& options) {
  if (!subresource.empty() && subresource != "status") {
    return MethodNotSupportedError(info_.group, info_.resource + "/" + std::string(subresource), "patch");
  }
  const FieldManager* fields = field_manager(subresource);
  if (fields == nullptr) {
    return Status::Internal("server-side apply needs the schema of " + info_.kind + ", which is not known");
  }
  // The merge records the applier itself: the update and create below must not record it again.
  const WriteOptions write{.dry_run = options.dry_run, .user = options.user, .warnings = options.warnings};
  // Two rounds at most: a create that races with another one applies to the object that won.
  for (int round = 0;; ++round) {
    auto updated = Update(
        ns, name, subresource,
        [&](const Object& current) -> Result<Object> {
          auto merged = fields->Apply(current, config, options.field_manager, options.force);
          if (!merged.ok()) return merged.status();
          return PrepareApplied(ns, name, std::move(*merged), options);
        },
        write);
    if (updated.ok()) return ApplyResult{*updated, false};
    // Only the main resource is created by an apply; /status of a missing object is a 404.
    if (!updated.status().IsNotFound() || !subresource.empty() || round > 0) return updated.status();

    auto merged = fields->Apply(Object::object(), config, options.field_manager, options.force);
    if (!merged.ok()) return merged.status();
    KUBE_RETURN_IF_ERROR(options.strict_decoding_error);
    const Object& meta = (*merged)["metadata"];
    if (const std::string uid = meta.is_object() ? meta.value("uid", "") : ""; !uid.empty()) {
      return ConflictError(info_.group, info_.resource, name,
                           "uid mismatch: the provided object specified uid " + uid +
                               ", and no existing object was found");
    }
    auto prepared = PrepareApplied(ns, name, std::move(*merged), options);
    if (!prepared.ok()) return prepared.status();
    auto created = Create(ns, std::move(*prepared), write);
    if (created.ok()) return ApplyResult{*created, true};
    if (!created.status().IsAlreadyExists()) return created.status();
  }
}

}  // namespace kube::registry
