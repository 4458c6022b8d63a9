#include "registry/typed_nodes.h"

#include "util/go_format.h"

namespace kube::registry::typed {

using nlohmann::json;
using catalogue::Schema;

namespace {

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

}  // namespace

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

bool Fits(Shape shape, const json& v) {
  if (v.is_null() || shape == Shape::kAtomic) return true;
  if (shape == Shape::kScalar) return !v.is_object() && !v.is_array();
  return IsList(shape) ? v.is_array() : v.is_object();
}

bool EmptyContainer(const json* v) { return v == nullptr || v->is_null() || ((v->is_object() || v->is_array()) && v->empty()); }

const Schema* ChildSchema(const Schema* s, Shape shape, const std::string& key) {
  if (s == nullptr || s->type() == Schema::Type::kAny) return nullptr;
  if (shape == Shape::kStruct) return s->Field(key);
  return s->Items();
}

bool Declared(const Schema* s, Shape shape, const std::string& key) {
  return shape == Shape::kStruct && s != nullptr && s->Field(key) != nullptr;
}

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

}  // namespace kube::registry::typed
