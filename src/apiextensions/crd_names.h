// kube's naming and establishing controllers as pure functions over CRD objects.
//
// Naming (NamingConditionController): every name a CRD asks for in spec.names is compared with
// the names already accepted (status.acceptedNames) by the CRDs of the same group, the CRD
// itself included. A name equal to the CRD's own accepted one, or not used by any of them, is
// accepted; otherwise NamesAccepted goes False with the reason of the last conflicting kind of
// name (PluralConflict, SingularConflict, ShortNamesConflict, KindConflict, ListKindConflict)
// and the message `"<name>" is already in use` (short names: all conflicts, comma-joined in
// brackets when more than one), and the conflicting names keep their previously accepted
// values. Categories are always accepted. Plural, singular and short names share one namespace
// (resources), kind and listKind another (kinds). Like kube, built-in resources of the group are
// not consulted: a CRD cannot shadow them because built-in routes are served first.
// Established is set to False NotAccepted "not all names are accepted" on the first pass, and to
// False Installing "the initial names have been accepted" once the names are accepted while not
// yet established.
//
// Establishing (EstablishingController): once NamesAccepted is True and Established is not,
// Established becomes True InitialNamesAccepted "the initial names have been accepted".
//
// Thread-safety: pure functions; mutators change only the object passed in. Run naming for one
// group at a time (kube runs a single worker) so two CRDs cannot claim the same name at once.
#pragma once

#include <chrono>
#include <nlohmann/json.hpp>
#include <vector>

#include "apiextensions/crd_conditions.h"

namespace kube::apiextensions {

struct NamingResult {
  nlohmann::json accepted_names;  // the new status.acceptedNames
  CrdCondition names_accepted;
  CrdCondition established;
};

// calculateNamesAndConditions. `group_crds` are the stored CRDs (any group: others are
// skipped); an entry with the CRD's own metadata.name is ignored in favour of `crd` itself.
NamingResult ComputeNames(const nlohmann::json& crd, const std::vector<const nlohmann::json*>& group_crds);

// The naming controller's sync for `crd`: returns false (and leaves it alone) when spec.names
// already equal status.acceptedNames, or when neither the accepted names nor the NamesAccepted
// condition would change; otherwise writes status.acceptedNames, NamesAccepted and Established
// and returns true (the caller then writes the status and re-queues the group's other CRDs,
// since a name may have been released).
bool SyncNames(nlohmann::json* crd, const std::vector<const nlohmann::json*>& group_crds,
               std::chrono::system_clock::time_point now);

// The establishing controller's sync: true when it set Established to True.
bool SyncEstablished(nlohmann::json* crd, std::chrono::system_clock::time_point now);

}  // namespace kube::apiextensions
