// Each built-in kind's own validation, as kube-apiserver runs it after ObjectMeta: kube's
// ValidateXxx on create, ValidateXxxUpdate on an update of the main resource and
// ValidateXxxStatusUpdate on an update through the status subresource (pkg/apis/<group>/validation).
// The registry Store calls these for built-in kinds only, with the object as it will be stored
// (its storage version's JSON, built-in defaults applied) and appends the errors to ObjectMeta's,
// so one 422 lists every cause, as kube's does.
//
// Errors use kube's field paths ("spec.containers[0].image"), cause types and messages exactly.
//
// Thread-safety: the table is built once (on first use, thread-safe) and immutable; validators are
// pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string_view>

#include "util/field_error.h"

namespace kube::validation {

struct KindValidator {
  // Errors for a new object; null: nothing beyond ObjectMeta.
  FieldErrors (*create)(const nlohmann::json& obj) = nullptr;
  // Errors for an update of the main resource (`old`: the stored object); null: none.
  FieldErrors (*update)(const nlohmann::json& obj, const nlohmann::json& old) = nullptr;
  // Errors for an update through the status subresource; null: none.
  FieldErrors (*update_status)(const nlohmann::json& obj, const nlohmann::json& old) = nullptr;
};

// The validator of `resource` in `group` ("" for the core group), or nullptr for a kind with no
// validation beyond ObjectMeta.
const KindValidator* FindKindValidator(std::string_view group, std::string_view resource);

}  // namespace kube::validation
