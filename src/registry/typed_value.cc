#include "registry/typed_value.h"

#include <algorithm>
#include <map>
#include <optional>

#include "util/go_format.h"

namespace kube::registry {

using nlohmann::json;
using catalogue::Schema;

namespace {

enum class Shape { kScalar, kAtomic, kStruct, kMap, kSet, kListMap };

// How a node merges. A null schema (free-form, preserve-unknown, unknown) is deduced from the
// value: objects are maps, lists atomic.
Shape ShapeOf(const Schema* s, const json& sample) {
  if (s == nullptr || s->type() == Schema::Type::kAny) {
    if (sample.is_object()) return Shape::kMap;
    return sample.is_array() ? Shape::kAtomic : Shape::kScalar;
  }
  switch (s->type()) {
    case Schema::Type::kObject:
      return s->MapType() == "atomic" ? Shape::kAtomic : Shape::kStruct;
    case Schema::Type::kMap:
      return s->MapType() == "atomic" ? Shape::kAtomic : Shape::kMap;
    case Schema::Type::kArray: {
      const std::string_view type = s->ListType();
      if (type == "map") return Shape::kListMap;
      if (type == "set") return Shape::kSet;
      if (type.empty() && s->PatchStrategy().find("merge") != std::string_view::npos) {
        // kube's fallback for built-in lists the OpenAPI gives no list type: their patch strategy.
        return s->PatchMergeKey().empty() ? Shape::kSet : Shape::kListMap;
      }
      return Shape::kAtomic;
    }
    default:
      return Shape::kScalar;
  }
}

bool Granular(Shape shape) { return shape != Shape::kScalar && shape != Shape::kAtomic; }
bool IsList(Shape shape) { return shape == Shape::kSet || shape == Shape::kListMap; }

// Whether a present value has the JSON form the shape needs (null fits anything).
bool Fits(Shape shape, const json& v) {
  if (v.is_null() || shape == Shape::kAtomic) return true;
  if (shape == Shape::kScalar) return !v.is_object() && !v.is_array();
  return IsList(shape) ? v.is_array() : v.is_object();
}

bool EmptyContainer(const json* v) { return v == nullptr || v->is_null() || ((v->is_object() || v->is_array()) && v->empty()); }

// The schema of a struct field, map value or list item; null when deduced.
const Schema* ChildSchema(const Schema* s, Shape shape, const std::string& key) {
  if (s == nullptr || s->type() == Schema::Type::kAny) return nullptr;
  if (shape == Shape::kStruct) return s->Field(key);
  return s->Items();
}

// A struct's declared field (smd's named fields); map keys and unknown fields are not.
bool Declared(const Schema* s, Shape shape, const std::string& key) {
  return shape == Shape::kStruct && s != nullptr && s->Field(key) != nullptr;
}

std::vector<std::string> ListKeys(const Schema* s) {
  if (!s->ListType().empty()) return s->ListMapKeys();
  return {std::string(s->PatchMergeKey())};
}

// The default of a list-map key field an entry leaves out, or null.
json KeyDefault(const Schema* item, const std::string& key) {
  const Schema* field = item != nullptr && item->type() == Schema::Type::kObject ? item->Field(key) : nullptr;
  if (field != nullptr && field->Default() != nullptr) return *field->Default();
  // kube's built-in ports default their protocol (a +default the catalogue's OpenAPI lacks).
  if (key == "protocol" && item != nullptr && item->definition().starts_with("io.k8s.api.")) return "TCP";
  return nullptr;
}

std::string GoQuotedList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? " " : "") + GoQuote(items[i]);
  return out + "]";
}

// smd's path element of a list entry, or its error.
Result<PathElement> EntryElement(const Schema* list, Shape shape, const json& item) {
  if (shape == Shape::kListMap) {
    if (item.is_null()) return Status::BadRequest("associative list with keys may not have a null element");
    if (!item.is_object()) return Status::BadRequest("associative list with keys may not have non-map elements");
    const std::vector<std::string> keys = ListKeys(list);
    json fields = json::object();
    for (const auto& key : keys) {
      if (auto it = item.find(key); it != item.end()) {
        fields[key] = *it;
      } else if (json def = KeyDefault(list->Items(), key); !def.is_null()) {
        fields[key] = std::move(def);
      }
    }
    if (!keys.empty() && fields.empty()) {
      return Status::BadRequest("associative list with keys has an element that omits all key fields " +
                                GoQuotedList(keys) + " (and doesn't have default values for any key fields)");
    }
    return PathElement::Key(std::move(fields));
  }
  if (item.is_object()) return Status::BadRequest("associative list without keys has an element that's a map type");
  if (item.is_array()) return Status::BadRequest("not supported: associative list with lists as elements");
  if (item.is_null()) return Status::BadRequest("associative list without keys has an element that's an explicit null");
  return PathElement::Value(item);
}

// The entries of a list by path element, in order of first appearance; entries without a valid
// element are left out.
struct Entries {
  std::vector<PathElement> order;
  std::map<PathElement, std::vector<const json*>> items;
};
Entries IndexEntries(const Schema* list, Shape shape, const json* value) {
  Entries out;
  if (value == nullptr || !value->is_array()) return out;
  for (const auto& item : *value) {
    auto e = EntryElement(list, shape, item);
    if (!e.ok()) continue;
    auto [it, fresh] = out.items.try_emplace(*e);
    if (fresh) out.order.push_back(*e);
    it->second.push_back(&item);
  }
  return out;
}

// --- Go's renderings of a decoded value, for smd's messages.

std::string GoV(const json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return GoFormatFloat(v.get<double>());
  std::string out;
  if (v.is_array()) {
    for (const auto& item : v) out += (out.empty() ? "" : " ") + GoV(item);
    return "[" + out + "]";
  }
  for (const auto& [k, item] : v.items()) out += (out.empty() ? "" : " ") + k + ":" + GoV(item);
  return "map[" + out + "]";
}

std::string GoSharpV(const json& v) {
  if (v.is_null()) return "interface {}(nil)";
  if (v.is_string()) return GoQuote(v.get<std::string>());
  if (v.is_boolean() || v.is_number()) return GoV(v);
  std::string out;
  if (v.is_array()) {
    for (const auto& item : v) out += (out.empty() ? "" : ", ") + GoSharpV(item);
    return "[]interface {}{" + out + "}";
  }
  for (const auto& [k, item] : v.items()) out += (out.empty() ? "" : ", ") + GoQuote(k) + ":" + GoSharpV(item);
  return "map[string]interface {}{" + out + "}";
}

std::string GoType(const json& v) {
  if (v.is_null()) return "<nil>";
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "float64";
  return v.is_array() ? "[]interface {}" : "map[string]interface {}";
}

// Where a walk is: the object root, the root's metadata (whose managedFields no walk touches), or
// anywhere else.
enum class At : uint8_t { kRoot, kRootMetadata, kInner };
At Below(At at, const std::string& key) { return at == At::kRoot && key == "metadata" ? At::kRootMetadata : At::kInner; }
bool Skipped(At at, const std::string& key) { return at == At::kRootMetadata && key == "managedFields"; }

// --- validation

struct Validator {
  bool allow_duplicates = false;
  std::vector<std::string> errors;
  // The path to the current node, rendered only for an error.
  struct Step {
    const std::string* field = nullptr;
    const PathElement* entry = nullptr;
    size_t index = 0;
  };
  std::vector<Step> path;

  void Error(const std::string& message) {
    std::string where;
    for (const Step& step : path) {
      if (step.field != nullptr) {
        where += "." + *step.field;
      } else if (step.entry != nullptr) {
        where += step.entry->String();
      } else {
        where += "[" + std::to_string(step.index) + "]";
      }
    }
    errors.push_back(where.empty() ? message : where + ": " + message);
  }

  void Scalar(const Schema* s, const json& v) {
    switch (s->type()) {
      case Schema::Type::kString:
      case Schema::Type::kTime:
        if (!v.is_string()) Error("expected string, got &value.valueUnstructured{Value:" + GoSharpV(v) + "}");
        break;
      case Schema::Type::kInteger:
      case Schema::Type::kNumber:
        if (!v.is_number()) Error("expected numeric (int or float), got " + GoType(v));
        break;
      case Schema::Type::kBoolean:
        if (!v.is_boolean()) Error("expected boolean, got &{" + GoV(v) + "}");
        break;
      default:
        if (v.is_object() || v.is_array()) Error("expected any scalar, got &{" + GoV(v) + "}");
    }
  }

  void Walk(const Schema* s, const json& v, At at) {
    if (v.is_null() || s == nullptr || s->type() == Schema::Type::kAny) return;  // deduced: anything goes
    const Schema::Type type = s->type();
    if (type == Schema::Type::kObject || type == Schema::Type::kMap) {
      if (!v.is_object()) return Error("expected map, got &{" + GoV(v) + "}");
      for (const auto& [k, item] : v.items()) {
        if (Skipped(at, k)) continue;
        const Schema* child = type == Schema::Type::kObject ? s->Field(k) : s->Items();
        path.push_back({.field = &k});
        if (child == nullptr && type == Schema::Type::kObject && !s->PreserveUnknownFields()) {
          // smd stops at the first field a struct does not declare.
          Error("field not declared in schema");
          path.pop_back();
          return;
        }
        Walk(child, item, Below(at, k));
        path.pop_back();
      }
      return;
    }
    if (type == Schema::Type::kArray) {
      if (!v.is_array()) return Error("expected list, got &{" + GoV(v) + "}");
      const Shape shape = ShapeOf(s, v);
      std::vector<PathElement> seen;
      for (size_t i = 0; i < v.size(); ++i) {
        std::optional<PathElement> e;
        if (IsList(shape)) {
          auto element = EntryElement(s, shape, v[i]);
          if (!element.ok()) return Error("element " + std::to_string(i) + ": " + element.status().message());
          e = std::move(*element);
          if (!allow_duplicates && std::find(seen.begin(), seen.end(), *e) != seen.end()) {
            Error("duplicate entries for key " + e->String());
          }
          seen.push_back(*e);
        }
        path.push_back(e ? Step{.entry = &*e} : Step{.index = i});
        Walk(s->Items(), v[i], At::kInner);
        path.pop_back();
      }
      return;
    }
    Scalar(s, v);
  }
};

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

Status ValidateTyped(const Schema* schema, const json& value, bool allow_duplicates) {
  Validator v{.allow_duplicates = allow_duplicates};
  v.Walk(schema, value, At::kRoot);
  if (v.errors.empty()) return Status::OK();
  if (v.errors.size() == 1) return Status::BadRequest(v.errors[0]);
  std::string message = "errors:";
  for (const auto& e : v.errors) message += "\n  " + e;
  return Status::BadRequest(message);
}

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
