// The structural-schema rules of kube's apiextensions (pkg/apiserver/schema: NewStructural,
// ValidateStructural and the completeness check), applied directly to a v1 openAPIV3Schema in
// JSON form. A structural schema is one where every node states its type (except under
// x-kubernetes-int-or-string / x-kubernetes-preserve-unknown-fields), value validations
// (allOf/anyOf/oneOf/not) only restrict what the structural part already declares, and
// metadata at the root only restricts name and generateName.
//
// These are the checks a CRD must pass; the schema model that prunes, defaults and validates
// custom resources is the schema layer's.
//
// Thread-safety: pure functions.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "apiextensions/field_errors.h"

namespace kube::apiextensions {

// Checks that a `pattern` is a valid Go (RE2 syntax) regular expression: returns "" when it is,
// else Go's regexp.Compile error text ("error parsing regexp: missing closing ): `(a`").
using PatternChecker = std::function<std::string(std::string_view pattern)>;

// NewStructural's conversion error for `schema` ("" when it converts): unsupported keywords
// (id, $schema, $ref, patternProperties, dependencies, additionalItems, definitions), items given
// as an array, or x-kubernetes-preserve-unknown-fields: false. The first one in kube's traversal
// order.
std::string StructuralConversionError(const nlohmann::json& schema);

// ValidateStructural(path, NewStructural(schema)) for a schema that converts: the invariants,
// the nested value-validation rules and the completeness of value validations, sorted by their
// rendered text as kube sorts them. `check_pattern` may be empty (patterns are then not checked).
FieldErrors ValidateStructural(const nlohmann::json& schema, const FieldPath& path,
                               const PatternChecker& check_pattern);

}  // namespace kube::apiextensions
