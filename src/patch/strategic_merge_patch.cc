#include "patch/strategic_merge_patch.h"

#include <set>
#include <string>
#include <vector>

#include "patch/smp_internal.h"

namespace kube::patch {
namespace smp {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool IsDirectiveKey(std::string_view key) {
  return key == kDirective || key == kRetainKeys || StartsWith(key, kSetElementOrderPrefix) ||
         StartsWith(key, kDeleteFromPrimitiveListPrefix);
}

// x-kubernetes-patch-strategy may combine "retainKeys" with one other strategy. Server-side,
// retainKeys only matters through the $retainKeys directive the client sends, so it is dropped.
Status ParseStrategy(std::string_view raw, std::string* strategy) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t comma = raw.find(',', start);
    parts.push_back(raw.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  if (parts.size() == 1) {
    *strategy = parts[0] == "retainKeys" ? "" : std::string(parts[0]);
    return Status::OK();
  }
  if (parts.size() == 2 && (parts[0] == "retainKeys" || parts[1] == "retainKeys")) {
    *strategy = std::string(parts[0] == "retainKeys" ? parts[1] : parts[0]);
    return Status::OK();
  }
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) joined += (i ? " " : "") + std::string(parts[i]);
  return Status::Unknown("unexpected patch strategy: [" + joined + "]");
}

// Upstream's discardNullValuesFromPatch: null members go at every depth, null list items stay.
void DiscardNulls(Json& v) {
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end();) {
      if (it->is_null()) {
        it = v.erase(it);
      } else {
        DiscardNulls(*it);
        ++it;
      }
    }
  } else if (v.is_array()) {
    for (Json& e : v) DiscardNulls(e);
  }
}

// $retainKeys runs before anything else at its level, so later members of the patch can re-add
// what it cleared.
Status ApplyRetainKeys(Json& original, Json& patch) {
  auto it = patch.find(kRetainKeys);
  if (it == patch.end()) return Status::OK();
  Json retain = std::move(*it);
  patch.erase(it);
  if (!retain.is_array()) return Status::BadRequest("invalid patch format of retainKeys");
  std::set<std::string, std::less<>> keep;
  for (const Json& name : retain) {
    if (name.is_object() || name.is_array()) {
      // Upstream puts the names in a Go map and panics on unhashable values.
      return Status::Internal("runtime error: hash of unhashable type " +
                              std::string(internal::GoTypeName(name)));
    }
    if (name.is_string()) keep.insert(name.get<std::string>());
  }
  for (auto m = patch.begin(); m != patch.end(); ++m) {
    if (m->is_null() || StartsWith(m.key(), kDeleteFromPrimitiveListPrefix) ||
        StartsWith(m.key(), kSetElementOrderPrefix)) {
      continue;
    }
    if (keep.find(m.key()) == keep.end()) {
      return Status::BadRequest("invalid patch format of retainKeys");
    }
  }
  for (auto m = original.begin(); m != original.end();) {
    m = keep.find(m.key()) == keep.end() ? original.erase(m) : std::next(m);
  }
  return Status::OK();
}

// A patch value lands where the original has nothing comparable: upstream copies it after
// dropping nulls and $patch-carrying objects.
void TakePatchValue(Json& original, const std::string& key, Json& value, const Schema* schema) {
  DiscardNulls(value);
  if (!RemoveDirectives(value)) {
    original.erase(key);
    return;
  }
  Sanitize(value, schema);
  original[key] = std::move(value);
}

Status MergeMember(Json& original, std::string key, Json& value, const Schema* schema) {
  bool delete_list = false;
  if (StartsWith(key, kDeleteFromPrimitiveListPrefix)) {
    std::string target;
    if (!ExtractKey(key, kDeleteFromPrimitiveListPrefix, &target)) {
      return Status::BadRequest("invalid patch format of primitive list");
    }
    delete_list = true;
    if (!target.empty()) key = std::move(target);
  }
  if (value.is_null()) {
    original.erase(key);
    return Status::OK();
  }
  auto cur = original.find(key);
  if (cur == original.end() || internal::KindOf(*cur) != internal::KindOf(value)) {
    // A deletion list never creates or retypes its target.
    if (!delete_list) TakePatchValue(original, key, value, ChildSchema(schema, key));
    return Status::OK();
  }
  if (cur->is_object()) {
    FieldMeta meta;
    KUBE_RETURN_IF_ERROR(LookupField(schema, key, &meta));
    if (meta.strategy != "replace") return MergeMap(*cur, value, meta.field);
    Sanitize(value, meta.field);
    *cur = std::move(value);
    return Status::OK();
  }
  if (cur->is_array()) {
    FieldMeta meta;
    KUBE_RETURN_IF_ERROR(LookupField(schema, key, &meta));
    // Deletion lists are honoured whatever the field's strategy.
    if (meta.strategy == "merge" || delete_list) return MergeList(*cur, value, meta, delete_list);
    Sanitize(value, meta.field);
    *cur = std::move(value);
    return Status::OK();
  }
  *cur = std::move(value);
  return Status::OK();
}

}  // namespace

const Schema* ChildSchema(const Schema* parent, std::string_view key) {
  if (parent == nullptr) return nullptr;
  switch (parent->type()) {
    case Schema::Type::kObject: return parent->Field(key);
    case Schema::Type::kMap: return parent->Items();
    default: return nullptr;
  }
}

Status LookupField(const Schema* parent, std::string_view key, FieldMeta* meta) {
  *meta = FieldMeta{};
  meta->field = ChildSchema(parent, key);
  if (meta->field == nullptr) return Status::OK();
  if (meta->field->type() == Schema::Type::kArray) meta->items = meta->field->Items();
  meta->merge_key = std::string(meta->field->PatchMergeKey());
  return ParseStrategy(meta->field->PatchStrategy(), &meta->strategy);
}

Status MergeMap(Json& original, Json& patch, const Schema* schema) {
  if (auto d = patch.find(kDirective); d != patch.end()) {
    if (d->is_string() && *d == "replace") {
      patch.erase(d);
      Sanitize(patch, schema);
      original = std::move(patch);
      return Status::OK();
    }
    if (d->is_string() && *d == "delete") {
      original = Json::object();
      return Status::OK();
    }
    return BadPatchType(*d, patch);
  }
  if (!original.is_object()) original = Json::object();
  KUBE_RETURN_IF_ERROR(ApplyRetainKeys(original, patch));
  KUBE_RETURN_IF_ERROR(ApplySetElementOrders(original, patch, schema));
  // Upstream walks a Go map, in random order. We merge the ordinary members first and apply
  // deletion lists last, which is also what always happens when $setElementOrder accompanies
  // the list (as it does in kubectl's patches): an item both added and deleted ends up deleted.
  for (bool deletions : {false, true}) {
    for (auto it = patch.begin(); it != patch.end(); ++it) {
      if (StartsWith(it.key(), kDeleteFromPrimitiveListPrefix) != deletions) continue;
      KUBE_RETURN_IF_ERROR(MergeMember(original, it.key(), *it, schema));
    }
  }
  return Status::OK();
}

void Sanitize(Json& v, const Schema* schema) {
  if (schema != nullptr && schema->type() == Schema::Type::kAny) return;
  if (v.is_object()) {
    bool is_map = schema != nullptr && schema->type() == Schema::Type::kMap;
    for (auto it = v.begin(); it != v.end();) {
      if (!is_map && (it->is_null() || IsDirectiveKey(it.key()))) {
        it = v.erase(it);
        continue;
      }
      Sanitize(*it, ChildSchema(schema, it.key()));
      ++it;
    }
  } else if (v.is_array()) {
    const Schema* items =
        schema != nullptr && schema->type() == Schema::Type::kArray ? schema->Items() : nullptr;
    for (Json& e : v) Sanitize(e, items);
  }
}

bool RemoveDirectives(Json& v) {
  if (v.is_object()) {
    if (v.contains(kDirective)) return false;
    for (auto it = v.begin(); it != v.end();) {
      it = RemoveDirectives(*it) ? std::next(it) : v.erase(it);
    }
  } else if (v.is_array()) {
    Json kept = Json::array();
    for (Json& e : v) {
      if (RemoveDirectives(e)) kept.push_back(std::move(e));
    }
    v = std::move(kept);
  }
  return true;
}

bool ExtractKey(std::string_view key, std::string_view prefix, std::string* rest) {
  size_t slash = key.find('/');
  if (slash == std::string_view::npos || key.substr(0, slash) != prefix) return false;
  *rest = std::string(key.substr(slash + 1));
  return true;
}

Status BadArgType(std::string_view expected, const Json& actual) {
  // reflect.TypeOf(nil) is a nil Type, which %s prints as "%!s(<nil>)".
  std::string actual_type =
      actual.is_null() ? "%!s(<nil>)" : std::string(internal::GoTypeName(actual));
  return Status::Unknown("expected a " + std::string(expected) + ", but received a " +
                         actual_type);
}

Status NoMergeKey(const Json& m, std::string_view key) {
  return Status::Unknown("map: " + internal::GoFormat(m) +
                         " does not contain declared merge key: " + std::string(key));
}

Status BadPatchType(const Json& directive, const Json& m) {
  return Status::Unknown("unknown patch type: " + internal::GoFormatS(directive) +
                         " in map: " + internal::GoFormat(m));
}

}  // namespace smp

namespace {

Result<nlohmann::json> ApplyImpl(const nlohmann::json& doc, std::string_view patch_body,
                                 const catalogue::Schema* schema) {
  std::optional<nlohmann::json> patch = internal::ParseBody(patch_body);
  if (!patch) return Status::BadRequest("invalid JSON patch");
  // Decoding "null" into a Go map leaves it empty: nothing to merge.
  if (patch->is_null()) return doc;
  if (!patch->is_object()) {
    return Status::BadRequest("json: cannot unmarshal " +
                              std::string(internal::JsonTypeWord(*patch)) +
                              " into Go value of type map[string]interface {}");
  }
  if (!doc.is_object() && !doc.is_null()) {
    return Status::Internal("strategic merge patch: the document is not an object");
  }
  nlohmann::json result = doc.is_null() ? nlohmann::json::object() : doc;
  KUBE_RETURN_IF_ERROR(smp::MergeMap(result, *patch, schema));
  return result;
}

}  // namespace

Result<nlohmann::json> ApplyStrategicMergePatch(const nlohmann::json& doc,
                                                std::string_view patch_body,
                                                const catalogue::Schema* schema) {
  try {
    return ApplyImpl(doc, patch_body, schema);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("applying strategic merge patch: ") + e.what());
  } catch (...) {
    return Status::Internal("applying strategic merge patch: unknown exception");
  }
}

}  // namespace kube::patch
