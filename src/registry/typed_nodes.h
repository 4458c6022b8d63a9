// How schema nodes take part in structured merges (typed_value.h): the shape of a node, the
// path element of a list entry, and where a walk is relative to the object root. Shared by the
// typed walks of typed_value.cc and typed_validate.cc; not an interface of its own.
//
// Thread-safety: pure functions over immutable schemas.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "catalogue/schema.h"
#include "registry/field_set.h"
#include "util/status.h"

namespace kube::registry::typed {

enum class Shape { kScalar, kAtomic, kStruct, kMap, kSet, kListMap };

// How a node merges. A null schema (free-form, preserve-unknown, unknown) is deduced from the
// value: objects are maps, lists atomic.
Shape ShapeOf(const catalogue::Schema* s, const nlohmann::json& sample);
inline bool Granular(Shape shape) { return shape != Shape::kScalar && shape != Shape::kAtomic; }
inline bool IsList(Shape shape) { return shape == Shape::kSet || shape == Shape::kListMap; }
// Whether a present value has the JSON form the shape needs (null fits anything).
bool Fits(Shape shape, const nlohmann::json& v);
bool EmptyContainer(const nlohmann::json* v);
// The schema of a struct field, map value or list item; null when deduced.
const catalogue::Schema* ChildSchema(const catalogue::Schema* s, Shape shape, const std::string& key);
// A struct's declared field (smd's named fields); map keys and unknown fields are not.
bool Declared(const catalogue::Schema* s, Shape shape, const std::string& key);
// smd's path element of a list entry, or its error.
Result<PathElement> EntryElement(const catalogue::Schema* list, Shape shape, const nlohmann::json& item);

// The entries of a list by path element, in order of first appearance; entries without a valid
// element are left out.
struct Entries {
  std::vector<PathElement> order;
  std::map<PathElement, std::vector<const nlohmann::json*>> items;
};
Entries IndexEntries(const catalogue::Schema* list, Shape shape, const nlohmann::json* value);

// Where a walk is: the object root, the root's metadata (whose managedFields no walk touches), or
// anywhere else.
enum class At : uint8_t { kRoot, kRootMetadata, kInner };
inline At Below(At at, const std::string& key) {
  return at == At::kRoot && key == "metadata" ? At::kRootMetadata : At::kInner;
}
inline bool Skipped(At at, const std::string& key) { return at == At::kRootMetadata && key == "managedFields"; }

}  // namespace kube::registry::typed
