#include "endpoints/field_validation.h"

#include <nlohmann/json.hpp>

#include <set>

namespace kube::endpoints {

namespace {

using catalogue::Schema;

void Prune(const Schema* schema, nlohmann::json* value, const std::string& path,
           std::vector<std::string>* unknown) {
  if (schema == nullptr || value->is_null()) return;
  switch (schema->type()) {
    case Schema::Type::kObject: {
      if (!value->is_object()) return;
      std::vector<std::string> drop;
      for (auto it = value->begin(); it != value->end(); ++it) {
        const std::string field_path = path.empty() ? it.key() : path + "." + it.key();
        const Schema* field = schema->Field(it.key());
        if (field == nullptr) {
          drop.push_back(it.key());
          unknown->push_back(field_path);
        } else {
          Prune(field, &it.value(), field_path, unknown);
        }
      }
      for (const auto& key : drop) value->erase(key);
      return;
    }
    case Schema::Type::kMap:
      if (!value->is_object()) return;
      for (auto it = value->begin(); it != value->end(); ++it) {
        Prune(schema->Items(), &it.value(), path + "[" + it.key() + "]", unknown);
      }
      return;
    case Schema::Type::kArray:
      if (!value->is_array()) return;
      for (size_t i = 0; i < value->size(); ++i) {
        Prune(schema->Items(), &(*value)[i], path + "[" + std::to_string(i) + "]", unknown);
      }
      return;
    default:
      return;  // scalars and free-form values have no fields to check
  }
}

const char* JsonTypeName(const nlohmann::json& v) {
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

bool Fits(Schema::Type t, const nlohmann::json& v) {
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

std::string Mismatch(const Schema* schema, const nlohmann::json& value, const std::string& path) {
  if (schema == nullptr) return "";
  if (!Fits(schema->type(), value)) {
    return std::string("json: cannot unmarshal ") + JsonTypeName(value) + " into Go struct field " + path +
           " of type " + SchemaTypeName(schema->type());
  }
  if (value.is_null()) return "";
  switch (schema->type()) {
    case Schema::Type::kObject:
      for (auto it = value.begin(); it != value.end(); ++it) {
        std::string m = Mismatch(schema->Field(it.key()), it.value(), path + "." + it.key());
        if (!m.empty()) return m;
      }
      return "";
    case Schema::Type::kMap:
      for (auto it = value.begin(); it != value.end(); ++it) {
        std::string m = Mismatch(schema->Items(), it.value(), path + "[" + it.key() + "]");
        if (!m.empty()) return m;
      }
      return "";
    case Schema::Type::kArray:
      for (size_t i = 0; i < value.size(); ++i) {
        std::string m = Mismatch(schema->Items(), value[i], path + "[" + std::to_string(i) + "]");
        if (!m.empty()) return m;
      }
      return "";
    default:
      return "";
  }
}

// Tracks the path of the current value and the keys seen in every open object.
class DuplicateFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::vector<std::string> duplicates;

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override {
    frames_.push_back(Frame{true, {}, 0, Path()});
    return true;
  }
  bool key(string_t& k) override {
    Frame& f = frames_.back();
    f.current_key = k;
    if (!f.keys.insert(k).second) duplicates.push_back(f.prefix.empty() ? k : f.prefix + "." + k);
    return true;
  }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override {
    frames_.push_back(Frame{false, {}, 0, Path()});
    return true;
  }
  bool end_array() override { return Close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

 private:
  struct Frame {
    bool is_object;
    std::set<std::string> keys;
    size_t index;
    std::string prefix;
    std::string current_key;
  };
  // The path of the value about to be read.
  std::string Path() const {
    if (frames_.empty()) return "";
    const Frame& f = frames_.back();
    if (f.is_object) return f.prefix.empty() ? f.current_key : f.prefix + "." + f.current_key;
    return f.prefix + "[" + std::to_string(f.index) + "]";
  }
  bool Value() {
    if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
    return true;
  }
  bool Close() {
    frames_.pop_back();
    return Value();
  }
  std::vector<Frame> frames_;
};

}  // namespace

std::vector<std::string> DuplicateFields(std::string_view body) {
  DuplicateFinder finder;
  const bool ok = nlohmann::json::sax_parse(body.begin(), body.end(), &finder,
                                            nlohmann::json::input_format_t::json, /*strict=*/true,
                                            /*ignore_comments=*/false);
  if (!ok) return {};
  return finder.duplicates;
}

std::string TypeMismatch(const catalogue::Schema* schema, const nlohmann::json& obj) {
  return Mismatch(schema, obj, "");
}

std::vector<std::string> PruneUnknownFields(const catalogue::Schema* schema, nlohmann::json* obj) {
  std::vector<std::string> unknown;
  Prune(schema, obj, "", &unknown);
  return unknown;
}

}  // namespace kube::endpoints
