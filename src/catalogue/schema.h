// The structural schema of built-in kinds, as the rest of the server consumes it: field types,
// list and map semantics, and the strategic-merge-patch metadata, derived from the Kubernetes
// OpenAPI document by tools/gen_catalogue.py (see catalogue.h for where the data lives).
//
// A Schema is a node in a type graph: an object with named fields, an array with an item type, a
// map with a value type, or a scalar. Nodes are owned by the catalogue and live for the whole
// process; pointers to them never dangle.
//
// Thread-safety: immutable after the catalogue is loaded; safe to share between threads.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kube::catalogue {

class Schema {
 public:
  enum class Type : unsigned char {
    kObject,       // named fields (Field)
    kMap,          // additionalProperties: any key, values of one type (Items)
    kArray,        // items of one type (Items)
    kString,
    kInteger,
    kNumber,
    kBoolean,
    kIntOrString,  // x-kubernetes-int-or-string (IntOrString)
    kQuantity,     // resource.Quantity (a string on the wire)
    kTime,         // metav1.Time / MicroTime (RFC 3339 strings)
    kAny,          // free-form (RawExtension, JSON, FieldsV1 ...): no structure known
  };

  virtual ~Schema() = default;
  virtual Type type() const = 0;
  // The definition this node comes from ("io.k8s.api.core.v1.PodSpec"), empty for inline nodes.
  virtual std::string_view definition() const = 0;

  // kObject: the schema of field `name`, or nullptr for an unknown field.
  virtual const Schema* Field(std::string_view name) const = 0;
  // kObject: every field name, sorted.
  virtual std::vector<std::string> FieldNames() const = 0;
  // kObject: required field names.
  virtual const std::vector<std::string>& Required() const = 0;
  // kArray / kMap: the item / value schema.
  virtual const Schema* Items() const = 0;

  // kArray: x-kubernetes-list-type ("atomic", "set", "map"; empty when unspecified).
  virtual std::string_view ListType() const = 0;
  // kArray with list type "map": x-kubernetes-list-map-keys.
  virtual const std::vector<std::string>& ListMapKeys() const = 0;
  // x-kubernetes-patch-strategy of this field ("merge", "retainKeys", "merge,retainKeys",
  // "replace"; empty when unspecified). Set on the field's own node.
  virtual std::string_view PatchStrategy() const = 0;
  // x-kubernetes-patch-merge-key of this (array) field; empty when unspecified.
  virtual std::string_view PatchMergeKey() const = 0;
};

}  // namespace kube::catalogue
