// Registration of the core group's validators, one function per file of the core validation.
#include "validation/core_internal.h"
#include "validation/kind_table.h"

namespace kube::validation {

void AddCoreKinds(KindTable* table) {
  core::AddPodKinds(table);
  core::AddServiceKinds(table);
  core::AddConfigKinds(table);
  core::AddStorageKinds(table);
  core::AddClusterKinds(table);
}

}  // namespace kube::validation
