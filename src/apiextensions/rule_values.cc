#include "apiextensions/rule_values.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <optional>
#include <string>

#include "apiextensions/cel_schema_types.h"
#include "apiextensions/ordered_lookup.h"
#include "cel/cel.h"
#include "protobuf/well_known.h"

namespace kube::apiextensions {

namespace {

using json = nlohmann::json;
using schema::Schema;

// Deeper schemas convert their remaining levels as plain JSON.
constexpr int kMaxPlanDepth = 200;

// Lists and maps in `arena` when there is one, their vectors from it too.
cel::ValueList NewItems(size_t n, cel::ValueArena* arena) {
  if (arena != nullptr) return arena->NewItems(n);
  cel::ValueList items;
  items.reserve(n);
  return items;
}
cel::MapEntries NewEntries(size_t n, cel::ValueArena* arena) {
  if (arena != nullptr) return arena->NewEntries(n);
  cel::MapEntries entries;
  entries.reserve(n);
  return entries;
}

cel::Value MakeList(cel::ValueList items, cel::ValueArena* arena) {
  return arena != nullptr ? arena->List(std::move(items)) : cel::Value::List(std::move(items));
}
cel::Value MakeSortedMap(cel::MapEntries entries, cel::ValueArena* arena) {
  return arena != nullptr ? arena->SortedMap(std::move(entries)) : cel::Value::SortedMap(std::move(entries));
}

// JSON → CEL as cel::FromJson, except that strings (values and keys) borrow the document's text.
cel::Value BorrowJson(const json& v, cel::ValueArena* arena) {
  switch (v.type()) {
    case json::value_t::string: return cel::Value::BorrowedString(v.get_ref<const std::string&>());
    case json::value_t::array: {
      cel::ValueList items = NewItems(v.size(), arena);
      for (const auto& x : v) items.push_back(BorrowJson(x, arena));
      return MakeList(std::move(items), arena);
    }
    case json::value_t::object: {
      cel::MapEntries entries = NewEntries(v.size(), arena);
      for (auto it = v.begin(); it != v.end(); ++it) entries.emplace_back(cel::Value::BorrowedString(it.key()), BorrowJson(*it, arena));
      return MakeSortedMap(std::move(entries), arena);  // a JSON object's keys are in order
    }
    default: return cel::FromJson(v);
  }
}

// Only the name and generateName of a resource's metadata are visible to rules.
cel::Value ResourceMetadata(const json& meta, cel::ValueArena* arena) {
  static const std::string kMetaFields[] = {"generateName", "name"};  // in key order
  cel::MapEntries entries = NewEntries(2, arena);
  for (const std::string& k : kMetaFields) {
    if (auto m = meta.find(k); m != meta.end()) entries.emplace_back(cel::Value::BorrowedString(k), BorrowJson(*m, arena));
  }
  return MakeSortedMap(std::move(entries), arena);
}

// The declared property of object node `s` that rules see as `cel_name`, or "".
std::string DeclaredProperty(const Schema* s, const std::string& cel_name) {
  if (IsUnescapedCelFieldName(cel_name)) return s->Field(cel_name) != nullptr ? cel_name : "";
  for (const std::string& property : s->FieldNames()) {
    if (!IsUnescapedCelFieldName(property) && EscapeCelFieldName(property) == cel_name) return property;
  }
  return "";
}

}  // namespace

std::shared_ptr<const ValuePlan> ValuePlan::Build(const Schema* s, bool resource, const cel::FieldUse* use, Cache* cache) {
  Cache local;
  return BuildAt(s, resource, use, cache != nullptr ? cache : &local, 0);
}

std::shared_ptr<const ValuePlan> ValuePlan::BuildAt(const Schema* s, bool resource, const cel::FieldUse* use, Cache* cache,
                                                    int depth) {
  const bool whole = use == nullptr || use->whole;
  if (whole) {
    if (auto it = cache->find({s, resource}); it != cache->end()) return it->second;
  }
  auto plan = std::make_shared<ValuePlan>();
  plan->whole_ = whole;
  plan->resource_ = resource;
  auto metadata = [] {
    auto m = std::make_shared<ValuePlan>();
    m->shape_ = Shape::kMetadata;
    return m;
  };
  if (s != nullptr && depth <= kMaxPlanDepth) {
    switch (s->type()) {
      case Schema::Type::kObject:
        plan->shape_ = Shape::kObject;
        if (whole) {
          for (const std::string& key : s->FieldNames()) {
            const Schema* child = s->Field(key);
            std::optional<std::string> name = IsUnescapedCelFieldName(key) ? key : EscapeCelFieldName(key);
            if (!name) continue;  // rules cannot see it
            auto child_plan = resource && key == "metadata"
                                  ? metadata()
                                  : BuildAt(child, child != nullptr && child->EmbeddedResource(), nullptr, cache, depth + 1);
            const bool renamed = *name != key;
            plan->properties_.push_back({key, std::move(*name), std::move(child_plan), renamed});
          }
        } else {
          for (const auto& [name, field_use] : use->fields) {
            std::string key = DeclaredProperty(s, name);
            // A resource's apiVersion, kind and metadata need not be declared.
            if (key.empty() && resource && (name == "metadata" || name == "apiVersion" || name == "kind")) key = name;
            if (key.empty()) continue;
            const Schema* child = s->Field(key);
            auto child_plan = resource && key == "metadata"
                                  ? metadata()
                                  : BuildAt(child, child != nullptr && child->EmbeddedResource(), &field_use, cache, depth + 1);
            plan->properties_.push_back({key, name, std::move(child_plan), key != name});
          }
        }
        std::sort(plan->properties_.begin(), plan->properties_.end(),
                  [whole](const Property& a, const Property& b) { return whole ? a.key < b.key : a.cel_name < b.cel_name; });
        for (const Property& p : plan->properties_) plan->renamed_ = plan->renamed_ || p.renamed;
        break;
      case Schema::Type::kMap: {
        plan->shape_ = Shape::kMap;
        const Schema* item = s->Items();
        const bool embedded = item != nullptr && item->EmbeddedResource();
        if (whole) {
          plan->items_ = BuildAt(item, embedded, nullptr, cache, depth + 1);
        } else {
          // Map keys are not escaped: each used key converts with its own use.
          for (const auto& [key, field_use] : use->fields) {
            plan->properties_.push_back({key, key, BuildAt(item, embedded, &field_use, cache, depth + 1), false});
          }
        }
        break;
      }
      case Schema::Type::kArray: {
        plan->shape_ = Shape::kArray;
        plan->whole_ = true;  // lists have no fields: a rule that selects one fails the same way on the whole list
        const Schema* item = s->Items();
        plan->items_ = BuildAt(item, item != nullptr && item->EmbeddedResource(), nullptr, cache, depth + 1);
        // x-kubernetes-list-type gives `==` and `+` kube's set and map-list meanings.
        if (s->ListType() == "set") plan->list_ = cel::ListSemantics::kSet;
        if (s->ListType() == "map") {
          plan->list_ = cel::ListSemantics::kMap;
          for (const auto& k : s->ListMapKeys()) {
            if (auto name = EscapeCelFieldName(k)) plan->map_keys_.push_back(std::move(*name));
          }
        }
        break;
      }
      case Schema::Type::kNumber: plan->shape_ = Shape::kNumber; break;
      case Schema::Type::kString:
      case Schema::Type::kTime: {
        // Formats that give values their own CEL type.
        const std::string format = s->Validation() != nullptr ? s->Validation()->format : "";
        if (format == "date-time") plan->shape_ = Shape::kTimestamp;
        if (format == "date") plan->shape_ = Shape::kDate;
        if (format == "duration") plan->shape_ = Shape::kDuration;
        if (format == "byte") plan->shape_ = Shape::kBytes;
        break;
      }
      default: break;
    }
  }
  if (whole) (*cache)[{s, resource}] = plan;
  return plan;
}

cel::Value ValuePlan::ConvertObject(const json& v, cel::ValueArena* arena) const {
  cel::MapEntries entries = NewEntries(whole_ ? v.size() : properties_.size(), arena);
  if (!whole_) {
    // The used properties, already in the order of their names; that is the keys' order too
    // unless a name was escaped.
    OrderedLookup lookup(v, renamed_ ? v.size() : properties_.size());
    for (const Property& p : properties_) {
      const json* child = nullptr;
      if (renamed_) {
        if (auto it = v.find(p.key); it != v.end()) child = &*it;
      } else {
        child = lookup.Find(p.key);
      }
      if (child != nullptr) entries.emplace_back(cel::Value::BorrowedString(p.cel_name), p.plan->Convert(*child, arena));
    }
    return MakeSortedMap(std::move(entries), arena);
  }
  // In the JSON's key order, which stays the names' order unless a name was escaped.
  bool in_order = true;
  // The properties are in key order too: the next one that can match.
  auto next = properties_.begin();
  for (auto it = v.begin(); it != v.end(); ++it) {
    const std::string& key = it.key();
    if (shape_ == Shape::kMap) {
      entries.emplace_back(cel::Value::BorrowedString(key), items_->Convert(*it, arena));
      continue;
    }
    while (next != properties_.end() && KeyLess(next->key, key)) ++next;
    auto p = next;
    if (p != properties_.end() && p->key == key) {
      in_order = in_order && !p->renamed;
      entries.emplace_back(cel::Value::BorrowedString(p->cel_name), p->plan->Convert(*it, arena));
    } else if (resource_ && key == "metadata" && it->is_object()) {
      entries.emplace_back(cel::Value::BorrowedString(key), ResourceMetadata(*it, arena));
    } else if (IsUnescapedCelFieldName(key)) {
      // Undeclared (a resource's apiVersion and kind, preserved unknown fields): as JSON.
      entries.emplace_back(cel::Value::BorrowedString(key), BorrowJson(*it, arena));
    } else if (std::optional<std::string> name = EscapeCelFieldName(key)) {
      in_order = false;
      entries.emplace_back(cel::Value::String(std::move(*name)), BorrowJson(*it, arena));
    }
  }
  // Escaped names can change the order: such maps are sorted (rare, and counted as usual).
  return in_order ? MakeSortedMap(std::move(entries), arena) : cel::Value::Map(std::move(entries));
}

cel::Value ValuePlan::Convert(const json& v, cel::ValueArena* arena) const {
  if (v.is_null()) return cel::Value::Null();
  switch (shape_) {
    case Shape::kJson: return BorrowJson(v, arena);
    case Shape::kMetadata: return v.is_object() ? ResourceMetadata(v, arena) : BorrowJson(v, arena);
    case Shape::kObject:
    case Shape::kMap: return v.is_object() ? ConvertObject(v, arena) : BorrowJson(v, arena);
    case Shape::kArray: {
      if (!v.is_array()) return BorrowJson(v, arena);
      cel::ValueList items = NewItems(v.size(), arena);
      for (const auto& x : v) items.push_back(items_->Convert(x, arena));
      if (arena != nullptr) {
        if (list_ == cel::ListSemantics::kSet) return arena->SetList(std::move(items));
        if (list_ == cel::ListSemantics::kMap) return arena->MapList(std::move(items), map_keys_);
        return arena->List(std::move(items));
      }
      if (list_ == cel::ListSemantics::kSet) return cel::Value::SetList(std::move(items));
      if (list_ == cel::ListSemantics::kMap) return cel::Value::MapList(std::move(items), map_keys_);
      return cel::Value::List(std::move(items));
    }
    case Shape::kNumber: return v.is_number() ? cel::Value::Double(v.get<double>()) : BorrowJson(v, arena);
    default: break;
  }
  // Formatted strings; a value that does not parse stays a string, as schema validation has
  // refused it already.
  if (!v.is_string()) return BorrowJson(v, arena);
  const std::string& text = v.get_ref<const std::string&>();
  switch (shape_) {
    case Shape::kTimestamp: {
      cel::Timestamp t;
      if (cel::ParseTimestamp(text, &t)) return cel::Value::OfTimestamp(t);
      break;
    }
    case Shape::kDate: {
      cel::Timestamp t;
      if (text.size() == 10 && cel::ParseTimestamp(text + "T00:00:00Z", &t)) return cel::Value::OfTimestamp(t);
      break;
    }
    case Shape::kDuration:
      if (auto nanos = protobuf::ParseGoDuration(text)) return cel::Value::OfDuration(cel::Duration{*nanos});
      break;
    case Shape::kBytes:
      if (auto bytes = protobuf::Base64StdDecode(text)) return cel::Value::Bytes(std::move(*bytes));
      break;
    default: break;
  }
  return BorrowJson(v, arena);
}

}  // namespace kube::apiextensions
