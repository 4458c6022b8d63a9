// The table behind FindKindValidator, filled by one registration function per API area so each
// area's validators live in their own files.
//
// Thread-safety: filled once under FindKindValidator's static initialisation; read-only after.
#pragma once

#include <map>
#include <string>

#include "validation/kind_validation.h"

namespace kube::validation {

// Keyed by "group/resource": "/pods", "apps/deployments".
using KindTable = std::map<std::string, KindValidator, std::less<>>;

// The core group ("" — pods, services, endpoints, configmaps, secrets, namespaces, nodes, ...).
void AddCoreKinds(KindTable* table);
// Every other built-in group (apps, batch, networking, policy, autoscaling, rbac, events,
// coordination, scheduling, storage, admissionregistration, discovery, ...).
void AddGroupKinds(KindTable* table);

}  // namespace kube::validation
