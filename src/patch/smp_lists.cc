// Lists in a strategic merge patch: the "merge" strategy, deletion lists and $setElementOrder.
// The ordering of the results lives in smp_order.cc.

#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "patch/smp_internal.h"

namespace kube::patch::smp {
namespace {

using internal::GoKind;

const Json& EmptyList() {
  static const Json* empty = new Json(Json::array());
  return *empty;
}

// The element type shared by both lists; lists of lists and mixed types are errors.
Status ElementKind(const Json& a, const Json& b, GoKind* kind) {
  bool have = false;
  for (const Json* list : {&a, &b}) {
    for (const Json& v : *list) {
      GoKind k = internal::KindOf(v);
      if (!have) {
        if (k == GoKind::kNil) {
          return Status::Internal("runtime error: invalid memory address or nil pointer dereference");
        }
        if (k == GoKind::kSlice) return internal::Unprocessable();
        *kind = k;
        have = true;
      } else if (k != *kind) {
        return Status::Unknown("list element types are not identical: [" + internal::GoFormat(a) +
                               " " + internal::GoFormat(b) + "]");
      }
    }
  }
  if (!have) return Status::Unknown("no elements in any of the given slices");
  return Status::OK();
}

// Upstream's deduplicateScalars: for each item in turn, every later duplicate is overwritten by
// the current last item (which is then checked again) and the list shrinks, so the order changes
// in a way the subsequent sort does not always undo. Upstream's scan is quadratic; tracking each
// value's positions gives the same result in O(n log n): the scan for item i always meets the
// lowest position above i that holds the same value.
void DedupScalars(Json& list) {
  auto& items = list.get_ref<Json::array_t&>();
  std::vector<std::string> keys;
  std::unordered_map<std::string, std::set<size_t>> positions;
  for (size_t i = 0; i < items.size(); ++i) {
    keys.push_back(internal::ScalarKey(items[i]).value_or(""));
    positions[keys.back()].insert(i);
  }
  for (size_t i = 0; i + 1 < items.size(); ++i) {
    std::set<size_t>& same = positions[keys[i]];
    for (auto next = same.upper_bound(i); next != same.end(); next = same.upper_bound(i)) {
      size_t j = *next;
      size_t last = items.size() - 1;
      same.erase(j);
      positions[keys[last]].erase(last);
      if (j != last) {
        items[j] = std::move(items[last]);
        keys[j] = std::move(keys[last]);
        positions[keys[j]].insert(j);
      }
      items.pop_back();
      keys.pop_back();
    }
  }
}

Json DeleteFromList(const Json& current, const Json& to_delete) {
  std::unordered_map<std::string, bool> gone;
  for (const Json& v : to_delete) gone[internal::ScalarKey(v).value_or("")] = true;
  Json kept = Json::array();
  for (const Json& v : current) {
    if (!gone.count(internal::ScalarKey(v).value_or(""))) kept.push_back(v);
  }
  return kept;
}

// Upstream deletes items in place (Go's append(s[:k], s[k+1:]...)) and then appends new items
// into the freed tail of the same array. A caller that still holds the original slice (the
// $setElementOrder code) later orders the list against that mutated view, so the final order
// depends on it; AliasView replays those writes.
struct AliasView {
  Json items;             // the caller's view, as long as the original list
  size_t len = 0;         // the callee's length over the same array
  bool detached = false;  // a "$patch": "replace" item moved the callee to a new array
};

// mergeSliceWithSpecialElements: applies $patch items of a list of maps to `original` and leaves
// the plain items in `patch`.
Status ApplySpecialItems(Json& original, Json& patch, const std::string& key, AliasView* alias) {
  Json plain = Json::array();
  bool replace = false;
  for (Json& item : patch) {
    auto d = item.find(kDirective);
    if (d == item.end()) {
      plain.push_back(std::move(item));
    } else if (d->is_string() && *d == "delete") {
      auto k = item.find(key);
      if (k == item.end()) return NoMergeKey(item, key);
      while (true) {  // one match at a time, each found by a fresh scan, as upstream does
        size_t found = original.size();
        for (size_t i = 0; i < original.size() && found == original.size(); ++i) {
          auto ok = original[i].find(key);
          if (ok == original[i].end()) continue;
          std::optional<bool> match = internal::GoCompare(*ok, *k);
          if (!match) return internal::UncomparablePanic(*k);
          if (*match) found = i;
        }
        if (found == original.size()) break;
        original.erase(found);
        if (alias != nullptr && !alias->detached) {
          for (size_t i = found; i + 1 < alias->len; ++i) alias->items[i] = alias->items[i + 1];
          --alias->len;
        }
      }
    } else if (d->is_string() && *d == "replace") {
      replace = true;
    } else if (d->is_string() && *d == "merge") {
      return Status::Unknown("merging lists cannot yet be specified in the patch");
    } else {
      return BadPatchType(*d, item);
    }
  }
  if (replace) {
    original = std::move(plain);
    patch = Json::array();
    if (alias != nullptr) alias->detached = true;
  } else {
    patch = std::move(plain);
  }
  return Status::OK();
}

// Items of `patch` merge into the first item of `merged` with the same key, or are appended (and
// can then absorb later patch items with that key).
Status MergeItems(Json& merged, const Json& patch, const FieldMeta& meta, AliasView* alias) {
  // First position of each scalar key value; items only ever get appended here.
  std::unordered_map<std::string, size_t> first;
  auto remember = [&](size_t i) {
    auto ok = merged[i].find(meta.merge_key);
    if (ok == merged[i].end()) return;
    if (std::optional<std::string> s = internal::ScalarKey(*ok)) first.emplace(std::move(*s), i);
  };
  for (size_t i = 0; i < merged.size(); ++i) remember(i);
  for (const Json& item : patch) {
    auto k = item.find(meta.merge_key);
    if (k == item.end()) return NoMergeKey(item, meta.merge_key);
    Json* target = nullptr;
    if (std::optional<std::string> s = internal::ScalarKey(*k)) {
      auto hit = first.find(*s);
      if (hit != first.end()) target = &merged[hit->second];
    } else {
      // Upstream compares with ==, which panics on two maps (or two slices).
      for (Json& o : merged) {
        auto ok = o.find(meta.merge_key);
        if (ok != o.end() && !internal::GoCompare(*ok, *k).has_value()) {
          return internal::UncomparablePanic(*k);
        }
      }
    }
    if (target == nullptr) {
      merged.push_back(item);
      remember(merged.size() - 1);
      if (alias != nullptr && !alias->detached) {
        if (alias->len < alias->items.size()) alias->items[alias->len] = item;
        ++alias->len;
      }
      continue;
    }
    Json copy = item;  // `patch` is still needed for ordering
    std::string before = internal::Dump(*k);
    KUBE_RETURN_IF_ERROR(MergeMap(*target, copy, meta.items));
    auto now = target->find(meta.merge_key);
    if (now == target->end() || internal::Dump(*now) != before) {
      // A null merge key deleted itself: the first match for that value may now be elsewhere.
      first.clear();
      for (size_t i = 0; i < merged.size(); ++i) remember(i);
    }
  }
  return Status::OK();
}

// Unlike member merges, upstream looks the ordered field up unconditionally, so a field the
// kind does not have is an error here (schemaless and free-form objects excepted).
Status LookupKnownField(const Schema* parent, const std::string& field, FieldMeta* meta) {
  if (parent != nullptr && parent->type() == Schema::Type::kMap) {
    return Status::Unknown("merging an object in json but data type is not struct, instead is: map");
  }
  if (parent != nullptr && parent->type() == Schema::Type::kObject &&
      parent->Field(field) == nullptr) {
    std::string_view name = parent->definition();
    name = name.substr(name.find_last_of('.') + 1);
    return Status::Unknown("unable to find api field in struct " + std::string(name) +
                           " for the json field \"" + field + "\"");
  }
  return LookupField(parent, field, meta);
}

std::string SchemaName(const Schema* items) {
  if (items == nullptr) return "interface";
  switch (items->type()) {
    case Schema::Type::kObject: return "struct";
    case Schema::Type::kMap: return "map";
    case Schema::Type::kArray: return "slice";
    default: return "interface";
  }
}

// validatePatchWithSetOrderList: the patch's items must appear in the order list in the same
// relative order.
Status ValidateOrder(const Json& list, const Json& order, const std::string& key) {
  if (order.empty() || list.empty()) return Status::OK();
  std::vector<const Json*> items;
  for (const Json& item : list) {
    if (!key.empty() && !item.is_object()) return BadArgType("map[string]interface {}", item);
    if (key.empty() || !IsDeleteItem(item)) items.push_back(&item);
  }
  size_t pi = 0, si = 0;
  while (pi < items.size() && si < order.size()) {
    const Json& item = *items[pi];
    if (item.is_object() && item.contains(kDirective)) {
      ++pi;
      continue;
    }
    std::optional<bool> equal;
    if (key.empty()) {
      equal = internal::GoCompare(item, order[si]);
      if (!equal) return internal::UncomparablePanic(item);
    } else {
      if (!order[si].is_object()) return BadArgType("map[string]interface {}", order[si]);
      if (!item.contains(key)) return NoMergeKey(item, key);
      if (!order[si].contains(key)) return NoMergeKey(order[si], key);
      equal = internal::GoCompare(item[key], order[si][key]);
      if (!equal) return internal::UncomparablePanic(item[key]);
    }
    if (*equal) ++pi;
    ++si;
  }
  if (pi < items.size() && si >= order.size()) {
    return Status::Unknown("The order in patch list:\n" + internal::GoFormat(list) +
                           "\n doesn't match $setElementOrder list:\n" +
                           internal::GoFormat(order) + "\n");
  }
  return Status::OK();
}

// MergeList, optionally replaying upstream's writes through the original array into `alias`.
Status MergeListTracked(Json& original, Json& patch, const FieldMeta& meta, bool delete_list,
                        AliasView* alias) {
  if (original.empty() && patch.empty()) return Status::OK();
  GoKind kind;
  KUBE_RETURN_IF_ERROR(ElementKind(original, patch, &kind));
  if (kind != GoKind::kMap) {
    if (delete_list) {
      original = DeleteFromList(original, patch);
      return Status::OK();
    }
    Json merged = original;
    for (const Json& v : patch) merged.push_back(v);
    DedupScalars(merged);
    Json in, out;
    // A merge key on a list of scalars makes upstream partition them as maps, which fails.
    if (meta.merge_key.empty()) {
      KUBE_RETURN_IF_ERROR(PartitionPrimitives(merged, patch, &in, &out));
    } else {
      KUBE_RETURN_IF_ERROR(PartitionMaps(merged, patch, meta.merge_key, &in, &out));
    }
    Json result;
    KUBE_RETURN_IF_ERROR(NormalizeOrder(std::move(in), std::move(out), patch, original,
                                        meta.merge_key, kind, &result));
    original = std::move(result);
    return Status::OK();
  }
  if (meta.merge_key.empty()) {
    return Status::Unknown("cannot merge lists without merge key for " + SchemaName(meta.items));
  }
  KUBE_RETURN_IF_ERROR(ApplySpecialItems(original, patch, meta.merge_key, alias));
  Json merged = original;
  KUBE_RETURN_IF_ERROR(MergeItems(merged, patch, meta, alias));
  Json in, out;
  KUBE_RETURN_IF_ERROR(PartitionMaps(merged, patch, meta.merge_key, &in, &out));
  Json result;
  KUBE_RETURN_IF_ERROR(NormalizeOrder(std::move(in), std::move(out), patch, original,
                                      meta.merge_key, kind, &result));
  Sanitize(result, meta.field);
  original = std::move(result);
  return Status::OK();
}

}  // namespace

Status MergeList(Json& original, Json& patch, const FieldMeta& meta, bool delete_list) {
  return MergeListTracked(original, patch, meta, delete_list, /*alias=*/nullptr);
}

Status ApplySetElementOrders(Json& original, Json& patch, const Schema* schema) {
  std::vector<std::string> directives;
  for (auto it = patch.begin(); it != patch.end(); ++it) {
    if (it.key().compare(0, kSetElementOrderPrefix.size(), kSetElementOrderPrefix) == 0) {
      directives.push_back(it.key());
    }
  }
  for (const std::string& directive : directives) {
    // An earlier directive may have consumed this one as the list it ordered.
    auto d = patch.find(directive);
    if (d == patch.end()) continue;
    Json order = std::move(*d);
    patch.erase(d);
    if (!order.is_array()) return BadArgType("[]interface {}", order);
    std::string field;
    if (!ExtractKey(directive, kSetElementOrderPrefix, &field)) {
      return Status::BadRequest("invalid patch format of setElementOrder list");
    }
    auto o_it = original.find(field);
    auto p_it = patch.find(field);
    bool in_original = o_it != original.end();
    bool in_patch = p_it != patch.end();
    if (in_original && !o_it->is_array()) return BadArgType("[]interface {}", *o_it);
    if (in_patch && !p_it->is_array()) return BadArgType("[]interface {}", *p_it);
    FieldMeta meta;
    KUBE_RETURN_IF_ERROR(LookupKnownField(schema, field, &meta));
    const Json& original_list = in_original ? *o_it : EmptyList();
    const Json& patch_list = in_patch ? *p_it : EmptyList();
    KUBE_RETURN_IF_ERROR(ValidateOrder(patch_list, order, meta.merge_key));

    Json merged;
    Json server_order = original_list;
    if (in_original && !in_patch) {
      merged = original_list;
    } else if (!in_original && in_patch) {
      merged = patch_list;
      RemoveDirectives(merged);
    } else if (in_original && in_patch) {
      merged = original_list;
      Json p = patch_list;
      if (meta.strategy == "merge") {
        AliasView alias{original_list, original_list.size(), false};
        KUBE_RETURN_IF_ERROR(MergeListTracked(merged, p, meta, /*delete_list=*/false, &alias));
        server_order = std::move(alias.items);
      } else {
        merged = std::move(p);
      }
    } else {
      continue;
    }
    Json in, out;
    if (meta.merge_key.empty()) {
      KUBE_RETURN_IF_ERROR(PartitionPrimitives(merged, order, &in, &out));
    } else {
      KUBE_RETURN_IF_ERROR(PartitionMaps(merged, order, meta.merge_key, &in, &out));
    }
    GoKind kind;
    KUBE_RETURN_IF_ERROR(ElementKind(server_order, patch_list, &kind));
    Json result;
    KUBE_RETURN_IF_ERROR(NormalizeOrder(std::move(in), std::move(out), order, server_order,
                                        meta.merge_key, kind, &result));
    Sanitize(result, meta.field);
    original[field] = std::move(result);
    patch.erase(field);
  }
  return Status::OK();
}

}  // namespace kube::patch::smp
