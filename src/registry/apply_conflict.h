// The 409 an apply gets when it would change fields other managers own (kube's
// NewConflictError): reason Conflict, one FieldManagerConflict cause per field, and the message
// "Apply failed with 1 conflict: conflict with \"kubectl\": .data.a" — or, for several,
// "Apply failed with N conflicts: conflicts with \"a\":\n- .x\n- .y\nconflicts with \"b\" using v1:\n- .z"
// (managers sorted, each with its fields).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <vector>

#include "util/status.h"

namespace kube::registry {

struct ApplyConflict {
  std::string manager;  // the owner's manager identifier (managed_fields.h ManagerIdentifier)
  std::string path;     // the field as kube prints a field path: ".spec.ports[containerPort=80,protocol=\"TCP\"]"
};

// REQUIRES: !conflicts.empty().
Status ApplyConflictError(std::vector<ApplyConflict> conflicts);

}  // namespace kube::registry
