// metadata.managedFields decoded for the field manager (kube's managedfields Managed): each
// manager's field set keyed by its manager identifier, with its time.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "registry/merge_core.h"
#include "util/status.h"

namespace kube::registry {

struct Managed {
  ManagedSets sets;
  std::map<std::string, std::optional<int64_t>> times;
};

// kube's DecodeManagedFields: the entries' checks (managed_fields.h), then their FieldsV1.
Result<Managed> DecodeManaged(const nlohmann::json& managed_fields);
// DecodeManaged, or nothing when the list does not decode.
Managed DecodeManagedOrEmpty(const nlohmann::json& managed_fields);
// The metadata.managedFields value, in kube's order; null when there are no managers.
nlohmann::json EncodeManaged(const Managed& managed);

// The identifier of `manager` ("unknown" when empty) writing with `operation` at `api_version`
// through `subresource` (kube's buildManagerInfo).
std::string ManagerIdentifierOf(std::string_view manager, std::string_view operation, std::string_view api_version,
                                std::string_view subresource);

}  // namespace kube::registry
