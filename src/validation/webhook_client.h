// A webhook's clientConfig as k8s.io/apiserver's pkg/util/webhook validates it for admission
// webhooks: exactly one of url (https, a host, no user information, query or fragment) or service
// (name, namespace, a valid port and a path of DNS-subdomain segments).
//
// Thread-safety: pure function.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <string>

#include "util/field_error.h"

namespace kube::validation {

// Errors for `client_config` at `path` ("webhooks[0].clientConfig").
FieldErrors ValidateWebhookClientConfig(const nlohmann::json& client_config, const std::string& path);

}  // namespace kube::validation
