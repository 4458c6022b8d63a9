// Registration of the validators of the named groups (everything but core), one file per group.
#include "validation/group_validators.h"
#include "validation/kind_table.h"

namespace kube::validation {

void AddGroupKinds(KindTable* table) {
  AddAppsKinds(table);
  AddBatchKinds(table);
  AddNetworkingKinds(table);
  AddRbacKinds(table);
  AddPolicyKinds(table);
  AddCoordinationKinds(table);
  AddAutoscalingKinds(table);
  AddDiscoveryKinds(table);
  AddEventsKinds(table);
  AddAdmissionKinds(table);
  AddSchedulingKinds(table);
  AddStorageKinds(table);
}

}  // namespace kube::validation
