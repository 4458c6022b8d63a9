#include "kv/key_index.h"

#include <algorithm>

namespace kube::kv {

const IndexedRevision* KeyIndex::Latest(std::string_view key) const {
  auto it = keys_.find(key);
  if (it == keys_.end() || it->second.empty()) return nullptr;
  return &it->second.back();
}

const IndexedRevision* KeyIndex::Visible(const History& h, int64_t revision) {
  // Histories are short after compaction, and reads at the latest revision are by far the most
  // common, so look at the newest entry before searching.
  if (h.empty()) return nullptr;
  if (h.back().revision <= revision) return h.back().tombstone ? nullptr : &h.back();
  auto it = std::upper_bound(h.begin(), h.end(), revision,
                             [](int64_t rev, const IndexedRevision& r) { return rev < r.revision; });
  if (it == h.begin()) return nullptr;
  --it;
  return it->tombstone ? nullptr : &*it;
}

const IndexedRevision* KeyIndex::VisibleAt(std::string_view key, int64_t revision) const {
  auto it = keys_.find(key);
  return it == keys_.end() ? nullptr : Visible(it->second, revision);
}

void KeyIndex::Append(std::string_view key, const IndexedRevision& r) {
  auto it = keys_.find(key);
  if (it == keys_.end()) it = keys_.emplace(std::string(key), History{}).first;
  it->second.push_back(r);
}

void KeyIndex::Compact(int64_t compact_revision,
                       std::vector<std::pair<std::string, int64_t>>* removed) {
  for (auto it = keys_.begin(); it != keys_.end();) {
    History& h = it->second;
    // Index of the first version newer than the compaction point; the one before it is the
    // newest version <= compact_revision and is the only old one a read at compact_revision needs.
    auto newer = std::upper_bound(
        h.begin(), h.end(), compact_revision,
        [](int64_t rev, const IndexedRevision& r) { return rev < r.revision; });
    size_t keep_from = static_cast<size_t>(newer - h.begin());
    if (keep_from > 0) {
      --keep_from;
      if (h[keep_from].tombstone) ++keep_from;
    }
    for (size_t i = 0; i < keep_from; ++i) removed->emplace_back(it->first, h[i].revision);
    h.erase(h.begin(), h.begin() + static_cast<std::ptrdiff_t>(keep_from));
    it = h.empty() ? keys_.erase(it) : std::next(it);
  }
}

}  // namespace kube::kv
