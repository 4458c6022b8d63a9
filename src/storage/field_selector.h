// FieldSelector: a parsed Kubernetes field selector (the `fieldSelector` list/watch parameter),
// with the grammar, escaping, matching rules and string form of k8s.io/apimachinery
// `fields.ParseSelector`.
//
// A selector is an AND of terms `field=value`, `field==value` (the same as `=`) and
// `field!=value`, separated by commas. In values, `\,`, `\=` and `\\` stand for `,`, `=` and `\`;
// any other backslash sequence, or an unescaped `=` in a value, is an error. Field names are
// taken verbatim (no escapes, no trimming), and which names are supported is the caller's
// business (see FieldNames()). Terms are kept in upstream's order (the raw terms sorted), so
// ToString() is deterministic.
//
// Thread-safety: immutable after Parse() (or default construction); a FieldSelector may be
// shared and used from any number of threads without synchronisation.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace kube::storage {

using Fields = std::map<std::string, std::string, std::less<>>;

class FieldSelector {
 public:
  // The empty selector: matches everything.
  FieldSelector();

  // Parses `text` as upstream does; the empty string yields the empty selector, and so does a
  // selector whose only terms are empty or have both an empty field and an empty value (`=`).
  // Errors are BadRequest with upstream's message text.
  static Result<FieldSelector> Parse(std::string_view text);

  // True when the selector has no terms (and so matches everything).
  bool Empty() const;

  // True when every term holds. A field absent from `fields` has the value "", as upstream.
  bool Matches(const Fields& fields) const;

  // The value of the first `field=value` / `field==value` term on `field`, if any.
  std::optional<std::string> RequiresExactMatch(std::string_view field) const;

  // Every field name the selector mentions, once each, in term order (so callers can reject
  // unsupported fields with 400).
  std::vector<std::string> FieldNames() const;

  // `field=value` / `field!=value` terms joined with ",", values re-escaped. `==` prints as `=`.
  std::string ToString() const;

 private:
  struct Term {
    std::string field;
    std::string value;  // Unescaped.
    bool negated = false;
  };

  std::vector<Term> terms_;
};

}  // namespace kube::storage
