// kubectl's client-side apply, as kube's field manager takes it over (lastappliedmanager.go,
// lastappliedupdater.go): the kubectl.kubernetes.io/last-applied-configuration annotation tells
// which fields kubectl applied client-side, so that `kubectl apply --server-side` (manager
// "kubectl") does not conflict on them, and the annotation keeps following what kubectl applies.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string_view>

#include "registry/merge_core.h"
#include "storage/interface.h"

namespace kube::registry {

inline constexpr std::string_view kLastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration";

// The fields of `live` that its last-applied configuration set to the values it still holds, or
// nullopt when there is no usable annotation (absent, empty, not JSON, of another apiVersion, or
// not valid for the schema).
std::optional<FieldSet> AllowedByLastApplied(const storage::Object& live, std::string_view api_version,
                                             const MergeCore& core);

// Whether `obj` has a non-empty last-applied annotation.
bool HasLastApplied(const storage::Object& obj);

// When `object` has a non-empty last-applied annotation: sets it to `config` (without the
// annotation itself) as kubectl writes it — compact JSON with sorted keys and a newline — unless
// that would take the annotations over kube's 256 KiB limit, in which case the annotation goes.
void UpdateLastApplied(const storage::Object& config, storage::Object* object);

}  // namespace kube::registry
