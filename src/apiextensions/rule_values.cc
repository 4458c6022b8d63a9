#include "apiextensions/rule_values.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "apiextensions/cel_schema_types.h"
#include "cel/cel.h"
#include "protobuf/well_known.h"

namespace kube::apiextensions {

namespace {

using json = nlohmann::json;
using schema::Schema;

// JSON → CEL as cel::FromJson, except that strings (values and keys) borrow the document's text.
cel::Value BorrowJson(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return cel::Value::BorrowedString(v.get_ref<const std::string&>());
    case json::value_t::array: {
      cel::ValueList items;
      items.reserve(v.size());
      for (const auto& x : v) items.push_back(BorrowJson(x));
      return cel::Value::List(std::move(items));
    }
    case json::value_t::object: {
      cel::MapEntries entries;
      entries.reserve(v.size());
      for (auto it = v.begin(); it != v.end(); ++it) entries.emplace_back(cel::Value::BorrowedString(it.key()), BorrowJson(*it));
      return cel::Value::Map(std::move(entries));
    }
    default: return cel::FromJson(v);
  }
}

// Only the name and generateName of a resource's metadata are visible to rules.
cel::Value ResourceMetadata(const json& meta) {
  static const std::string kMetaFields[] = {"generateName", "name"};
  cel::MapEntries entries;
  for (const std::string& k : kMetaFields) {
    if (auto m = meta.find(k); m != meta.end()) entries.emplace_back(cel::Value::BorrowedString(k), BorrowJson(*m));
  }
  return cel::Value::Map(std::move(entries));
}

// The entry of property `key` of object value `v`, unless rules cannot see it.
void AddProperty(const Schema* s, bool map, bool resource, const std::string& key, const json& value,
                 const cel::FieldUse* use, cel::MapEntries* entries) {
  if (resource && key == "metadata" && value.is_object()) {
    entries->emplace_back(cel::Value::BorrowedString(key), ResourceMetadata(value));
    return;
  }
  const Schema* child = map ? s->Items() : s->Field(key);
  const bool embedded = child != nullptr && child->EmbeddedResource();
  // Rules see properties under their escaped names, and not at all when unescapable.
  if (map || IsUnescapedCelFieldName(key)) {
    entries->emplace_back(cel::Value::BorrowedString(key), RuleValue(child, value, embedded, use));
  } else if (std::optional<std::string> name = EscapeCelFieldName(key)) {
    entries->emplace_back(cel::Value::String(std::move(*name)), RuleValue(child, value, embedded, use));
  }
}

// The property of object value `v` that rules see as `name` (an escaped name for objects).
json::const_iterator FindProperty(const Schema* s, bool map, const json& v, const std::string& name) {
  if (map || IsUnescapedCelFieldName(name)) return v.find(name);
  // An escaped name (`__dash__x`): the declared property it escapes, if the value has it.
  for (const std::string& property : s->FieldNames()) {
    if (IsUnescapedCelFieldName(property)) continue;
    if (EscapeCelFieldName(property) == name) return v.find(property);
  }
  return v.end();
}

cel::Value Object(const Schema* s, const json& v, bool resource, const cel::FieldUse* use) {
  const bool map = s->type() == Schema::Type::kMap;
  cel::MapEntries entries;
  if (use == nullptr || use->whole) {
    entries.reserve(v.size());
    for (auto it = v.begin(); it != v.end(); ++it) AddProperty(s, map, resource, it.key(), *it, nullptr, &entries);
  } else {
    entries.reserve(use->fields.size());
    for (const auto& [name, field_use] : use->fields) {
      auto it = FindProperty(s, map, v, name);
      if (it != v.end()) AddProperty(s, map, resource, it.key(), *it, &field_use, &entries);
    }
  }
  return cel::Value::Map(std::move(entries));
}

}  // namespace

cel::Value RuleValue(const Schema* s, const json& v, bool resource, const cel::FieldUse* use) {
  if (v.is_null()) return cel::Value::Null();
  if (s == nullptr) return BorrowJson(v);
  switch (s->type()) {
    case Schema::Type::kObject:
    case Schema::Type::kMap:
      if (!v.is_object()) return BorrowJson(v);
      return Object(s, v, resource, use);
    case Schema::Type::kArray: {
      if (!v.is_array()) return BorrowJson(v);
      // Lists have no fields: a rule that selects one fails the same way on the whole list.
      cel::ValueList items;
      items.reserve(v.size());
      const Schema* item = s->Items();
      for (const auto& x : v) items.push_back(RuleValue(item, x, item != nullptr && item->EmbeddedResource()));
      // x-kubernetes-list-type gives `==` and `+` kube's set and map-list meanings.
      if (s->ListType() == "set") return cel::Value::SetList(std::move(items));
      if (s->ListType() == "map") {
        std::vector<std::string> keys;
        for (const auto& k : s->ListMapKeys()) {
          if (auto name = EscapeCelFieldName(k)) keys.push_back(std::move(*name));
        }
        return cel::Value::MapList(std::move(items), std::move(keys));
      }
      return cel::Value::List(std::move(items));
    }
    case Schema::Type::kNumber:
      if (v.is_number()) return cel::Value::Double(v.get<double>());
      return BorrowJson(v);
    case Schema::Type::kString:
    case Schema::Type::kTime: {
      if (!v.is_string() || s->Validation() == nullptr) return BorrowJson(v);
      // Formats that give values their own CEL type; a value that does not parse stays a
      // string, as schema validation has refused it already.
      const std::string& text = v.get_ref<const std::string&>();
      const std::string& format = s->Validation()->format;
      if (format == "date-time") {
        cel::Timestamp t;
        if (cel::ParseTimestamp(text, &t)) return cel::Value::OfTimestamp(t);
      } else if (format == "date") {
        cel::Timestamp t;
        if (text.size() == 10 && cel::ParseTimestamp(text + "T00:00:00Z", &t)) return cel::Value::OfTimestamp(t);
      } else if (format == "duration") {
        if (auto nanos = protobuf::ParseGoDuration(text)) return cel::Value::OfDuration(cel::Duration{*nanos});
      } else if (format == "byte") {
        if (auto bytes = protobuf::Base64StdDecode(text)) return cel::Value::Bytes(std::move(*bytes));
      }
      return BorrowJson(v);
    }
    default: return BorrowJson(v);
  }
}

}  // namespace kube::apiextensions
