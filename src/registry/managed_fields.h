// metadata.managedFields on the wire (metav1.ManagedFieldsEntry), as kube's managedfields
// package reads and writes it: the entries' checks (operation Apply/Update, apiVersion,
// fieldsType FieldsV1), the manager identifier that keys an entry (manager, operation,
// subresource, and apiVersion for Update entries), the order kube writes entries in (operation,
// then time, manager, apiVersion, subresource) and times as RFC 3339 in UTC with second
// precision. The FieldsV1 trie itself stays JSON here; the field manager (field_manager.h) turns
// it into a field set.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace kube::registry {

inline constexpr std::string_view kOperationApply = "Apply";
inline constexpr std::string_view kOperationUpdate = "Update";

struct ManagedFieldsEntry {
  std::string manager;
  std::string operation;  // "Apply" or "Update"
  std::string api_version;
  std::optional<int64_t> time;  // Unix seconds; absent when the entry has no time
  std::string fields_type;      // "FieldsV1"
  nlohmann::json fields_v1;     // the FieldsV1 trie; null when absent
  std::string subresource;
};

// The entries of a metadata.managedFields value (null or absent: none), with kube's
// DecodeManagedFields checks. Errors are 400s whose message says what is wrong ("operation must
// be `Apply` or `Update`", "apiVersion must not be empty", "missing fieldsType in managed fields
// entry 0", ...); kube ignores such a list on writes and keeps the recorded one.
// With `copy_fields` false, fields_v1 stays null (the caller reads value[i]["fieldsV1"] itself).
Result<std::vector<ManagedFieldsEntry>> DecodeManagedFieldsEntries(const nlohmann::json& value,
                                                                   bool copy_fields = true);

// kube's reset request: an empty list, or a list of one empty entry ({}), clears managedFields.
bool IsResetManagedFields(const nlohmann::json& value);

// The metadata.managedFields value for `entries`, in kube's order; an empty list encodes as null
// (the caller drops the key).
nlohmann::json EncodeManagedFieldsEntries(std::vector<ManagedFieldsEntry> entries);

// Sorts an encoded metadata.managedFields list in kube's order (EncodeManagedFieldsEntries's).
void SortManagedFields(nlohmann::json* entries);

// Whether a FieldsV1 trie holds `serialized_path` (each element as FieldsV1 keys it) as a member.
// The trie must be in the canonical form EncodeManagedFieldsEntries writes.
bool FieldsV1HasMember(const nlohmann::json& fields_v1, const std::vector<std::string>& serialized_path);

// The string that identifies an entry's manager (kube's BuildManagerIdentifier): the entry as Go
// marshals it without time and fields, and without apiVersion for Apply entries, so that an
// applier is one manager whatever version it applies with.
std::string ManagerIdentifier(const ManagedFieldsEntry& entry);
// The entry an identifier describes (manager, operation, apiVersion, subresource), or nullopt
// when it is not one.
std::optional<ManagedFieldsEntry> EntryOfIdentifier(std::string_view identifier);
// How conflict messages name a manager: "\"kubectl\"", "\"ctrl\" using apps/v1",
// "\"ctrl\" with subresource \"status\" using v1" (kube's printManager).
std::string PrintManager(std::string_view identifier);

// RFC 3339 time ("2024-05-01T12:00:00Z", offsets and fractions accepted) as Unix seconds, or
// nullopt when it is not one.
std::optional<int64_t> ParseRfc3339(std::string_view text);
// Unix seconds as kube writes a metav1.Time: "2024-05-01T12:00:00Z".
std::string FormatRfc3339(int64_t seconds);
// The current time in Unix seconds.
int64_t NowUnixSeconds();

}  // namespace kube::registry
