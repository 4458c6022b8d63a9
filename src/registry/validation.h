// ObjectMeta validation (apimachinery validation + kube's per-kind name rules): names, generated
// names, labels, annotations, finalizers, owner references.
//
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <string_view>

#include "registry/errors.h"

namespace kube::registry {

enum class NameRule {
  kDnsSubdomain,  // most kinds: lower-case RFC 1123 subdomain, <= 253
  kDnsLabel,      // Namespace: RFC 1123 label, <= 63
  kDns1035Label,  // Service: RFC 1035 label (starts with a letter), <= 63
  kPathSegment,   // RBAC roles and bindings: any path segment (colons allowed)
};

// Errors for metadata.name under `rule` (empty when valid).
FieldErrors ValidateName(std::string_view name, NameRule rule, std::string_view field = "metadata.name");

// Errors for the whole metadata of an object being created or updated.
FieldErrors ValidateObjectMeta(const nlohmann::json& metadata, NameRule rule, bool namespaced);

}  // namespace kube::registry
