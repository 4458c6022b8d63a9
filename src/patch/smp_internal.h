// Internals of the strategic merge patch, split between strategic_merge_patch.cc (objects and
// directives) and smp_lists.cc (lists and ordering). Not part of the public API.
//
// Thread-safety: pure functions over caller-owned values.
#pragma once

#include <string>
#include <string_view>

#include "catalogue/schema.h"
#include "patch/patch_internal.h"

namespace kube::patch::smp {

using internal::Json;
using catalogue::Schema;

inline constexpr std::string_view kDirective = "$patch";
inline constexpr std::string_view kRetainKeys = "$retainKeys";
inline constexpr std::string_view kSetElementOrderPrefix = "$setElementOrder";
inline constexpr std::string_view kDeleteFromPrimitiveListPrefix = "$deleteFromPrimitiveList";

// The patch metadata of one member of an object: its schema node, the node of its items when
// it is a list, and its x-kubernetes-patch-strategy (without "retainKeys") and merge key.
// Every pointer may be null (unknown field or no schema).
struct FieldMeta {
  const Schema* field = nullptr;
  const Schema* items = nullptr;
  std::string strategy;
  std::string merge_key;
};

// Schema of member `key` of an object (kObject: the field; kMap: the value schema).
const Schema* ChildSchema(const Schema* parent, std::string_view key);
Status LookupField(const Schema* parent, std::string_view key, FieldMeta* meta);

// Merges `patch` (an object) into `original` (an object or null). Consumes `patch`.
Status MergeMap(Json& original, Json& patch, const Schema* schema);

// The "merge" list strategy (and $deleteFromPrimitiveList when `delete_list`).
// Consumes `patch`.
Status MergeList(Json& original, Json& patch, const FieldMeta& meta, bool delete_list);

// Processes every $setElementOrder/<list> member of `patch` against `original`, removing the
// directive and the list it orders from `patch`.
Status ApplySetElementOrders(Json& original, Json& patch, const Schema* schema);

// Ordering (smp_order.cc). Upstream's normalizeElementOrder: `patch_items` sorted by
// `patch_order`, `server_only` by `server_order`, then interleaved. `kind` is the element type
// (maps are matched by `key`).
Status NormalizeOrder(Json patch_items, Json server_only, const Json& patch_order,
                      const Json& server_order, const std::string& key, internal::GoKind kind,
                      Json* out);
// Splits `merged` into the items present in `by` and the others (scalars by value, maps by
// their `key`).
Status PartitionPrimitives(const Json& merged, const Json& by, Json* in, Json* out);
Status PartitionMaps(const Json& merged, const Json& by, const std::string& key, Json* in,
                     Json* out);
// An object carrying "$patch": "delete".
bool IsDeleteItem(const Json& item);

// Removes the members named like directives and null members from patch-supplied content, as
// kube's typed decode would; free-form (kAny) subtrees and map values are left alone.
void Sanitize(Json& v, const Schema* schema);
// Upstream's removeDirectives: false when `v` itself carries $patch; drops nested objects that
// carry it.
bool RemoveDirectives(Json& v);

// "prefix/rest" -> rest; false when `key` is not exactly that shape.
bool ExtractKey(std::string_view key, std::string_view prefix, std::string* rest);

// Upstream's error texts.
Status BadArgType(std::string_view expected, const Json& actual);
Status NoMergeKey(const Json& m, std::string_view key);
Status BadPatchType(const Json& directive, const Json& m);

}  // namespace kube::patch::smp
