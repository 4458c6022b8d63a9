// The registration function of each named group's validators, one per file (apps_validation.cc,
// batch_validation.cc, ...); AddGroupKinds (group_kinds.cc) calls them all.
//
// Thread-safety: called once while FindKindValidator builds its table.
#pragma once

#include "validation/kind_table.h"

namespace kube::validation {

void AddAppsKinds(KindTable* table);           // apps: deployments, replicasets, statefulsets, daemonsets, controllerrevisions
void AddBatchKinds(KindTable* table);          // batch: jobs, cronjobs
void AddNetworkingKinds(KindTable* table);     // networking.k8s.io: ingresses, ingressclasses, networkpolicies
void AddRbacKinds(KindTable* table);           // rbac.authorization.k8s.io: roles, clusterroles and their bindings
void AddPolicyKinds(KindTable* table);         // policy: poddisruptionbudgets
void AddAutoscalingKinds(KindTable* table);    // autoscaling: horizontalpodautoscalers (v2 shape)
void AddCoordinationKinds(KindTable* table);   // coordination.k8s.io: leases
void AddDiscoveryKinds(KindTable* table);      // discovery.k8s.io: endpointslices
void AddEventsKinds(KindTable* table);         // events.k8s.io: events
void AddAdmissionKinds(KindTable* table);      // admissionregistration.k8s.io: webhook configurations
void AddSchedulingKinds(KindTable* table);     // scheduling.k8s.io: priorityclasses
void AddStorageKinds(KindTable* table);        // storage.k8s.io: storageclasses, csidrivers, volumeattachments

}  // namespace kube::validation
