#include "kv/key_index.h"

#include <doctest/doctest.h>

#include <string>

namespace kube::kv {

namespace {
IndexedRevision Put(int64_t rev, int64_t create, int64_t version) {
  return IndexedRevision{rev, create, version, 0, false};
}
IndexedRevision Tombstone(int64_t rev) { return IndexedRevision{rev, 0, 0, 0, true}; }

std::string Live(const KeyIndex& index, int64_t rev) {
  std::string out;
  index.ForEachLive("", "\xff", rev, [&](std::string_view k, const IndexedRevision& r) {
    out += std::string(k) + "@" + std::to_string(r.revision) + " ";
    return true;
  });
  return out;
}
}  // namespace

TEST_CASE("key index: visibility across generations") {
  KeyIndex index;
  index.Append("a", Put(2, 2, 1));
  index.Append("a", Put(3, 2, 2));
  index.Append("a", Tombstone(4));
  index.Append("a", Put(5, 5, 1));
  CHECK(index.VisibleAt("a", 1) == nullptr);
  CHECK(index.VisibleAt("a", 2)->version == 1);
  CHECK(index.VisibleAt("a", 3)->version == 2);
  CHECK(index.VisibleAt("a", 4) == nullptr);
  CHECK(index.VisibleAt("a", 5)->create_revision == 5);
  CHECK(index.Latest("a")->revision == 5);
  CHECK(index.Latest("b") == nullptr);
}

TEST_CASE("key index: compaction keeps the newest version at or below the point") {
  KeyIndex index;
  index.Append("a", Put(2, 2, 1));
  index.Append("b", Put(3, 3, 1));
  index.Append("a", Put(4, 2, 2));
  index.Append("b", Tombstone(5));
  index.Append("a", Put(6, 2, 3));
  std::vector<std::pair<std::string, int64_t>> removed;
  index.Compact(5, &removed);
  // a keeps 4 (newest <= 5) and 6; b's newest <= 5 is a tombstone, so b disappears entirely.
  CHECK(removed.size() == 3);
  CHECK(index.KeyCount() == 1);
  CHECK(Live(index, 5) == "a@4 ");
  CHECK(Live(index, 6) == "a@6 ");
}

TEST_CASE("key index: ForEachLive respects the range and stops on request") {
  KeyIndex index;
  for (int i = 0; i < 5; ++i) index.Append("k" + std::to_string(i), Put(2 + i, 2 + i, 1));
  int seen = 0;
  index.ForEachLive("k1", "k4", 10, [&](std::string_view, const IndexedRevision&) {
    ++seen;
    return seen < 2;
  });
  CHECK(seen == 2);
  CHECK(Live(index, 4) == "k0@2 k1@3 k2@4 ");
}

}  // namespace kube::kv
