// The one schema model of the server: the structure of an API type as every layer consumes it —
// field types, list and map semantics, strategic-merge-patch metadata, and the OpenAPI value
// validations, defaults and Kubernetes extensions that custom resources carry. Built-in kinds
// (catalogue/catalogue.h) and every version of a CustomResourceDefinition (graph.h) are described
// by the same nodes, so pruning (prune.h), defaulting (defaulting.h) and validation
// (validation.h) are written once against this interface.
//
// A Schema is a node in a type graph: an object with named fields, an array with an item type, a
// map with a value type, or a scalar. The graph that built a node owns it (graph.h); pointers stay
// valid as long as that graph lives (for the built-in catalogue: the whole process).
//
// Thread-safety: immutable after construction; safe to share between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace re2 {
class RE2;
}

namespace kube::schema {

class Schema;

// The OpenAPI keywords that constrain a value without adding structure (kube's
// structuralschema.ValueValidation). Absent keywords are empty optionals / empty strings / null
// pointers. JSON values point into the document the graph was built from, which the graph keeps.
struct ValueValidation {
  std::string format;  // as written ("date-time", "int32"); the validator decides what it means
  std::optional<double> maximum;
  bool exclusive_maximum = false;
  std::optional<double> minimum;
  bool exclusive_minimum = false;
  std::optional<double> multiple_of;
  std::optional<int64_t> max_length;
  std::optional<int64_t> min_length;
  std::string pattern;
  // `pattern` compiled (RE2 is Go's regexp syntax); null when there is no pattern or it does not
  // compile (validation then reports the pattern as invalid).
  std::shared_ptr<const re2::RE2> compiled_pattern;
  // Why `pattern` does not compile, worded as Go's regexp package words it
  // ("error parsing regexp: missing argument to repetition operator: `+`"); empty when it does.
  std::string pattern_error;
  std::optional<int64_t> max_items;
  std::optional<int64_t> min_items;
  bool unique_items = false;
  std::optional<int64_t> max_properties;
  std::optional<int64_t> min_properties;
  const nlohmann::json* enum_values = nullptr;  // the "enum" array
  // Junctors. Their nodes are schemas of their own (typically without a type), owned by the same
  // graph.
  std::vector<const Schema*> all_of;
  std::vector<const Schema*> any_of;
  std::vector<const Schema*> one_of;
  const Schema* negated = nullptr;  // "not"
};

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
  // Required field names: kObject nodes, and nodes under allOf/anyOf/oneOf/not (which require
  // fields without describing them).
  virtual const std::vector<std::string>& Required() const = 0;
  // kArray / kMap: the item / value schema. Never null for those types.
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

  // --- What OpenAPI v3 / CRD structural schemas add. The defaults answer "none", which is what
  // built-in nodes answer except where the built-in OpenAPI document says otherwise (formats,
  // enums); other implementations need not override them.

  // The OpenAPI "type" as written ("object", "array", "string", "integer", "number", "boolean"),
  // empty when the node declares none (x-kubernetes-preserve-unknown-fields, int-or-string,
  // nodes under allOf/anyOf/oneOf/not).
  virtual std::string_view OpenAPIType() const { return {}; }
  // "nullable: true": null is a valid value (and is kept rather than dropped).
  virtual bool Nullable() const { return false; }
  // The "default" value, or nullptr.
  virtual const nlohmann::json* Default() const { return nullptr; }
  // Unknown fields below this node are kept: x-kubernetes-preserve-unknown-fields, and every
  // free-form (kAny) node of the built-in kinds. A node with properties may preserve too; its
  // known fields are still pruned by their own schemas.
  virtual bool PreserveUnknownFields() const { return type() == Type::kAny; }
  // x-kubernetes-embedded-resource: the value is a Kubernetes object (apiVersion, kind, metadata).
  virtual bool EmbeddedResource() const { return false; }
  // x-kubernetes-map-type ("granular", "atomic"; empty when unspecified).
  virtual std::string_view MapType() const { return {}; }
  // The value validations, or nullptr when the node has none.
  virtual const ValueValidation* Validation() const { return nullptr; }
  // x-kubernetes-validations (CEL rules) as written, or nullptr. Carried, not evaluated here.
  virtual const nlohmann::json* CelRules() const { return nullptr; }
  // kObject of a built-in kind: whether Go's JSON encoder leaves field `name` out when its value
  // is empty — an `omitempty` slice ([]), map ({}) or non-pointer scalar ("", 0, false) — so that
  // kube never stores or returns that empty value. False for unknown fields and for custom
  // resources (kube keeps their JSON as sent).
  virtual bool OmitsEmpty(std::string_view name) const { return false; }
};

}  // namespace kube::schema
