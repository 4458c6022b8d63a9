#include "util/uuid.h"

#include <cstdint>
#include <cstdio>
#include <random>

namespace kube {

std::string NewUuid() {
  // One generator per thread, seeded once from the OS: ids must not repeat across threads or
  // restarts, and drawing from random_device on every request would cost a system call.
  thread_local std::mt19937_64 rng{(static_cast<uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}()};
  uint64_t hi = rng(), lo = rng();
  hi = (hi & ~0xf000ULL) | 0x4000ULL;                         // version 4
  lo = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;  // RFC variant
  char out[37];
  std::snprintf(out, sizeof out, "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xffff), static_cast<unsigned>(hi & 0xffff),
                static_cast<unsigned>(lo >> 48), static_cast<unsigned long long>(lo & 0xffffffffffffULL));
  return out;
}

}  // namespace kube
