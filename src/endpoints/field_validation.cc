#include "endpoints/field_validation.h"

#include <nlohmann/json.hpp>

#include <set>

#include "schema/prune.h"

namespace kube::endpoints {

namespace {

using catalogue::Schema;
using nlohmann::json;

// Where a walk is, kept as segments so that a path costs nothing until it is reported: building
// the path of every value up front costs the square of the nesting depth.
class PathStack {
 public:
  void PushField(std::string key) { segments_.push_back({Kind::kField, std::move(key), 0}); }
  void PushMapKey(std::string key) { segments_.push_back({Kind::kMapKey, std::move(key), 0}); }
  void PushIndex(size_t index) { segments_.push_back({Kind::kIndex, {}, index}); }
  void Pop() { segments_.pop_back(); }

  // "spec.containers[0].name", or ".spec.containers[0].name" as Go's decoder writes struct paths.
  std::string Render(bool leading_dot) const {
    std::string out;
    for (const auto& s : segments_) {
      switch (s.kind) {
        case Kind::kField:
          if (leading_dot || !out.empty()) out += '.';
          out += s.key;
          break;
        case Kind::kMapKey: out += '[' + s.key + ']'; break;
        case Kind::kIndex: out += '[' + std::to_string(s.index) + ']'; break;
      }
    }
    return out;
  }

 private:
  enum class Kind { kField, kMapKey, kIndex };
  struct Segment {
    Kind kind;
    std::string key;
    size_t index;
  };
  std::vector<Segment> segments_;
};

// Collects paths until they hold kMaxReportedPathBytes.
class Report {
 public:
  explicit Report(std::vector<std::string>* out) : out_(out) {}
  bool Full() const { return bytes_ >= kMaxReportedPathBytes; }
  void Add(std::string path) {
    if (Full()) return;
    bytes_ += path.size() + 1;
    out_->push_back(std::move(path));
  }

 private:
  std::vector<std::string>* out_;
  size_t bytes_ = 0;
};

const char* JsonTypeName(const json& v) {
  if (v.is_string()) return "string";
  if (v.is_boolean()) return "bool";
  if (v.is_number()) return "number";
  if (v.is_array()) return "array";
  if (v.is_object()) return "object";
  return "null";
}

// The Go-ish name of what a schema node holds, for error messages.
const char* SchemaTypeName(Schema::Type t) {
  switch (t) {
    case Schema::Type::kObject: return "struct";
    case Schema::Type::kMap: return "map";
    case Schema::Type::kArray: return "slice";
    case Schema::Type::kString: return "string";
    case Schema::Type::kInteger: return "int64";
    case Schema::Type::kNumber: return "float64";
    case Schema::Type::kBoolean: return "bool";
    case Schema::Type::kIntOrString: return "intstr.IntOrString";
    case Schema::Type::kQuantity: return "resource.Quantity";
    case Schema::Type::kTime: return "v1.Time";
    case Schema::Type::kAny: return "any";
  }
  return "any";
}

bool Fits(Schema::Type t, const json& v) {
  if (v.is_null()) return true;
  switch (t) {
    case Schema::Type::kObject:
    case Schema::Type::kMap: return v.is_object();
    case Schema::Type::kArray: return v.is_array();
    case Schema::Type::kString:
    case Schema::Type::kTime: return v.is_string();
    case Schema::Type::kInteger: return v.is_number_integer();
    case Schema::Type::kNumber: return v.is_number();
    case Schema::Type::kBoolean: return v.is_boolean();
    case Schema::Type::kIntOrString: return v.is_number_integer() || v.is_string();
    case Schema::Type::kQuantity: return v.is_string() || v.is_number();
    case Schema::Type::kAny: return true;
  }
  return true;
}

// What Go's encoder writes for the zero value of a map value or list item decoded from null.
json ZeroValue(const Schema* s) {
  if (s == nullptr) return nullptr;
  switch (s->type()) {
    case Schema::Type::kString: return "";
    case Schema::Type::kInteger:
    case Schema::Type::kNumber:
    case Schema::Type::kIntOrString: return 0;
    case Schema::Type::kBoolean: return false;
    case Schema::Type::kQuantity: return "0";
    case Schema::Type::kObject: return json::object();
    default: return nullptr;  // nil slice or map, zero time, free-form: null
  }
}

// Go's `omitempty` notion of empty, for the JSON forms a schema-checked value can take.
bool IsEmpty(const json& v) {
  switch (v.type()) {
    case json::value_t::string: return v.get_ref<const std::string&>().empty();
    case json::value_t::boolean: return !v.get<bool>();
    case json::value_t::number_integer: return v.get<int64_t>() == 0;
    case json::value_t::number_unsigned: return v.get<uint64_t>() == 0;
    case json::value_t::number_float: return v.get<double>() == 0;
    case json::value_t::array:
    case json::value_t::object: return v.empty();
    default: return false;
  }
}

// Go's typed decoding and encoding of the fields the schema describes: type errors, null as the
// zero value, `omitempty`. Unknown fields are gone by the time it runs (schema::Prune drops them),
// so the one pruning walk of the schema model is also the built-in kinds'.
class TypedDecoder {
 public:
  explicit TypedDecoder(std::string* type_error) : type_error_(type_error) {}

  // `value` is not null.
  void Decode(const Schema* schema, json* value) {
    if (schema == nullptr) return;
    if (!Fits(schema->type(), *value)) {
      if (type_error_->empty()) {
        *type_error_ = std::string("json: cannot unmarshal ") + JsonTypeName(*value) + " into Go struct field " +
                       path_.Render(/*leading_dot=*/true) + " of type " + SchemaTypeName(schema->type());
      }
      return;
    }
    switch (schema->type()) {
      case Schema::Type::kObject: return DecodeObject(schema, value);
      case Schema::Type::kMap:
        for (auto it = value->begin(); it != value->end(); ++it) {
          path_.PushMapKey(it.key());
          DecodeItem(schema->Items(), &it.value());
          path_.Pop();
        }
        return;
      case Schema::Type::kArray:
        for (size_t i = 0; i < value->size(); ++i) {
          path_.PushIndex(i);
          DecodeItem(schema->Items(), &(*value)[i]);
          path_.Pop();
        }
        return;
      default:
        return;  // scalars and free-form values have no fields
    }
  }

 private:
  void DecodeObject(const Schema* schema, json* obj) {
    std::vector<std::string> drop;
    for (auto it = obj->begin(); it != obj->end(); ++it) {
      const std::string& key = it.key();
      const Schema* field = schema->Field(key);
      if (it->is_null()) {
        drop.push_back(key);
        continue;
      }
      if (field == nullptr) continue;  // kept by a preserving node: nothing to decode into
      path_.PushField(key);
      Decode(field, &it.value());
      path_.Pop();
      if (schema->OmitsEmpty(key) && IsEmpty(*it)) drop.push_back(key);
    }
    for (const auto& key : drop) obj->erase(key);
  }

  // A map value or list item: null is the item type's zero value.
  void DecodeItem(const Schema* schema, json* item) {
    if (item->is_null()) {
      *item = ZeroValue(schema);
    } else {
      Decode(schema, item);
    }
  }

  std::string* type_error_;
  PathStack path_;
};

// Tracks the keys seen in every open object of a SAX parse; builds a path only for a duplicate.
class DuplicateFinder : public nlohmann::json_sax<json> {
 public:
  explicit DuplicateFinder(std::vector<std::string>* out) : report_(out) {}

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Open(true); }
  bool key(string_t& k) override {
    Frame& f = frames_.back();
    f.current_key = k;
    if (!f.keys.insert(k).second && !report_.Full()) {
      path_.PushField(k);
      report_.Add(path_.Render(/*leading_dot=*/false));
      path_.Pop();
    }
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(false); }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Frame {
    bool is_object;
    std::set<std::string> keys;
    size_t index = 0;
    std::string current_key;
  };
  bool Open(bool is_object) {
    if (!frames_.empty()) {
      const Frame& parent = frames_.back();
      if (parent.is_object) {
        path_.PushField(parent.current_key);
      } else {
        path_.PushIndex(parent.index);
      }
    }
    frames_.push_back(Frame{is_object, {}, 0, {}});
    return true;
  }
  bool Value() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
    return true;
  }
  bool Close() {
    frames_.pop_back();
    if (!frames_.empty()) path_.Pop();
    return Value();
  }

  std::vector<Frame> frames_;
  PathStack path_;
  Report report_;
};

}  // namespace

TypedDecodeResult DecodeTyped(const catalogue::Schema* schema, nlohmann::json* obj) {
  TypedDecodeResult result;
  if (schema == nullptr || obj->is_null()) return result;
  schema::PruneOptions options;
  options.bracket_map_keys = true;
  options.max_reported_path_bytes = kMaxReportedPathBytes;
  result.unknown_fields = schema::Prune(schema, obj, options);
  TypedDecoder(&result.type_error).Decode(schema, obj);
  return result;
}

bool NestedDeeperThan(const nlohmann::json& value, int max_depth) {
  std::vector<std::pair<const json*, int>> todo{{&value, 0}};
  while (!todo.empty()) {
    auto [v, depth] = todo.back();
    todo.pop_back();
    if (!v->is_object() && !v->is_array()) continue;
    if (depth + 1 > max_depth) return true;
    for (const auto& child : *v) todo.emplace_back(&child, depth + 1);
  }
  return false;
}

std::vector<std::string> DuplicateFields(std::string_view body) {
  std::vector<std::string> duplicates;
  DuplicateFinder finder(&duplicates);
  const bool ok = nlohmann::json::sax_parse(body.begin(), body.end(), &finder,
                                            nlohmann::json::input_format_t::json, /*strict=*/true,
                                            /*ignore_comments=*/false);
  if (!ok) return {};
  return duplicates;
}

}  // namespace kube::endpoints
