#include "patch/merge_patch.h"

#include <string>

#include "patch/patch_internal.h"

namespace kube::patch {
namespace {

using internal::Json;

// Drops null object members at every depth; null array elements stay.
void PruneNulls(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) {
        it = v.erase(it);
      } else {
        PruneNulls(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) {
      if (!e.is_null()) PruneNulls(e);
    }
  }
}

void MergeObjects(Json& doc, Json& patch);

// The library only prunes when the current value is not an object; an object replaced by a
// non-object patch value takes that value untouched.
void MergeValue(Json& cur, Json& patch) {
  if (!cur.is_object()) {
    PruneNulls(patch);
    cur = std::move(patch);
  } else if (patch.is_object()) {
    MergeObjects(cur, patch);
  } else {
    cur = std::move(patch);
  }
}

void MergeObjects(Json& doc, Json& patch) {
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it->is_null()) {
      doc.erase(it.key());
      continue;
    }
    auto cur = doc.find(it.key());
    if (cur == doc.end() || cur->is_null()) {
      PruneNulls(*it);
      doc[it.key()] = std::move(*it);
    } else {
      MergeValue(*cur, *it);
    }
  }
}

Result<Json> ApplyImpl(const Json& doc, std::string_view patch_body) {
  std::optional<Json> patch = internal::ParseBody(patch_body);
  if (!patch) return Status::BadRequest("invalid JSON patch");
  // kube decodes the body into map[string]any first (fieldValidation Warn/Strict, the default).
  if (!patch->is_object() && !patch->is_null()) {
    return Status::BadRequest("error decoding patch: json: cannot unmarshal " +
                              std::string(internal::JsonTypeWord(*patch)) +
                              " into Go value of type map[string]interface {}");
  }
  if (patch->is_null()) return Status::BadRequest("Invalid JSON Patch");
  if (doc.is_null()) return Status::Unknown("Invalid JSON Document");
  if (!doc.is_object()) {
    PruneNulls(*patch);
    return std::move(*patch);
  }
  Json result = doc;
  MergeObjects(result, *patch);
  return result;
}

}  // namespace

Result<nlohmann::json> ApplyMergePatch(const nlohmann::json& doc, std::string_view patch_body) {
  try {
    return ApplyImpl(doc, patch_body);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("applying merge patch: ") + e.what());
  } catch (...) {
    return Status::Internal("applying merge patch: unknown exception");
  }
}

}  // namespace kube::patch
