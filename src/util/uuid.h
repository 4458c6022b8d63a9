// Random (version 4, RFC 9562) UUIDs in their canonical text form, as Go's github.com/google/uuid
// New() writes them: object uids, the Audit-Id of every response, token ids.
//
// Thread-safety: safe from any thread (each thread draws from its own generator).
#pragma once

#include <string>

namespace kube {

// 36 characters, lowercase hex: xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx.
std::string NewUuid();

}  // namespace kube
