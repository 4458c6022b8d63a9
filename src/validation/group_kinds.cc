// Registration of the validators of the named groups (everything but core).
#include "validation/kind_table.h"

namespace kube::validation {

void AddGroupKinds(KindTable* table) {}

}  // namespace kube::validation
