// LabelSelector: a parsed Kubernetes label selector (the `labelSelector` list/watch parameter),
// with the grammar, validation, matching rules and canonical string form of
// k8s.io/apimachinery `labels.Parse`.
//
// A selector is an AND of requirements: `k=v`, `k==v`, `k!=v`, `k in (a,b)`, `k notin (a,b)`,
// `k` (exists), `!k` (does not exist), `k>5`, `k<5`. Requirements are kept sorted by key, as
// upstream does, so ToString() is deterministic.
//
// Thread-safety: immutable after Parse() (or default construction); a LabelSelector may be
// shared and used from any number of threads without synchronisation.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace kube::storage {

using Labels = std::map<std::string, std::string, std::less<>>;

class LabelSelector {
 public:
  // The empty selector: matches every label set.
  LabelSelector();

  // Parses `text` with upstream's grammar and validation. An empty or all-whitespace string
  // yields the empty selector. Errors are BadRequest with upstream's message text.
  static Result<LabelSelector> Parse(std::string_view text);

  // True when the selector has no requirements (and so matches everything).
  bool Empty() const;

  // True when every requirement holds for `labels`. `!=` and `notin` hold when the key is absent;
  // `>` and `<` need the label to be present and to parse as a 64-bit integer.
  bool Matches(const Labels& labels) const;

  // If the first requirement on `key` is `key=v`, `key==v` or `key in (v)` (one value), that value.
  std::optional<std::string> RequiresExactMatch(std::string_view key) const;

  // Canonical form, as upstream String(): requirements sorted by key, joined with ",";
  // set values sorted. Parse(ToString()) yields an equal selector.
  std::string ToString() const;

 private:
  enum class Operator : uint8_t {
    kEquals,
    kDoubleEquals,
    kNotEquals,
    kIn,
    kNotIn,
    kExists,
    kDoesNotExist,
    kGreaterThan,
    kLessThan,
  };

  struct Requirement {
    std::string key;
    Operator op = Operator::kExists;
    std::vector<std::string> values;  // Sorted and unique.
    int64_t bound = 0;                // The parsed value for kGreaterThan / kLessThan.
  };

  class Parser;

  static bool RequirementMatches(const Requirement& r, const Labels& labels);
  static std::string RequirementString(const Requirement& r);

  std::vector<Requirement> requirements_;
};

}  // namespace kube::storage
