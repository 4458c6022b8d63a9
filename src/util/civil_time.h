// Proleptic Gregorian calendar arithmetic (Howard Hinnant's days-from-civil algorithms), for the
// timestamp renderings of the protobuf codec and of CEL.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

namespace kube {

// Days since 1970-01-01 of year `y`, month `m` (1-12), day `d` (1-31).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d);
// The date of day `z` since 1970-01-01.
void CivilFromDays(int64_t z, int64_t* y, unsigned* m, unsigned* d);

}  // namespace kube
