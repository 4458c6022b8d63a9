// Field paths and sets of paths, as structured-merge-diff defines them for managedFields:
//
//   PathElement  one step: a field name (f:), the key fields of an associative-list entry (k:),
//                the value of a set entry (v:), or a list index (i:, read from old data only);
//   FieldPath    a sequence of steps (".spec.ports[containerPort=80,protocol=\"TCP\"].name" as kube
//                prints it);
//   FieldSet     a trie of paths: at each node the elements that end a path there (members) and
//                the elements paths continue under (children). Union, difference, intersection,
//                and the FieldsV1 JSON form ("f:spec": {"f:replicas": {}}, "." marking a node that
//                is a member and has children).
//
// Thread-safety: values; const methods may be called concurrently.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string_view>
#include <string>
#include <utility>
#include <vector>

#include "util/status.h"

namespace kube::registry {

struct PathElement {
  enum class Kind : uint8_t { kField, kKey, kValue, kIndex };  // in kube's sort order
  Kind kind = Kind::kField;
  std::string name;     // kField
  nlohmann::json value;  // kKey: an object of the key fields; kValue: the entry's value
  int64_t index = 0;    // kIndex

  static PathElement Field(std::string name) { return {Kind::kField, std::move(name), nullptr, 0}; }
  static PathElement Key(nlohmann::json fields) { return {Kind::kKey, {}, std::move(fields), 0}; }
  static PathElement Value(nlohmann::json value) { return {Kind::kValue, {}, std::move(value), 0}; }
  static PathElement Index(int64_t i) { return {Kind::kIndex, {}, nullptr, i}; }

  // -1, 0, 1: by kind, then name, key fields, value or index.
  int Compare(const PathElement& other) const;
  bool operator<(const PathElement& other) const { return Compare(other) < 0; }
  bool operator==(const PathElement& other) const { return Compare(other) == 0; }

  // As kube prints it in paths: ".name", "[k1=\"a\",k2=80]", "[=\"v\"]", "[3]".
  std::string String() const;
  // As FieldsV1 keys it: "f:name", "k:{\"k1\":\"a\",\"k2\":80}", "v:\"v\"", "i:3".
  std::string Serialize() const;
  // A FieldsV1 key; an unknown kind letter ("x:...") is nullopt without error (kube skips it).
  static Result<std::optional<PathElement>> Deserialize(std::string_view key);
};

using FieldPath = std::vector<PathElement>;

// ".spec.containers[name=\"app\"].image"
std::string FieldPathString(const FieldPath& path);

class FieldSet {
 public:
  bool Empty() const;
  // Adds `path` (its parents are not added). The empty path is ignored, as kube tracks no
  // ownership of the whole object.
  void Insert(const FieldPath& path);
  bool Has(const FieldPath& path) const;

  FieldSet Union(const FieldSet& other) const&;
  FieldSet Intersection(const FieldSet& other) const;
  // The paths of this set that `other` does not have.
  FieldSet Difference(const FieldSet& other) const&;
  // Also without every path below a path of `other`.
  FieldSet RecursiveDifference(const FieldSet& other) const;
  // The same on a set about to go: nothing is copied when `other` is empty.
  FieldSet Union(const FieldSet& other) &&;
  FieldSet Difference(const FieldSet& other) &&;
  // Difference in place.
  void Subtract(const FieldSet& other);

  // Every path, members of a node before the paths below its children, each in element order.
  template <class F>
  void Iterate(F&& f) const {
    FieldPath prefix;
    IteratePrefix(&prefix, f);
  }

  // Whether `e` ends a path at this node / the set of paths continuing below `e` (null if none).
  bool HasMember(const PathElement& e) const;
  const FieldSet* Child(const PathElement& e) const;
  // The set below `e`, created empty when absent.
  FieldSet* MutableChild(const PathElement& e);
  // Building a set node by node (the typed walks): members and children appended in any order,
  // then Sort() restores the order and merges repeats. Children must not be empty.
  void AddMember(PathElement e) { members_.push_back(std::move(e)); }
  void AddChild(PathElement e, FieldSet child) { children_.emplace_back(std::move(e), std::move(child)); }
  void Sort();

  const std::vector<PathElement>& members() const { return members_; }
  const std::vector<std::pair<PathElement, FieldSet>>& children() const { return children_; }

  // The FieldsV1 form, and back (kube's errors for malformed keys or values).
  nlohmann::json ToFieldsV1() const;
  static Result<FieldSet> FromFieldsV1(const nlohmann::json& fields);

  bool operator==(const FieldSet& other) const;

 private:
  template <class F>
  void IteratePrefix(FieldPath* prefix, F& f) const {
    for (const auto& m : members_) {
      prefix->push_back(m);
      f(static_cast<const FieldPath&>(*prefix));
      prefix->pop_back();
    }
    for (const auto& [e, child] : children_) {
      prefix->push_back(e);
      child.IteratePrefix(prefix, f);
      prefix->pop_back();
    }
  }
  void InsertMember(const PathElement& e);
  FieldSet Subtract(const FieldSet& other, bool recursive) const;  // Difference, RecursiveDifference

  // Both sorted by element, without duplicates; children are never empty sets once built by the
  // set operations (Insert may leave none either).
  std::vector<PathElement> members_;
  std::vector<std::pair<PathElement, FieldSet>> children_;
};

}  // namespace kube::registry
