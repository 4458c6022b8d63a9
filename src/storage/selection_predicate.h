// SelectionPredicate: which objects a list or watch selects (label and field selectors) and how
// it is paged (limit, continue), as k8s.io/apiserver storage.SelectionPredicate.
//
// Objects are matched through their attributes: labels (metadata.labels) and selectable fields.
// DefaultAttrs gives the fields every kind supports (metadata.name, metadata.namespace); a
// resource with more selectable fields (pods: spec.nodeName, status.phase, ...) supplies its own
// AttrsFunc.
//
// Thread-safety: immutable once built; safe to share between threads.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "storage/field_selector.h"
#include "storage/label_selector.h"

namespace kube::storage {

struct Attrs {
  Labels labels;
  Fields fields;
};
using AttrsFunc = std::function<Attrs(const nlohmann::json& object)>;

// Labels from metadata.labels; fields metadata.name and metadata.namespace.
Attrs DefaultAttrs(const nlohmann::json& object);

struct SelectionPredicate {
  LabelSelector label;
  FieldSelector field;
  // How to read an object's attributes. Default (null): DefaultAttrs.
  AttrsFunc get_attrs;
  // Page size of a list, 0 for no limit.
  int64_t limit = 0;
  // The continue token of a list page, empty for the first page.
  std::string continue_token;
  // Watch: the client accepts BOOKMARK events.
  bool allow_watch_bookmarks = false;

  // True when neither selector has requirements (limit and continue do not count).
  bool Empty() const { return label.Empty() && field.Empty(); }
  Attrs GetAttrs(const nlohmann::json& object) const;
  bool MatchesAttrs(const Attrs& attrs) const;
  bool Matches(const nlohmann::json& object) const;
  // The name a `metadata.name=<n>` field selector pins the selection to, if any.
  std::optional<std::string> MatchesSingleName() const;
};

}  // namespace kube::storage
