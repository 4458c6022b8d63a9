// The schema model lives in src/schema (schema/schema.h); built-in kinds use it under this name.
// The catalogue (catalogue.h) owns the built-in nodes for the whole process.
#pragma once

#include "schema/schema.h"

namespace kube::catalogue {

using Schema = schema::Schema;

}  // namespace kube::catalogue
