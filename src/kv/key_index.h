// KeyIndex: the in-memory index of every key's revisions, like etcd's keyIndex tree.
//
// RocksDB holds the values; this index answers which revision of a key is visible at a given
// store revision, counts live keys in a range, and supplies the metadata (create revision,
// version, lease) of the latest version for compare-and-swap. It holds no values.
//
// Thread-safety: none. The Store guards it with its index mutex (writers exclusive, readers
// shared).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kube::kv {

// One version of a key as the index records it.
struct IndexedRevision {
  int64_t revision = 0;         // mod revision of this version
  int64_t create_revision = 0;  // 0 for a tombstone
  int64_t version = 0;          // 0 for a tombstone
  int64_t lease = 0;
  bool tombstone = false;
};

class KeyIndex {
 public:
  // The newest version of `key` (possibly a tombstone), or nullptr if the index has none.
  const IndexedRevision* Latest(std::string_view key) const;

  // The version of `key` visible at `revision`: the newest one <= revision, or nullptr when
  // there is none or it is a tombstone.
  const IndexedRevision* VisibleAt(std::string_view key, int64_t revision) const;

  // Records a new version. REQUIRES: r.revision is greater than every revision recorded so far.
  void Append(std::string_view key, const IndexedRevision& r);

  // Calls fn(key, revision) for every key in [start, end) live at `revision`, in key order, until
  // fn returns false.
  template <class Fn>
  void ForEachLive(std::string_view start, std::string_view end, int64_t revision, Fn&& fn) const {
    // compare(), not <: clang 14 cannot rewrite string < string_view via libstdc++ 12's <=>.
    for (auto it = keys_.lower_bound(start); it != keys_.end() && it->first.compare(end) < 0; ++it) {
      const IndexedRevision* r = Visible(it->second, revision);
      if (r != nullptr && !fn(it->first, *r)) return;
    }
  }

  // Calls fn(key, latest) for every key whose newest version is live, in key order (every key
  // of the store, unbounded by a range).
  template <class Fn>
  void ForEachLatestLive(Fn&& fn) const {
    for (const auto& [key, history] : keys_) {
      if (!history.empty() && !history.back().tombstone) fn(key, history.back());
    }
  }

  // Forgets, for every key, all versions <= compact_revision except the newest one; that one is
  // forgotten too when it is a tombstone (etcd's compaction rule). Appends every forgotten
  // (key, revision) to `removed` so the caller can delete the values.
  void Compact(int64_t compact_revision, std::vector<std::pair<std::string, int64_t>>* removed);

  // Number of keys with at least one recorded version (live or not).
  size_t KeyCount() const { return keys_.size(); }

 private:
  using History = std::vector<IndexedRevision>;  // ascending by revision

  static const IndexedRevision* Visible(const History& h, int64_t revision);

  std::map<std::string, History, std::less<>> keys_;
};

}  // namespace kube::kv
