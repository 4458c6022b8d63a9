// The building blocks every kind's validation uses, worded as kube words them: field paths and
// field errors (k8s.io/apimachinery's field package), the string checks of
// k8s.io/apimachinery/pkg/util/validation (IsDNS1123Label, IsValidPortNum, IsEnvVarName, ...),
// IP and CIDR checks (its ip.go, with kube's legacy "sloppy" parsing), label and label-selector
// validation (apimachinery's meta/v1/validation) and resource quantities.
//
// The Is* functions return the problems in kube's words (empty: valid); the Validate* functions
// return field errors at a path, quoting the value as kube does.
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
#include "cel/quantity.h"
#include "util/field_error.h"

namespace kube::validation {

// ---- Name grammars (defined in object_meta.cc, which validates names with them) ----

// kube's name grammars (format only; callers check lengths), matched by hand, and the messages
// that quote their regexes.
bool MatchesDnsLabel(std::string_view s);          // [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool MatchesDnsSubdomain(std::string_view s);      // labels joined by '.'
bool MatchesDns1035Label(std::string_view s);      // [a-z]([-a-z0-9]*[a-z0-9])?
bool MatchesQualifiedNamePart(std::string_view s);  // ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool MatchesLabelValue(std::string_view s);        // empty or a qualified name part
extern const std::string_view kSubdomainMsg;
extern const std::string_view kLabelMsg;
extern const std::string_view kDns1035Msg;
extern const std::string_view kQualifiedMsg;
extern const std::string_view kLabelValueMsg;

// ---- Field paths (field.Path's rendering) ----

// "spec.containers": `path` + "." + `name`, or `name` alone when `path` is empty.
std::string Child(std::string_view path, std::string_view name);
// "spec.containers[3]".
std::string Index(std::string_view path, size_t i);
// "metadata.labels[app]" (field.Path.Key: the key unquoted).
std::string Key(std::string_view path, std::string_view key);

// ---- Field errors (field.Required, field.Invalid, ...) ----

// A value as field.Error.ErrorBody renders it: strings Go-quoted, numbers and booleans plain,
// anything else as encoding/json marshals it.
std::string RenderValue(const nlohmann::json& value);

FieldError Required(std::string field, std::string detail = "");
FieldError Forbidden(std::string field, std::string detail);
FieldError Invalid(std::string field, const nlohmann::json& value, std::string detail);
FieldError NotFound(std::string field, const nlohmann::json& value);
FieldError Duplicate(std::string field, const nlohmann::json& value);
// Detail "supported values: "a", "b"" (omitted when `supported` is empty).
FieldError NotSupported(std::string field, const nlohmann::json& value,
                        const std::vector<std::string>& supported);
// "may not be more than N bytes".
FieldError TooLong(std::string field, int64_t max_length);
// "must have at most N items", quoting `actual`.
FieldError TooMany(std::string field, int64_t actual, int64_t max);

// Appends `more` to `errors`.
void Append(FieldErrors* errors, FieldErrors more);
// One Invalid error per problem, all quoting `value`.
void AppendProblems(FieldErrors* errors, const std::string& field, const nlohmann::json& value,
                    const std::vector<std::string>& problems);

// ---- Messages (util/validation) ----

std::string MaxLenError(int64_t length);               // "must be no more than N characters"
std::string InclusiveRangeError(int64_t lo, int64_t hi);  // "must be between lo and hi, inclusive"
// "<msg> (e.g. 'a',  or 'b', regex used for validation is '<fmt>')".
std::string RegexError(std::string_view msg, std::string_view fmt, const std::vector<std::string>& examples);

inline constexpr std::string_view kFieldImmutable = "field is immutable";
inline constexpr std::string_view kIsNegative = "must be greater than or equal to 0";
inline constexpr std::string_view kIsNotPositive = "must be greater than zero";

// ---- String checks (util/validation) ----

std::vector<std::string> IsDns1123Label(std::string_view value);
std::vector<std::string> IsDns1123Subdomain(std::string_view value);
std::vector<std::string> IsDns1035Label(std::string_view value);
std::vector<std::string> IsWildcardDns1123Subdomain(std::string_view value);
std::vector<std::string> IsQualifiedName(std::string_view value);
std::vector<std::string> IsValidLabelValue(std::string_view value);
std::vector<std::string> IsCIdentifier(std::string_view value);
std::vector<std::string> IsValidPortNum(int64_t port);
std::vector<std::string> IsInRange(int64_t value, int64_t lo, int64_t hi);
std::vector<std::string> IsValidUserID(int64_t uid);
std::vector<std::string> IsValidGroupID(int64_t gid);
// IANA_SVC_NAME: at most 15 of [-a-z0-9], at least one letter, no "--", no leading/trailing '-'.
std::vector<std::string> IsValidPortName(std::string_view value);
std::vector<std::string> IsValidPercent(std::string_view value);
std::vector<std::string> IsHttpHeaderName(std::string_view value);
std::vector<std::string> IsEnvVarName(std::string_view value);
// RelaxedEnvironmentVariableValidation (GA): printable ASCII but '='.
std::vector<std::string> IsRelaxedEnvVarName(std::string_view value);
std::vector<std::string> IsConfigMapKey(std::string_view value);

// ---- Field validators ----

FieldErrors ValidateDns1123Label(std::string_view value, const std::string& field);
FieldErrors ValidateDns1123Subdomain(std::string_view value, const std::string& field);
FieldErrors ValidateQualifiedName(std::string_view value, const std::string& field);
// apimachinery ValidateLabels: each key a qualified name, each value a label value.
FieldErrors ValidateLabels(const nlohmann::json& labels, const std::string& field);
// "must be greater than or equal to 0".
FieldErrors ValidateNonnegativeField(int64_t value, const std::string& field);
// "field is immutable" quoting `value` (as JSON) when `value` != `old`.
FieldErrors ValidateImmutableField(const nlohmann::json& value, const nlohmann::json& old,
                                   const std::string& field);
// metav1 LabelSelector (matchLabels, matchExpressions with In/NotIn/Exists/DoesNotExist).
FieldErrors ValidateLabelSelector(const nlohmann::json& selector, const std::string& field);

// ---- IPs and CIDRs ----

// Go's net.ParseIP as kube's ParseIPSloppy uses it: IPv4 octets may have leading zeros (read as
// decimal); an IPv4-mapped IPv6 address is IPv4.
std::optional<cel::netip::Addr> ParseIPSloppy(std::string_view value);
// IsValidIP for fields validated strictly (canonical form, no leading zeros, no IPv4-mapped).
FieldErrors IsValidIP(const std::string& field, std::string_view value);
// IsValidIPForLegacyField with StrictIPCIDRValidation off (its 1.36 default): sloppy parsing.
FieldErrors IsValidIPForLegacyField(const std::string& field, std::string_view value);
// IsValidCIDRForLegacyField with StrictIPCIDRValidation off.
FieldErrors IsValidCIDRForLegacyField(const std::string& field, std::string_view value);
// IsValidCIDR: strict and canonical.
FieldErrors IsValidCIDR(const std::string& field, std::string_view value);

// ---- Quantities ----

// A resource quantity from its JSON form (a string, or a number as kube accepts one); nullopt
// when it does not parse (the decoder refuses those before validation).
std::optional<cel::Quantity> ParseQuantity(const nlohmann::json& value);
// The quantity's text as the error quotes it (the stored string; numbers rendered as written).
std::string QuantityText(const nlohmann::json& value);

// ---- JSON reads ----

// The integer at `key` in `obj`, when present and integral.
std::optional<int64_t> IntField(const nlohmann::json& obj, const char* key);
// The field at `key` when present and not null, else nullptr.
const nlohmann::json* Field(const nlohmann::json& obj, const char* key);
// The array at `key` (an empty array when absent or not an array).
const nlohmann::json& ArrayField(const nlohmann::json& obj, const char* key);

}  // namespace kube::validation
