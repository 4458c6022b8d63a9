// ObjectMeta validation (apimachinery validation + kube's per-kind name rules): names, generated
// names, labels, annotations, finalizers, owner references.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "util/field_error.h"
#include "util/status.h"

namespace kube::validation {

enum class NameRule {
  kDnsSubdomain,  // most kinds: lower-case RFC 1123 subdomain, <= 253
  kDnsLabel,      // Namespace: RFC 1123 label, <= 63
  kDns1035Label,  // Service: RFC 1035 label (starts with a letter), <= 63
  kPathSegment,   // RBAC roles and bindings: any path segment (colons allowed)
};

// Errors for metadata.name under `rule` (empty when valid).
FieldErrors ValidateName(std::string_view name, NameRule rule, std::string_view field = "metadata.name");

// Errors for metadata.generateName under `rule`, validated as the prefix of a name (a trailing '-'
// allowed), as kube validates it beside the generated name.
FieldErrors ValidateGenerateName(std::string_view generate_name, NameRule rule);

// kube's path-segment rules (IsPathSegmentName, or IsPathSegmentPrefix when `prefix`): a name may
// not be "." or "..", and neither may contain '/' or '%'. The problems in kube's words.
std::vector<std::string> PathSegmentNameProblems(std::string_view name, bool prefix = false);

// Errors for the whole metadata of an object being created or updated.
FieldErrors ValidateObjectMeta(const nlohmann::json& metadata, NameRule rule, bool namespaced);

}  // namespace kube::validation
