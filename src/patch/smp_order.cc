// Ordering of merged lists in a strategic merge patch (upstream's normalizeElementOrder and the
// partitioning around it).
//
// The resulting order is part of the observable behaviour (kubectl apply relies on it), so it
// follows upstream step by step, including its sort: Go's sort.SliceStable with a comparator that
// calls every item not found in the reference list "less". That comparator is not a strict weak
// ordering, so std::stable_sort could neither be used safely nor give the same answer;
// GoStableSort reproduces the algorithm Go uses (insertion-sorted blocks of 20, then SymMerge).

#include <unordered_map>
#include <utility>
#include <vector>

#include "patch/smp_internal.h"

namespace kube::patch::smp {
namespace {

using internal::GoKind;

const Json& NullValue() {
  static const Json* null = new Json();
  return *null;
}

// The index of the first item of a reference list that matches, as upstream's index(): maps match
// on the merge key's value (a missing key counting as nil), everything else on the value itself.
// With `skip_missing`, items that are not maps or lack the key never match (as in upstream's
// findMapInSliceBasedOnKeyValue).
class PositionIndex {
 public:
  PositionIndex(const Json& list, const std::string& key, bool by_key, bool skip_missing)
      : key_(key), by_key_(by_key) {
    for (size_t i = 0; i < list.size(); ++i) {
      const Json& item = list[i];
      if (skip_missing && !(item.is_object() && item.contains(key))) continue;
      const Json& k = KeyOf(item);
      if (std::optional<std::string> s = internal::ScalarKey(k)) {
        scalars_.emplace(std::move(*s), static_cast<int>(i));
      } else {
        others_.emplace_back(static_cast<int>(i), &k);
      }
    }
  }

  // nullopt where upstream's == would panic: a map (or slice) looked up among maps (slices).
  std::optional<int> Find(const Json& item) const {
    const Json& k = KeyOf(item);
    if (std::optional<std::string> s = internal::ScalarKey(k)) {
      auto it = scalars_.find(*s);
      return it == scalars_.end() ? -1 : it->second;
    }
    for (const auto& [i, v] : others_) {
      if (!internal::GoCompare(*v, k).has_value()) return std::nullopt;
    }
    return -1;
  }

 private:
  const Json& KeyOf(const Json& item) const {
    if (!by_key_) return item;
    if (!item.is_object()) return NullValue();
    auto it = item.find(key_);
    return it == item.end() ? NullValue() : *it;
  }

  std::string key_;
  bool by_key_;
  std::unordered_map<std::string, int> scalars_;  // first index per scalar value
  std::vector<std::pair<int, const Json*>> others_;  // maps and slices
};

struct Entry {
  Json value;
  int pos;  // index in the reference list, -1 when absent
};

// Go's "less" for normalizeSliceOrder: only two known items compare; anything unknown is "less".
bool EntryLess(const std::vector<Entry>& v, size_t i, size_t j) {
  return v[i].pos >= 0 && v[j].pos >= 0 ? v[i].pos < v[j].pos : true;
}

void InsertionSort(std::vector<Entry>& v, size_t a, size_t b) {
  for (size_t i = a + 1; i < b; ++i) {
    for (size_t j = i; j > a && EntryLess(v, j, j - 1); --j) std::swap(v[j], v[j - 1]);
  }
}

void SwapRange(std::vector<Entry>& v, size_t a, size_t b, size_t n) {
  for (size_t i = 0; i < n; ++i) std::swap(v[a + i], v[b + i]);
}

// Rotates [a, b) so that the block starting at m comes first, by block swaps.
void Rotate(std::vector<Entry>& v, size_t a, size_t m, size_t b) {
  size_t i = m - a;
  size_t j = b - m;
  while (i != j) {
    if (i > j) {
      SwapRange(v, m - i, m, j);
      i -= j;
    } else {
      SwapRange(v, m - i, m + j - i, i);
      j -= i;
    }
  }
  SwapRange(v, m - i, m, i);
}

// Merges the sorted runs [a, m) and [m, b) in place (SymMerge, Kim & Kutzner), with Go's
// choice of pivots so that inconsistent comparisons resolve the same way.
void SymMerge(std::vector<Entry>& v, size_t a, size_t m, size_t b) {
  if (m - a == 1) {
    size_t i = m, j = b;
    while (i < j) {
      size_t h = (i + j) / 2;
      if (EntryLess(v, h, a)) i = h + 1; else j = h;
    }
    for (size_t k = a; k + 1 < i; ++k) std::swap(v[k], v[k + 1]);
    return;
  }
  if (b - m == 1) {
    size_t i = a, j = m;
    while (i < j) {
      size_t h = (i + j) / 2;
      if (!EntryLess(v, m, h)) i = h + 1; else j = h;
    }
    for (size_t k = m; k > i; --k) std::swap(v[k], v[k - 1]);
    return;
  }
  size_t mid = (a + b) / 2;
  size_t n = mid + m;
  size_t start, r;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  size_t p = n - 1;
  while (start < r) {
    size_t c = (start + r) / 2;
    if (!EntryLess(v, p - c, c)) start = c + 1; else r = c;
  }
  size_t end = n - start;
  if (start < m && m < end) Rotate(v, start, m, end);
  if (a < start && start < mid) SymMerge(v, a, start, mid);
  if (mid < end && end < b) SymMerge(v, mid, end, b);
}

void GoStableSort(std::vector<Entry>& v) {
  const size_t n = v.size();
  size_t block = 20;
  size_t a = 0, b = block;
  for (; b <= n; a = b, b += block) InsertionSort(v, a, b);
  InsertionSort(v, a, n);
  for (; block < n; block *= 2) {
    a = 0;
    for (b = 2 * block; b <= n; a = b, b += 2 * block) SymMerge(v, a, a + block, b);
    if (a + block < n) SymMerge(v, a, a + block, n);
  }
}

Status ValidateMergeKeys(const std::string& key, const Json& list) {
  for (const Json& item : list) {
    if (!item.is_object()) return BadArgType("map[string]interface {}", item);
    if (!item.contains(key)) return NoMergeKey(item, key);
  }
  return Status::OK();
}

// Sorts `items` by their position in `order`; for maps, $patch:delete items go last.
Status SortByOrder(Json& items, const Json& order, const std::string& key, GoKind kind) {
  bool by_key = kind == GoKind::kMap;
  Json deletes = Json::array();
  std::vector<Entry> entries;
  PositionIndex index(order, key, by_key, /*skip_missing=*/false);
  if (by_key) {
    KUBE_RETURN_IF_ERROR(ValidateMergeKeys(key, items));
    KUBE_RETURN_IF_ERROR(ValidateMergeKeys(key, order));
  }
  for (Json& item : items) {
    if (by_key && IsDeleteItem(item)) {
      deletes.push_back(std::move(item));
    } else {
      entries.push_back({std::move(item), -1});
    }
  }
  // Go only looks positions up while comparing, and a single item is never compared.
  if (entries.size() > 1) {
    for (Entry& e : entries) {
      std::optional<int> pos = index.Find(e.value);
      if (!pos) return internal::UncomparablePanic(e.value);
      e.pos = *pos;
    }
  }
  GoStableSort(entries);
  items = Json::array();
  for (Entry& e : entries) items.push_back(std::move(e.value));
  for (Json& d : deletes) items.push_back(std::move(d));
  return Status::OK();
}

}  // namespace

bool IsDeleteItem(const Json& item) {
  if (!item.is_object()) return false;
  auto d = item.find(kDirective);
  return d != item.end() && d->is_string() && *d == "delete";
}

// normalizeElementOrder: patch items in patch order, server-only items in server order, then
// interleaved: a server-only item goes first only when both are in the server list and it came
// before there.
Status NormalizeOrder(Json patch_items, Json server_only, const Json& patch_order,
                      const Json& server_order, const std::string& key, GoKind kind, Json* out) {
  KUBE_RETURN_IF_ERROR(SortByOrder(patch_items, patch_order, key, kind));
  KUBE_RETURN_IF_ERROR(SortByOrder(server_only, server_order, key, kind));
  PositionIndex index(server_order, key, kind == GoKind::kMap, /*skip_missing=*/false);
  Json all = Json::array();
  size_t i = 0, j = 0;
  while (i < server_only.size() || j < patch_items.size()) {
    bool take_left = false;
    if (j >= patch_items.size()) {
      take_left = true;
    } else if (i < server_only.size()) {
      std::optional<int> li = index.Find(server_only[i]);
      if (!li) return internal::UncomparablePanic(server_only[i]);
      std::optional<int> ri = index.Find(patch_items[j]);
      if (!ri) return internal::UncomparablePanic(patch_items[j]);
      take_left = *li >= 0 && *ri >= 0 && *li < *ri;
    }
    all.push_back(std::move(take_left ? server_only[i++] : patch_items[j++]));
  }
  *out = std::move(all);
  return Status::OK();
}

Status PartitionPrimitives(const Json& merged, const Json& by, Json* in, Json* out) {
  std::unordered_map<std::string, bool> present;
  auto key_of = [](const Json& v) -> Result<std::string> {
    std::optional<std::string> k = internal::ScalarKey(v);
    if (!k) {
      return Status::Internal("runtime error: hash of unhashable type " +
                              std::string(internal::GoTypeName(v)));
    }
    return *k;
  };
  for (const Json& v : by) {
    Result<std::string> k = key_of(v);
    if (!k.ok()) return k.status();
    present[*k] = true;
  }
  *in = Json::array();
  *out = Json::array();
  for (const Json& v : merged) {
    Result<std::string> k = key_of(v);
    if (!k.ok()) return k.status();
    (present.count(*k) ? in : out)->push_back(v);
  }
  return Status::OK();
}

Status PartitionMaps(const Json& merged, const Json& by, const std::string& key, Json* in,
                     Json* out) {
  PositionIndex index(by, key, /*by_key=*/true, /*skip_missing=*/true);
  int first_non_map = -1;
  for (size_t i = 0; i < by.size() && first_non_map < 0; ++i) {
    if (!by[i].is_object()) first_non_map = static_cast<int>(i);
  }
  *in = Json::array();
  *out = Json::array();
  for (const Json& v : merged) {
    if (!v.is_object()) return BadArgType("map[string]interface {}", v);
    if (!v.contains(key)) return NoMergeKey(v, key);
    std::optional<int> lookup = index.Find(v);
    if (!lookup) return internal::UncomparablePanic(v);
    int found = *lookup;
    // Upstream scans `by` in order and fails on the first non-map it meets before a match.
    if (first_non_map >= 0 && (found < 0 || first_non_map < found)) {
      return Status::Unknown("value for key " + std::to_string(first_non_map) + " is not a map");
    }
    (found >= 0 ? in : out)->push_back(v);
  }
  return Status::OK();
}

}  // namespace kube::patch::smp
