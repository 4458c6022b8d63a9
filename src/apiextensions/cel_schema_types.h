// The CEL type of a structural schema node, as kube declares `self` for x-kubernetes-validations
// rules (k8s.io/apiserver/pkg/cel/common SchemaDeclType): objects with properties are object
// types with those fields, additionalProperties maps are map(string, V), arrays are list(T),
// integers int, numbers double, booleans bool, strings string — bytes for format "byte",
// timestamps for "date" and "date-time", durations for "duration" —, int-or-string is dyn, and a
// resource root (or embedded resource) always has apiVersion, kind, metadata.name and
// metadata.generateName. A node without a type (x-kubernetes-preserve-unknown-fields alone) is
// not exposed, and neither are lists and maps of such nodes.
//
// Each type carries kube's size estimate for the cost estimator: maxItems / maxProperties /
// maxLength (×4: lengths count code points, sizes count bytes) when declared, else what fits in a
// request of the largest size (3 MiB) given the least bytes an element's JSON takes.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "cel/types.h"
#include "schema/schema.h"

namespace kube::apiextensions {

// The largest request body kube's CEL size estimates assume (celconfig.MaxRequestSizeBytes).
inline constexpr int64_t kCelMaxRequestSizeBytes = 3 * 1024 * 1024;

// The type of `s`, or nullptr when kube does not expose the node to rules. `name` names object
// types (their fields' object types are named below it).
cel::TypeRef SchemaCelType(const schema::Schema* s, bool resource_root, const std::string& name = "selfType");

// The name under which rules see a property (kube's cel.Escape): CEL keywords as `__name__`,
// and `__`, `.`, `-`, `/` spelled `__underscores__`, `__dot__`, `__dash__`, `__slash__`;
// nullopt for names rules cannot see (empty, starting with a digit, other characters).
std::optional<std::string> EscapeCelFieldName(std::string_view name);
// Whether `name` is its own escaped form, reserved words aside (letters, digits, single
// underscores, not starting with a digit): the common case, checked without building a string.
bool IsPlainCelFieldName(std::string_view name);
// Whether rules see property `name` under `name` itself: plain, and not a reserved word.
bool IsUnescapedCelFieldName(std::string_view name);

}  // namespace kube::apiextensions
