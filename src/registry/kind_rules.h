// What differs between built-in kinds in the generic registry (kube puts this in each kind's
// strategy): name rules, generation tracking, delete response, graceful deletion, selectable
// fields.
//
// Thread-safety: pure functions over immutable tables.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "validation/object_meta.h"
#include "storage/selection_predicate.h"

namespace kube::registry {

using validation::NameRule;
using validation::PathSegmentNameProblems;
using validation::ValidateGenerateName;
using validation::ValidateName;
using validation::ValidateObjectMeta;

struct KindRules {
  NameRule name_rule = NameRule::kDnsSubdomain;
  // metadata.generation is 1 on create and grows when the spec changes.
  bool tracks_generation = false;
  // Annotation changes bump generation too (Deployment).
  bool generation_counts_annotations = false;
  // Status changes bump generation too (custom resources without a status subresource).
  bool generation_counts_status = false;
  // A custom resource: no protobuf form and no strategic merge patch (no Go struct behind it);
  // a body of another kind or group is 422 Invalid; a PUT must carry a resourceVersion.
  bool custom_resource = false;
  // DELETE answers with the object rather than a Success Status.
  bool return_deleted_object = false;
  // Pods: deletion waits for the grace period when the pod is bound to a node.
  bool graceful_delete = false;
  // Extra fields a field selector may use (metadata.name/namespace always work).
  std::vector<std::string> selectable_fields;
  // Built-ins with their own field-label conversion say "field label not supported: f";
  // the rest use the default converter's message.
  bool custom_field_labels = false;
};

KindRules RulesFor(std::string_view group, std::string_view resource);

// Attributes for selectors: labels, metadata.name/namespace and the kind's selectable fields.
storage::AttrsFunc AttrsFor(const KindRules& rules, bool namespaced);

// BadRequest when `selector` names a field the kind cannot select on.
Status CheckFieldSelector(const KindRules& rules, bool namespaced, const storage::FieldSelector& selector);

}  // namespace kube::registry
