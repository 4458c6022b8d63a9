#include "apiextensions/cel_schema_types.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

namespace kube::apiextensions {

namespace {

using cel::Type;
using cel::TypeRef;
using schema::Schema;

// The least bytes of JSON the values of each simple type take (apiserver/pkg/cel/limits.go).
constexpr int64_t kMinStringSize = 2;
constexpr int64_t kMinBoolSize = 4;
constexpr int64_t kMinNumberSize = 1;
constexpr int64_t kMinDurationSize = 3;
constexpr int64_t kMinDatetimeSize = 21;
constexpr int64_t kJsonDateSize = 12;
constexpr int64_t kMaxDurationSize = 32;
constexpr int64_t kMaxDatetimeSize = 32;

uint64_t NonNegative(int64_t v) { return v < 0 ? 0 : static_cast<uint64_t>(v); }

const schema::ValueValidation* V(const Schema* s) { return s->Validation(); }

std::string_view Format(const Schema* s) { return V(s) != nullptr ? std::string_view(V(s)->format) : ""; }

// The most characters of a string without maxLength, as kube estimates it.
int64_t EstimatedStringLength(const Schema* s) {
  const std::string_view f = Format(s);
  if (f == "duration") return kMaxDurationSize;
  if (f == "date") return kJsonDateSize;
  if (f == "date-time") return kMaxDatetimeSize;
  return kCelMaxRequestSizeBytes - 2;
}

int64_t LongestEnumString(const Schema* s) {
  int64_t longest = 0;
  for (const auto& v : *V(s)->enum_values) {
    if (v.is_string()) longest = std::max<int64_t>(longest, static_cast<int64_t>(v.get_ref<const std::string&>().size()));
  }
  return longest;
}

bool HasEnum(const Schema* s) {
  return V(s) != nullptr && V(s)->enum_values != nullptr && V(s)->enum_values->is_array() && !V(s)->enum_values->empty();
}

TypeRef StringNodeType(const Schema* s) {
  const std::string_view f = Format(s);
  const std::optional<int64_t> max_length = V(s) != nullptr ? V(s)->max_length : std::nullopt;
  if (f == "byte") {
    return Type::WithBounds(Type::Bytes(), max_length ? NonNegative(*max_length) : NonNegative(EstimatedStringLength(s)),
                            kMinStringSize);
  }
  if (f == "duration") return Type::WithBounds(Type::Duration(), NonNegative(EstimatedStringLength(s)), kMinDurationSize);
  if (f == "date") return Type::WithBounds(Type::Timestamp(), NonNegative(EstimatedStringLength(s)), kJsonDateSize);
  if (f == "date-time") return Type::WithBounds(Type::Timestamp(), NonNegative(EstimatedStringLength(s)), kMinDatetimeSize);
  uint64_t max = NonNegative(EstimatedStringLength(s));
  if (max_length) {
    // maxLength counts code points; a code point takes up to 4 bytes.
    max = NonNegative(*max_length) * 4;
  } else if (HasEnum(s)) {
    max = NonNegative(LongestEnumString(s));
  }
  return Type::WithBounds(Type::String(), max, kMinStringSize);
}

TypeRef UnboundedString() { return Type::WithBounds(Type::String(), kCelMaxRequestSizeBytes - 2, kMinStringSize); }

bool IsStringField(const Schema* s, std::string_view name) {
  const Schema* f = s != nullptr && s->type() == Schema::Type::kObject ? s->Field(name) : nullptr;
  return f != nullptr && f->type() == Schema::Type::kString;
}

// Whether a resource root's schema already declares apiVersion, kind, metadata.name and
// metadata.generateName as strings (kube then keeps the schema as it is).
bool DeclaresTypeAndObjectMeta(const Schema* s) {
  const Schema* meta = s->Field("metadata");
  return IsStringField(s, "kind") && IsStringField(s, "apiVersion") && meta != nullptr &&
         meta->type() == Schema::Type::kObject && IsStringField(meta, "name") && IsStringField(meta, "generateName");
}

TypeRef ObjectNodeType(const Schema* s, bool resource_root, const std::string& name) {
  std::map<std::string, TypeRef, std::less<>> fields;
  int64_t min_size = 2;  // {}
  const auto& required = s->Required();
  const bool override_meta = resource_root && !DeclaresTypeAndObjectMeta(s);
  for (const std::string& field : s->FieldNames()) {
    if (override_meta && (field == "kind" || field == "apiVersion" || field == "metadata")) continue;
    const Schema* child = s->Field(field);
    const std::optional<std::string> visible = EscapeCelFieldName(field);
    TypeRef t = child != nullptr ? SchemaCelType(child, child->EmbeddedResource(), name + "." + field) : nullptr;
    if (!t) continue;
    // Required fields without a default make every value larger (defaults are filled in later).
    if (std::find(required.begin(), required.end(), field) != required.end() && child->Default() == nullptr) {
      min_size += static_cast<int64_t>(field.size()) + static_cast<int64_t>(t->min_serialized_size()) + 4;
    }
    if (visible) fields.emplace(*visible, std::move(t));
  }
  if (override_meta) {
    fields["kind"] = UnboundedString();
    fields["apiVersion"] = UnboundedString();
    fields["metadata"] = Type::WithBounds(
        Type::Object(name + ".metadata", {{"name", UnboundedString()}, {"generateName", UnboundedString()}}), 0, 2);
  }
  return Type::WithBounds(Type::Object(name, std::move(fields)), 0, min_size);
}

}  // namespace

bool IsPlainCelFieldName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    (c == '_' && (i + 1 == name.size() || name[i + 1] != '_'));
    if (!ok) return false;
  }
  return true;
}

namespace {

constexpr std::string_view kReserved[] = {"true",   "false", "null",     "in",      "as",     "break",
                                          "const",  "continue", "else", "for",     "function", "if",
                                          "import", "let",   "loop",     "package", "namespace", "return",
                                          "var",    "void",  "while"};

bool IsReservedCelName(std::string_view name) {
  // Runs on every property name a rule sees: most fail the length or first-letter test, before
  // any comparison.
  if (name.size() < 2 || name.size() > 9) return false;
  switch (name[0]) {
    case 'a': case 'b': case 'c': case 'e': case 'f': case 'i': case 'l': case 'n': case 'p': case 'r':
    case 't': case 'v': case 'w': break;
    default: return false;
  }
  for (std::string_view r : kReserved) {
    if (r.size() == name.size() && r[0] == name[0] && name == r) return true;
  }
  return false;
}

}  // namespace

bool IsUnescapedCelFieldName(std::string_view name) { return IsPlainCelFieldName(name) && !IsReservedCelName(name); }

std::optional<std::string> EscapeCelFieldName(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return std::nullopt;
  if (IsReservedCelName(name)) return "__" + std::string(name) + "__";
  // Most names are plain identifiers: they are their own escaped form (runs on every value).
  if (IsPlainCelFieldName(name)) return std::string(name);
  std::string out;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (c == '_' && i + 1 < name.size() && name[i + 1] == '_') {
      out += "__underscores__";
      ++i;
    } else if (c == '.') {
      out += "__dot__";
    } else if (c == '-') {
      out += "__dash__";
    } else if (c == '/') {
      out += "__slash__";
    } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_') {
      out += c;
    } else {
      return std::nullopt;
    }
  }
  return out;
}

TypeRef SchemaCelType(const Schema* s, bool resource_root, const std::string& name) {
  if (s == nullptr) return nullptr;
  switch (s->type()) {
    case Schema::Type::kIntOrString: {
      const auto max_length = V(s) != nullptr ? V(s)->max_length : std::nullopt;
      return Type::WithBounds(Type::Dyn(), max_length ? NonNegative(*max_length) * 4 : kCelMaxRequestSizeBytes - 2, 1);
    }
    case Schema::Type::kObject: return ObjectNodeType(s, resource_root, name);
    case Schema::Type::kArray: {
      const Schema* items = s->Items();
      TypeRef item = SchemaCelType(items, items != nullptr && items->EmbeddedResource(), name + ".@idx");
      if (!item) return nullptr;
      const auto max_items = V(s) != nullptr ? V(s)->max_items : std::nullopt;
      const uint64_t max = max_items ? NonNegative(*max_items)
                                     : NonNegative((kCelMaxRequestSizeBytes - 2) /
                                                   (static_cast<int64_t>(item->min_serialized_size()) + 1));
      return Type::WithBounds(Type::List(item), max, 2);
    }
    case Schema::Type::kMap: {
      const Schema* values = s->Items();
      TypeRef value = SchemaCelType(values, values != nullptr && values->EmbeddedResource(), name + ".@elem");
      if (!value) return nullptr;
      const auto max_properties = V(s) != nullptr ? V(s)->max_properties : std::nullopt;
      const uint64_t max = max_properties ? NonNegative(*max_properties)
                                          : NonNegative((kCelMaxRequestSizeBytes - 2) /
                                                        (static_cast<int64_t>(value->min_serialized_size()) + 6));
      return Type::WithBounds(Type::Map(UnboundedString(), value), max, 2);
    }
    case Schema::Type::kString:
    case Schema::Type::kQuantity: return StringNodeType(s);
    case Schema::Type::kTime: return Type::WithBounds(Type::Timestamp(), kMaxDatetimeSize, kMinDatetimeSize);
    case Schema::Type::kBoolean: return Type::WithBounds(Type::Bool(), 0, kMinBoolSize);
    case Schema::Type::kInteger: return Type::WithBounds(Type::Int(), 0, kMinNumberSize);
    case Schema::Type::kNumber: return Type::WithBounds(Type::Double(), 0, kMinNumberSize);
    case Schema::Type::kAny:
      // `type: object` that only preserves unknown fields: an object rules see no fields of.
      if (s->OpenAPIType() == "object") return ObjectNodeType(s, resource_root, name);
      return nullptr;
  }
  return nullptr;
}

}  // namespace kube::apiextensions
