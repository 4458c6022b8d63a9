#include "registry/typed_value.h"

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

// --- validation

struct Validator {
  bool allow_duplicates = false;
  std::vector<std::string> errors;

  void Error(const std::string& path, const std::string& message) {
    errors.push_back(path.empty() ? message : path + ": " + message);
  }

  void Scalar(const Schema* s, const json& v, const std::string& path) {
    if (s == nullptr || v.is_null()) return;
    switch (s->type()) {
      case Schema::Type::kString:
      case Schema::Type::kTime:
        if (!v.is_string()) Error(path, "expected string, got &value.valueUnstructured{Value:" + GoSharpV(v) + "}");
        break;
      case Schema::Type::kInteger:
      case Schema::Type::kNumber:
        if (!v.is_number()) Error(path, "expected numeric (int or float), got " + GoType(v));
        break;
      case Schema::Type::kBoolean:
        if (!v.is_boolean()) Error(path, "expected boolean, got &{" + GoV(v) + "}");
        break;
      default:
        if (v.is_object() || v.is_array()) Error(path, "expected any scalar, got &{" + GoV(v) + "}");
    }
  }

  void Walk(const Schema* s, const json& v, const std::string& path) {
    if (v.is_null()) return;
    const Shape shape = ShapeOf(s, v);
    if (s == nullptr || s->type() == Schema::Type::kAny) {
      if (v.is_object()) {
        for (const auto& [k, item] : v.items()) Walk(nullptr, item, path + "." + k);
      }
      return;
    }
    const Schema::Type type = s->type();
    if (type == Schema::Type::kObject || type == Schema::Type::kMap) {
      if (!v.is_object()) return Error(path, "expected map, got &{" + GoV(v) + "}");
      for (const auto& [k, item] : v.items()) {
        const Schema* child = type == Schema::Type::kObject ? s->Field(k) : s->Items();
        if (child == nullptr && type == Schema::Type::kObject && !s->PreserveUnknownFields()) {
          // smd stops at the first field a struct does not declare.
          return Error(path + "." + k, "field not declared in schema");
        }
        Walk(child, item, path + "." + k);
      }
      return;
    }
    if (type == Schema::Type::kArray) {
      if (!v.is_array()) return Error(path, "expected list, got &{" + GoV(v) + "}");
      std::map<PathElement, bool> seen;
      for (size_t i = 0; i < v.size(); ++i) {
        std::string item_path = path + "[" + std::to_string(i) + "]";
        if (IsList(shape)) {
          auto e = EntryElement(s, shape, v[i]);
          if (!e.ok()) return Error(path, "element " + std::to_string(i) + ": " + e.status().message());
          if (seen.contains(*e) && !allow_duplicates) Error(path, "duplicate entries for key " + e->String());
          seen[*e] = true;
          item_path = path + e->String();
        }
        Walk(s->Items(), v[i], item_path);
      }
      return;
    }
    Scalar(s, v, path);
  }
};

// --- field sets

void CollectFields(const Schema* s, const json& v, FieldPath* path, FieldSet* out) {
  const Shape shape = ShapeOf(s, v);
  if (!Granular(shape) || !Fits(shape, v)) {
    out->Insert(*path);
    return;
  }
  if (v.is_null()) return;
  if (!IsList(shape)) {
    for (const auto& [k, item] : v.items()) {
      path->push_back(PathElement::Field(k));
      CollectFields(ChildSchema(s, shape, k), item, path, out);
      if (item.is_null() || (item.is_object() && item.empty()) || !Declared(s, shape, k)) out->Insert(*path);
      path->pop_back();
    }
    return;
  }
  const Entries entries = IndexEntries(s, shape, &v);
  for (const auto& e : entries.order) {
    const auto& items = entries.items.at(e);
    path->push_back(e);
    // A repeated entry is owned as a whole.
    if (items.size() == 1) CollectFields(s->Items(), *items[0], path, out);
    out->Insert(*path);
    path->pop_back();
  }
}

// --- comparison

void CompareNode(const Schema* s, const json* l, const json* r, FieldPath* path, Comparison* out) {
  const json& sample = r != nullptr ? *r : *l;
  const Shape shape = ShapeOf(s, sample);
  bool leaf = !Granular(shape) || (l != nullptr && !Fits(shape, *l)) || (r != nullptr && !Fits(shape, *r)) ||
              (EmptyContainer(l) && EmptyContainer(r));
  if (leaf) {
    if (l == nullptr) {
      out->added.Insert(*path);
    } else if (r == nullptr) {
      out->removed.Insert(*path);
    } else if (*l != *r) {
      out->modified.Insert(*path);
    }
    return;
  }
  if (!IsList(shape)) {
    static const json kEmpty = json::object();
    const json& lo = l != nullptr && l->is_object() ? *l : kEmpty;
    const json& ro = r != nullptr && r->is_object() ? *r : kEmpty;
    auto a = lo.begin(), b = ro.begin();
    while (a != lo.end() || b != ro.end()) {
      const bool take_a = b == ro.end() || (a != lo.end() && a.key() <= b.key());
      const bool take_b = a == lo.end() || (b != ro.end() && b.key() <= a.key());
      const std::string& key = take_a ? a.key() : b.key();
      path->push_back(PathElement::Field(key));
      CompareNode(ChildSchema(s, shape, key), take_a ? &a.value() : nullptr, take_b ? &b.value() : nullptr, path, out);
      path->pop_back();
      if (take_a) ++a;
      if (take_b) ++b;
    }
  } else {
    const Entries le = IndexEntries(s, shape, l), re = IndexEntries(s, shape, r);
    std::vector<PathElement> order = le.order;
    for (const auto& e : re.order) {
      if (!le.items.contains(e)) order.push_back(e);
    }
    for (const auto& e : order) {
      static const std::vector<const json*> kNone;
      auto li = le.items.find(e), ri = re.items.find(e);
      const auto& lv = li == le.items.end() ? kNone : li->second;
      const auto& rv = ri == re.items.end() ? kNone : ri->second;
      path->push_back(e);
      if (lv.size() <= 1 && rv.size() <= 1) {
        CompareNode(s->Items(), lv.empty() ? nullptr : lv[0], rv.empty() ? nullptr : rv[0], path, out);
      } else if (lv.size() >= 2 && rv.size() >= 2) {
        bool same = lv.size() == rv.size();
        for (size_t i = 0; same && i < lv.size(); ++i) same = *lv[i] == *rv[i];
        if (!same) out->modified.Insert(*path);
      } else if (lv.size() >= 2) {
        if (!rv.empty()) CompareNode(s->Items(), nullptr, rv[0], path, out);
        out->removed.Insert(*path);
      } else {
        if (!lv.empty()) CompareNode(s->Items(), lv[0], nullptr, path, out);
        out->added.Insert(*path);
      }
      path->pop_back();
    }
  }
  if (l == nullptr) {
    out->added.Insert(*path);
  } else if (r == nullptr) {
    out->removed.Insert(*path);
  }
}

// --- merge

json MergeNode(const Schema* s, const json* l, const json* r);

json MergeList(const Schema* s, Shape shape, const json* l, const json* r) {
  static const json kNull;
  const Entries re = IndexEntries(s, shape, r);
  // The live entries in order, repeated ones included; a repeated one merges as null.
  std::vector<std::pair<PathElement, const json*>> lhs;
  std::map<PathElement, const json*> observed_l;
  if (l != nullptr && l->is_array()) {
    for (const auto& item : *l) {
      auto e = EntryElement(s, shape, item);
      if (!e.ok()) continue;
      auto [it, fresh] = observed_l.try_emplace(*e, &item);
      if (!fresh) it->second = &kNull;
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
  auto live_of = [&](const PathElement& e) -> const json* {
    auto it = observed_l.find(e);
    return it == observed_l.end() ? nullptr : it->second;
  };
  std::map<PathElement, bool> merged;
  json out = json::array();
  size_t li = 0, ri = 0;
  while (li < lhs.size() || ri < re.order.size()) {
    if (li < lhs.size() && ri < re.order.size()) {
      const PathElement& e = lhs[li].first;
      if (e == re.order[ri]) {
        merged[e] = true;
        out.push_back(MergeNode(s->Items(), live_of(e), re.items.at(e)[0]));
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
        out.push_back(*lhs[li].second);
        ++li;
        continue;
      }
      if (merged.contains(e)) ++li;
    }
    if (ri < re.order.size()) {
      const PathElement& e = re.order[ri];
      merged[e] = true;
      out.push_back(MergeNode(s->Items(), live_of(e), re.items.at(e)[0]));
      ++ri;
      if (shared_at() != nullptr && *shared_at() == e) ++next_shared;
    }
  }
  return out;
}

json MergeNode(const Schema* s, const json* l, const json* r) {
  if (r == nullptr) return *l;
  if (l == nullptr) return *r;
  const Shape shape = ShapeOf(s, *r);
  if (!Granular(shape) || !Fits(shape, *l) || !Fits(shape, *r) || (EmptyContainer(l) && EmptyContainer(r))) {
    return *r;
  }
  if (IsList(shape)) return MergeList(s, shape, l, r);
  json out = l->is_object() ? *l : json::object();
  if (r->is_object()) {
    for (const auto& [k, item] : r->items()) {
      auto it = out.find(k);
      out[k] = MergeNode(ChildSchema(s, shape, k), it == out.end() ? nullptr : &*it, &item);
    }
  }
  return out;
}

// --- removal

bool OwnsNode(const FieldSet* set, const PathElement& e, bool named) {
  if (set == nullptr) return false;
  if (set->HasMember(e)) return true;
  const FieldSet* child = set->Child(e);
  return named && child != nullptr && !child->Empty();
}

// Returns whether `v` was emptied by removals (its parent then drops it).
bool RemoveNode(const Schema* s, json* v, const FieldSet& last, const std::vector<const FieldSet*>& owners) {
  const Shape shape = ShapeOf(s, *v);
  if (!Granular(shape) || !Fits(shape, *v) || v->is_null() || v->empty()) return false;
  auto judge = [&](const PathElement& e, const Schema* child_schema, json* child, bool named) {
    // true: remove the child
    bool owned = false;
    for (const FieldSet* o : owners) owned = owned || OwnsNode(o, e, named);
    if (OwnsNode(&last, e, named) && !owned) return true;
    const FieldSet* below = last.Child(e);
    if (below == nullptr) return false;
    std::vector<const FieldSet*> owners_below;
    for (const FieldSet* o : owners) {
      if (const FieldSet* c = o != nullptr ? o->Child(e) : nullptr) owners_below.push_back(c);
    }
    return RemoveNode(child_schema, child, *below, owners_below);
  };
  bool removed_any = false;
  if (!IsList(shape)) {
    for (auto it = v->begin(); it != v->end();) {
      const std::string key = it.key();
      if (judge(PathElement::Field(key), ChildSchema(s, shape, key), &it.value(), Declared(s, shape, key))) {
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
      if (e.ok() && judge(*e, s->Items(), &item, false)) {
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
  v.Walk(schema, value, "");
  if (v.errors.empty()) return Status::OK();
  if (v.errors.size() == 1) return Status::BadRequest(v.errors[0]);
  std::string message = "errors:";
  for (const auto& e : v.errors) message += "\n  " + e;
  return Status::BadRequest(message);
}

FieldSet FieldsOfValue(const Schema* schema, const json& value) {
  FieldSet out;
  FieldPath path;
  CollectFields(schema, value, &path, &out);
  return out;
}

Comparison CompareValues(const Schema* schema, const json& lhs, const json& rhs) {
  Comparison out;
  FieldPath path;
  CompareNode(schema, &lhs, &rhs, &path, &out);
  return out;
}

json MergeValues(const Schema* schema, const json& lhs, const json& rhs) { return MergeNode(schema, &lhs, &rhs); }

void RemoveUnowned(const Schema* schema, json* value, const FieldSet& last, const std::vector<const FieldSet*>& owners) {
  RemoveNode(schema, value, last, owners);
}

}  // namespace kube::registry
