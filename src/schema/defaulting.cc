#include "schema/defaulting.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kube::schema {

namespace {

using json = nlohmann::json;

// The schema of `key` in an object of node `s`, or nullptr.
const Schema* FieldSchema(const Schema* s, const std::string& key) {
  if (s == nullptr) return nullptr;
  if (s->type() == Schema::Type::kObject) return s->Field(key);
  if (s->type() == Schema::Type::kMap) return s->Items();
  return nullptr;
}

const Schema* ItemSchema(const Schema* s) {
  return s != nullptr && s->type() == Schema::Type::kArray ? s->Items() : nullptr;
}

bool NonNullableNull(const json& x, const Schema* s) { return x.is_null() && s != nullptr && !s->Nullable(); }

// defaulting.PruneNonNullableNullsWithoutDefaults.
void DropNulls(const Schema* s, json& x) {
  if (x.is_object()) {
    std::vector<std::string> drop;
    for (auto it = x.begin(); it != x.end(); ++it) {
      const Schema* f = FieldSchema(s, it.key());
      if (NonNullableNull(it.value(), f) && f->Default() == nullptr) {
        drop.push_back(it.key());
      } else {
        DropNulls(f, it.value());
      }
    }
    for (const auto& k : drop) x.erase(k);
  } else if (x.is_array()) {
    const Schema* items = ItemSchema(s);
    for (auto& item : x) DropNulls(items, item);
  }
}

// A default for a null left in place by DropNulls (only nulls with a default are left).
void Fill(const Schema* s, json& x) {
  if (NonNullableNull(x, s) && s->Default() != nullptr) x = *s->Default();
}

// defaulting.Default.
void Apply(const Schema* s, json& x) {
  if (s == nullptr) return;
  if (x.is_object()) {
    if (s->type() == Schema::Type::kObject) {
      for (const auto& name : s->FieldNames()) {
        const Schema* f = s->Field(name);
        if (f->Default() == nullptr) continue;
        auto it = x.find(name);
        if (it == x.end() || NonNullableNull(*it, f)) x[name] = *f->Default();
      }
    }
    for (auto it = x.begin(); it != x.end(); ++it) {
      if (s->type() == Schema::Type::kObject) {
        Apply(s->Field(it.key()), it.value());
      } else if (s->type() == Schema::Type::kMap) {
        Fill(s->Items(), it.value());
        Apply(s->Items(), it.value());
      }
    }
  } else if (x.is_array()) {
    const Schema* items = ItemSchema(s);
    for (auto& item : x) {
      Fill(items, item);
      Apply(items, item);
    }
  }
}

}  // namespace

void Default(const Schema* schema, json* value) {
  if (schema == nullptr || value == nullptr) return;
  DropNulls(schema, *value);
  Apply(schema, *value);
}

}  // namespace kube::schema
