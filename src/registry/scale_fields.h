// managedFields through the autoscaling/v1 Scale subresource, as kube's scale handler keeps them
// (apimachinery managedfields.ScaleHandler): a write through the Scale is recorded by a field
// manager of the Scale kind on the Scale's view of the object's entries, then mapped back.
//
//   ScaleView    the Scale's entries: those of the object's entries that own its replicas
//                field, each owning just spec.replicas at autoscaling/v1;
//   ParentAfter  the object's entries after the write: an entry the Scale write took the
//                replicas from loses that field (and goes when nothing is left), the Scale's
//                managers own the object's replicas field at the object's version. Entries of
//                another group are dropped, as kube drops entries of versions it cannot map.
//
// Paths are a custom resource's specReplicasPath (".spec.replicas") or the built-in one.
//
// Thread-safety: pure functions; ScaleFieldManager() is built once, then immutable.
#pragma once

#include <nlohmann/json.hpp>

#include <string_view>

#include "registry/field_manager.h"

namespace kube::registry {

nlohmann::json ScaleView(const nlohmann::json& parent_entries, std::string_view replicas_path);
nlohmann::json ParentAfter(const nlohmann::json& parent_entries, const nlohmann::json& scale_entries,
                           std::string_view parent_api_version, std::string_view replicas_path);

// The field manager of writes through a Scale (autoscaling/v1, subresource "scale").
const FieldManager& ScaleFieldManager();

}  // namespace kube::registry
