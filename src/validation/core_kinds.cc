// Registration of the core group's validators.
#include "validation/kind_table.h"

namespace kube::validation {

void AddCoreKinds(KindTable* table) {}

}  // namespace kube::validation
