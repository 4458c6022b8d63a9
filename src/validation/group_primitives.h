// Building blocks the named groups' validators share beyond validation/primitives.h: reading
// metav1 LabelSelectors as kube's labels package does (LabelSelectorAsSelector and Matches), int-or-
// percent fields (apps' ValidatePositiveIntOrPercent), and the renderings kube's field errors give
// to values of kube's internal Go types (which have no JSON tags, so encoding/json writes their Go
// field names).
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cel/netip.h"
#include "util/field_error.h"

namespace kube::validation {

// An empty JSON object, for lenient reads of absent objects.
const nlohmann::json& EmptyObject();
// The object at `key` (EmptyObject() when absent or not an object).
const nlohmann::json& ObjectAt(const nlohmann::json& obj, const char* key);
// The string at `key` ("" when absent or not a string).
std::string StringAt(const nlohmann::json& obj, const char* key);
// The field at `key` when present and not null.
bool Has(const nlohmann::json& obj, const char* key);
// The boolean at `key` (`fallback` when absent or not a boolean).
bool BoolAt(const nlohmann::json& obj, const char* key, bool fallback = false);
// `obj` without the listed keys (a copy), for comparing everything but some fields.
nlohmann::json Without(const nlohmann::json& obj, std::initializer_list<const char*> keys);
// The value at `key`, or null when absent.
nlohmann::json ValueAt(const nlohmann::json& obj, const char* key);

// ---- Label selectors (metav1.LabelSelector) ----

// Whether metav1.LabelSelectorAsSelector accepts `selector`: a null selector (labels.Nothing) and
// an empty one (labels.Everything) do; operators must be In, NotIn, Exists or DoesNotExist, In and
// NotIn need values, the others none, and keys and values must be valid label keys and values.
bool SelectorConvertible(const nlohmann::json& selector);
// Whether the converted `selector` matches `labels` (a JSON object of strings): a null selector
// matches nothing, an empty one everything. REQUIRES: SelectorConvertible(selector).
bool SelectorMatches(const nlohmann::json& selector, const nlohmann::json& labels);
// A selector present with no matchLabels and no matchExpressions.
bool SelectorIsEmpty(const nlohmann::json& selector);

// ---- Int or percent (intstr.IntOrString) ----

// apps' ValidatePositiveIntOrPercent: a percentage string ("25%") or a non-negative integer.
FieldErrors ValidatePositiveIntOrPercent(const nlohmann::json& value, const std::string& field);
// The integer value or percentage number of an int-or-percent (getIntOrPercentValue: 0 for a
// string that is not a valid percentage).
int64_t IntOrPercentValue(const nlohmann::json& value);
// apps' IsNotMoreThan100Percent: "must not be greater than 100%" for percentages above 100.
FieldErrors IsNotMoreThan100Percent(const nlohmann::json& value, const std::string& field);

// ---- Strings and addresses ----

// util/validation's IsDomainPrefixedPath ("acme.io/foo"): required, a DNS-subdomain host and an
// HTTP path.
FieldErrors IsDomainPrefixedPath(const std::string& field, std::string_view value);
// netutils.ParseCIDRSloppy: a CIDR whose IPv4 octets may have leading zeros, masked to its prefix.
std::optional<cel::netip::Prefix> ParseCidrSloppy(std::string_view value);

// ---- Values as kube's errors render them ----

// A Go field name rendering of an internal struct: `fields` are (GoName, json value) pairs,
// rendered in order as encoding/json writes a struct without tags ({"Type":"x","RollingUpdate":null}).
std::string RenderInternalStruct(const std::vector<std::pair<std::string, nlohmann::json>>& fields);
// The same with each value rendered already (for nested internal structs).
std::string RenderInternalStructRaw(const std::vector<std::pair<std::string, std::string>>& fields);

// "supported values: "a", "b"" errors with a value already rendered (for enum values of named Go
// string types, which kube renders through encoding/json).
FieldError NotSupportedRendered(std::string field, std::string rendered, const std::vector<std::string>& supported);
// An Invalid error quoting an already rendered value.
FieldError InvalidRendered(std::string field, std::string rendered, std::string detail);

}  // namespace kube::validation
