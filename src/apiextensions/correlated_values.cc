#include "apiextensions/correlated_values.h"

#include <nlohmann/json.hpp>

namespace kube::apiextensions {

namespace {

using json = nlohmann::json;
using schema::Schema;

// Deeper than any request can nest (the decoder's limit is lower): a guard, not a rule.
constexpr int kMaxDepth = 10000;

// reflect.DeepEqual on decoded JSON: an int64 and a float64 differ even when numerically equal.
bool PlainEqual(const json& a, const json& b) {
  if (a.is_number() && b.is_number() && a.is_number_float() != b.is_number_float()) return false;
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (!PlainEqual(a[i], b[i])) return false;
    }
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto o = b.find(it.key());
      if (o == b.end() || !PlainEqual(*it, *o)) return false;
    }
    return true;
  }
  return a == b;
}

bool Equal(const Schema* s, const json& value, const json& old, int depth) {
  if (value.is_null() || old.is_null()) return value.is_null() && old.is_null();
  if (value.is_array() != old.is_array() || value.is_object() != old.is_object()) return false;
  if (depth > kMaxDepth) return PlainEqual(value, old);
  if (value.is_array()) {
    if (value.size() != old.size()) return false;
    // Only list-type map items correlate; any other list is compared as a whole.
    if (s == nullptr || s->ListType() != "map" || s->Items() == nullptr) return PlainEqual(value, old);
    for (const auto& item : value) {
      const json* o = CorrelatedListItem(s, item, &old);
      if (o == nullptr || !Equal(s->Items(), item, *o, depth + 1)) return false;
    }
    return true;
  }
  if (value.is_object()) {
    if (value.size() != old.size()) return false;
    for (auto it = value.begin(); it != value.end(); ++it) {
      // A key the schema does not declare does not correlate: the objects count as different.
      const Schema* child = nullptr;
      if (s != nullptr) child = s->type() == Schema::Type::kMap ? s->Items() : s->Field(it.key());
      auto o = old.find(it.key());
      if (child == nullptr || o == old.end() || !Equal(child, *it, *o, depth + 1)) return false;
    }
    return true;
  }
  return PlainEqual(value, old);
}

}  // namespace

const json* CorrelatedListItem(const Schema* list, const json& item, const json* old) {
  if (old == nullptr || !old->is_array() || list == nullptr || list->ListType() != "map" || !item.is_object()) {
    return nullptr;
  }
  for (const auto& candidate : *old) {
    if (!candidate.is_object()) continue;
    bool same = true;
    for (const auto& key : list->ListMapKeys()) {
      auto a = item.find(key), b = candidate.find(key);
      const bool has_a = a != item.end(), has_b = b != candidate.end();
      if (has_a != has_b || (has_a && *a != *b)) {
        same = false;
        break;
      }
    }
    if (same) return &candidate;
  }
  return nullptr;
}

bool CorrelatedEqual(const Schema* s, const json& value, const json& old) { return Equal(s, value, old, 0); }

}  // namespace kube::apiextensions
