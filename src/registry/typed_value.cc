#include "registry/typed_value.h"

#include <algorithm>
#include <map>
#include <optional>

#include "registry/typed_nodes.h"

namespace kube::registry {

using nlohmann::json;
using catalogue::Schema;
using namespace typed;

namespace {

// --- field sets, built bottom-up: a walk fills the set of paths below its node and says whether
// the node itself is a member.

bool CollectNode(const Schema* s, const json& v, At at, FieldSet* below) {
  const Shape shape = ShapeOf(s, v);
  if (!Granular(shape) || !Fits(shape, v)) return true;
  if (v.is_null()) return false;
  if (!IsList(shape)) {
    // Object members come in key order, which is the order of their path elements.
    for (const auto& [k, item] : v.items()) {
      if (Skipped(at, k)) continue;
      FieldSet sub;
      const bool leaf = CollectNode(ChildSchema(s, shape, k), item, Below(at, k), &sub);
      const bool member = leaf || item.is_null() || (item.is_object() && item.empty()) || !Declared(s, shape, k);
      if (member) below->AddMember(PathElement::Field(k));
      if (!sub.Empty()) below->AddChild(PathElement::Field(k), std::move(sub));
    }
    return false;
  }
  const Entries entries = IndexEntries(s, shape, &v);
  for (const auto& e : entries.order) {
    const auto& items = entries.items.at(e);
    // A repeated entry is owned as a whole.
    FieldSet sub;
    if (items.size() == 1) CollectNode(s->Items(), *items[0], At::kInner, &sub);
    below->AddMember(e);
    if (!sub.Empty()) below->AddChild(e, std::move(sub));
  }
  below->Sort();
  return false;
}

// --- comparison, bottom-up like the field sets.

enum class Change : uint8_t { kNone, kAdded, kRemoved, kModified };

Change CompareNode(const Schema* s, const json* l, const json* r, At at, Comparison* below);

// Records a child's comparison under its element.
void AddChange(Comparison* below, const PathElement& e, Change change, Comparison&& sub) {
  if (change == Change::kAdded) below->added.AddMember(e);
  if (change == Change::kRemoved) below->removed.AddMember(e);
  if (change == Change::kModified) below->modified.AddMember(e);
  if (!sub.added.Empty()) below->added.AddChild(e, std::move(sub.added));
  if (!sub.removed.Empty()) below->removed.AddChild(e, std::move(sub.removed));
  if (!sub.modified.Empty()) below->modified.AddChild(e, std::move(sub.modified));
}

void CompareList(const Schema* s, Shape shape, const json* l, const json* r, Comparison* below) {
  const Entries le = IndexEntries(s, shape, l), re = IndexEntries(s, shape, r);
  std::vector<PathElement> order = le.order;
  for (const auto& e : re.order) {
    if (!le.items.contains(e)) order.push_back(e);
  }
  static const std::vector<const json*> kNone;
  for (const auto& e : order) {
    auto li = le.items.find(e), ri = re.items.find(e);
    const auto& lv = li == le.items.end() ? kNone : li->second;
    const auto& rv = ri == re.items.end() ? kNone : ri->second;
    Comparison sub;
    Change change = Change::kNone;
    if (lv.size() == 1 && rv.size() == 1 && *lv[0] == *rv[0]) {
      continue;
    } else if (lv.size() <= 1 && rv.size() <= 1) {
      change = CompareNode(s->Items(), lv.empty() ? nullptr : lv[0], rv.empty() ? nullptr : rv[0], At::kInner, &sub);
    } else if (lv.size() >= 2 && rv.size() >= 2) {
      bool same = lv.size() == rv.size();
      for (size_t i = 0; same && i < lv.size(); ++i) same = *lv[i] == *rv[i];
      if (!same) change = Change::kModified;
    } else if (lv.size() >= 2) {
      if (!rv.empty()) CompareNode(s->Items(), nullptr, rv[0], At::kInner, &sub);
      change = Change::kRemoved;
    } else {
      if (!lv.empty()) CompareNode(s->Items(), lv[0], nullptr, At::kInner, &sub);
      change = Change::kAdded;
    }
    AddChange(below, e, change, std::move(sub));
  }
  below->added.Sort();
  below->removed.Sort();
  below->modified.Sort();
}

Change CompareNode(const Schema* s, const json* l, const json* r, At at, Comparison* below) {
  const json& sample = r != nullptr ? *r : *l;
  const Shape shape = ShapeOf(s, sample);
  const bool leaf = !Granular(shape) || (l != nullptr && !Fits(shape, *l)) || (r != nullptr && !Fits(shape, *r)) ||
                    (EmptyContainer(l) && EmptyContainer(r));
  if (leaf) {
    if (l == nullptr) return Change::kAdded;
    if (r == nullptr) return Change::kRemoved;
    return *l != *r ? Change::kModified : Change::kNone;
  }
  if (IsList(shape)) {
    CompareList(s, shape, l, r, below);
  } else {
    static const json kEmpty = json::object();
    const json& lo = l != nullptr && l->is_object() ? *l : kEmpty;
    const json& ro = r != nullptr && r->is_object() ? *r : kEmpty;
    auto a = lo.begin(), b = ro.begin();
    while (a != lo.end() || b != ro.end()) {
      const bool take_a = b == ro.end() || (a != lo.end() && a.key() <= b.key());
      const bool take_b = a == lo.end() || (b != ro.end() && b.key() <= a.key());
      const std::string& key = take_a ? a.key() : b.key();
      // Equal subtrees hold no change: most of an updated object is.
      const bool equal = take_a && take_b && a.value() == b.value();
      if (!equal && !Skipped(at, key)) {
        Comparison sub;
        const Change change = CompareNode(ChildSchema(s, shape, key), take_a ? &a.value() : nullptr,
                                          take_b ? &b.value() : nullptr, Below(at, key), &sub);
        AddChange(below, PathElement::Field(key), change, std::move(sub));
      }
      if (take_a) ++a;
      if (take_b) ++b;
    }
  }
  if (l == nullptr) return Change::kAdded;
  return r == nullptr ? Change::kRemoved : Change::kNone;
}

// --- merge, in place into the live value

void MergeInto(const Schema* s, json* l, const json& r, At at);

void MergeList(const Schema* s, Shape shape, json* l, const json& r) {
  const Entries re = IndexEntries(s, shape, &r);
  // The live entries in order, repeated ones included; a repeated one merges as null.
  std::vector<std::pair<PathElement, json*>> lhs;
  std::map<PathElement, json*> observed_l;
  static const json kNull;
  json repeated = nullptr;
  if (l->is_array()) {
    for (auto& item : *l) {
      auto e = EntryElement(s, shape, item);
      if (!e.ok()) continue;
      auto [it, fresh] = observed_l.try_emplace(*e, &item);
      if (!fresh) it->second = &repeated;
      lhs.emplace_back(std::move(*e), &item);
    }
  }
  // The entries both have, in the applied order: the live ones move to their place.
  std::vector<const PathElement*> shared;
  for (const auto& e : re.order) {
    if (observed_l.contains(e)) shared.push_back(&e);
  }
  size_t next_shared = 0;
  auto shared_at = [&]() -> const PathElement* { return next_shared < shared.size() ? shared[next_shared] : nullptr; };
  auto merged_entry = [&](const PathElement& e) {
    const json& config = *re.items.at(e)[0];
    auto it = observed_l.find(e);
    if (it == observed_l.end()) return config;
    json out = std::move(*it->second);
    MergeInto(s->Items(), &out, config, At::kInner);
    return out;
  };
  std::map<PathElement, bool> merged;
  auto was_merged = [&](const PathElement& e) { return merged.contains(e); };
  json out = json::array();
  size_t li = 0, ri = 0;
  while (li < lhs.size() || ri < re.order.size()) {
    if (li < lhs.size() && ri < re.order.size()) {
      const PathElement& e = lhs[li].first;
      if (e == re.order[ri]) {
        merged[e] = true;
        out.push_back(merged_entry(e));
        ++li, ++ri;
        ++next_shared;
        continue;
      }
      if (re.items.contains(e) && shared_at() != nullptr && !(*shared_at() == e)) {
        ++li;
        continue;
      }
    }
    if (li < lhs.size()) {
      const PathElement& e = lhs[li].first;
      if (!re.items.contains(e)) {
        out.push_back(std::move(*lhs[li].second));
        ++li;
        continue;
      }
      if (was_merged(e)) ++li;
    }
    if (ri < re.order.size()) {
      const PathElement& e = re.order[ri];
      merged[e] = true;
      out.push_back(merged_entry(e));
      ++ri;
      if (shared_at() != nullptr && *shared_at() == e) ++next_shared;
    }
  }
  *l = std::move(out);
}

void MergeInto(const Schema* s, json* l, const json& r, At at) {
  const Shape shape = ShapeOf(s, r);
  if (!Granular(shape) || !Fits(shape, *l) || !Fits(shape, r) || (EmptyContainer(l) && EmptyContainer(&r))) {
    *l = r;
    return;
  }
  if (IsList(shape)) return MergeList(s, shape, l, r);
  if (!l->is_object()) *l = json::object();
  if (!r.is_object()) return;
  for (const auto& [k, item] : r.items()) {
    if (Skipped(at, k)) continue;
    auto it = l->find(k);
    if (it == l->end()) {
      (*l)[k] = item;
    } else if (*it != item) {
      MergeInto(ChildSchema(s, shape, k), &*it, item, Below(at, k));
    }
  }
}

// --- removal

bool OwnsNode(const FieldSet* set, const PathElement& e, bool named) {
  if (set == nullptr) return false;
  if (set->HasMember(e)) return true;
  const FieldSet* child = set->Child(e);
  return named && child != nullptr && !child->Empty();
}

// Returns whether `v` was emptied by removals (its parent then drops it).
bool RemoveNode(const Schema* s, json* v, At at, const FieldSet& last, const std::vector<const FieldSet*>& owners) {
  const Shape shape = ShapeOf(s, *v);
  if (!Granular(shape) || !Fits(shape, *v) || v->is_null() || v->empty()) return false;
  // true: the child goes
  auto judge = [&](const PathElement& e, const Schema* child_schema, json* child, At child_at, bool named) {
    bool owned = false;
    for (const FieldSet* o : owners) owned = owned || OwnsNode(o, e, named);
    if (OwnsNode(&last, e, named) && !owned) return true;
    const FieldSet* below = last.Child(e);
    if (below == nullptr) return false;
    std::vector<const FieldSet*> owners_below;
    for (const FieldSet* o : owners) {
      if (const FieldSet* c = o != nullptr ? o->Child(e) : nullptr) owners_below.push_back(c);
    }
    return RemoveNode(child_schema, child, child_at, *below, owners_below);
  };
  bool removed_any = false;
  if (!IsList(shape)) {
    for (auto it = v->begin(); it != v->end();) {
      const std::string key = it.key();
      if (!Skipped(at, key) &&
          judge(PathElement::Field(key), ChildSchema(s, shape, key), &it.value(), Below(at, key), Declared(s, shape, key))) {
        it = v->erase(it);
        removed_any = true;
      } else {
        ++it;
      }
    }
  } else {
    json kept = json::array();
    for (auto& item : *v) {
      auto e = EntryElement(s, shape, item);
      if (e.ok() && judge(*e, s->Items(), &item, At::kInner, false)) {
        removed_any = true;
        continue;
      }
      kept.push_back(std::move(item));
    }
    *v = std::move(kept);
  }
  return removed_any && v->empty();
}

}  // namespace

FieldSet FieldsOfValue(const Schema* schema, const json& value) {
  FieldSet out;
  CollectNode(schema, value, At::kRoot, &out);
  return out;
}

Comparison CompareValues(const Schema* schema, const json& lhs, const json& rhs) {
  Comparison out;
  CompareNode(schema, &lhs, &rhs, At::kRoot, &out);
  return out;
}

json MergeValues(const Schema* schema, json lhs, const json& rhs) {
  MergeInto(schema, &lhs, rhs, At::kRoot);
  return lhs;
}

void RemoveUnowned(const Schema* schema, json* value, const FieldSet& last, const std::vector<const FieldSet*>& owners) {
  RemoveNode(schema, value, At::kRoot, last, owners);
}

}  // namespace kube::registry
