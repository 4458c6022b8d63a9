// kv::StateSnapshot: the live keys of a kv::Store at one revision, with their values — what
// Store::SaveState takes and Store::RestoreState brings back.
//
// A snapshot owns copies of the values, so it survives compaction and the store's later writes;
// it lives in process memory only (nothing is written to the database). Restoring compares each
// key's mod revision with the store's and writes only the keys that differ, so the cost of a
// restore follows the number of changes since the snapshot, not the number of keys. The store
// remembers which version each restored key was restored from, so a key a restore rewrote is not
// rewritten again by the next restore while it stays unchanged.
//
// Thread-safety: immutable once taken; share it freely (StateSnapshotPtr).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kube::kv {

struct StateSnapshot {
  struct Entry {
    std::string key;
    std::string value;
    int64_t mod_revision = 0;  // identifies the version: equal mod revisions mean equal values
    int64_t lease = 0;         // re-attached on restore while the lease still exists
  };
  int64_t revision = 0;        // the store's revision when the snapshot was taken
  uint64_t origin = 0;         // the store it was taken from (restoring elsewhere rewrites all)
  std::vector<Entry> entries;  // every live key, sorted by key
  size_t value_bytes = 0;      // total size of the values
};
using StateSnapshotPtr = std::shared_ptr<const StateSnapshot>;

}  // namespace kube::kv
