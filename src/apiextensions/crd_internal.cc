#include "apiextensions/crd_internal.h"

#include "util/go_format.h"

namespace kube::apiextensions {

namespace json_access {

const Json* Get(const Json* obj, std::string_view key) {
  if (obj == nullptr || !obj->is_object()) return nullptr;
  auto it = obj->find(key);
  if (it == obj->end() || it->is_null()) return nullptr;
  return &*it;
}

std::string Str(const Json* obj, std::string_view key) {
  const Json* v = Get(obj, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

std::optional<std::string> OptStr(const Json* obj, std::string_view key) {
  const Json* v = Get(obj, key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return v->get<std::string>();
}

bool Bool(const Json* obj, std::string_view key) {
  const Json* v = Get(obj, key);
  return v != nullptr && v->is_boolean() && v->get<bool>();
}

const Json* Arr(const Json* obj, std::string_view key) {
  const Json* v = Get(obj, key);
  return v != nullptr && v->is_array() ? v : nullptr;
}

const Json* Obj(const Json* obj, std::string_view key) {
  const Json* v = Get(obj, key);
  return v != nullptr && v->is_object() ? v : nullptr;
}

std::vector<std::string> Strings(const Json* obj, std::string_view key) {
  std::vector<std::string> out;
  if (const Json* a = Arr(obj, key)) {
    for (const auto& e : *a) out.push_back(e.is_string() ? e.get<std::string>() : std::string());
  }
  return out;
}

}  // namespace json_access

using namespace json_access;

namespace {

// Semantic equality of per-version fields: Go compares the decoded structs, where an absent
// member, null, false, "" and an empty list all decode to the same zero value. Values inside
// default/example/enum are data and compared as they are.
Json Normalize(const Json& v, bool data = false) {
  if (data || (!v.is_object() && !v.is_array())) return v;
  if (v.is_array()) {
    Json out = Json::array();
    for (const auto& e : v) out.push_back(Normalize(e));
    return out;
  }
  Json out = Json::object();
  for (const auto& [k, e] : v.items()) {
    if (e.is_null() || (e.is_boolean() && !e.get<bool>()) ||
        (e.is_string() && e.get_ref<const std::string&>().empty()) || (e.is_array() && e.empty())) {
      continue;
    }
    out[k] = Normalize(e, k == "default" || k == "example" || k == "enum");
  }
  return out;
}

// Applies Go's identical-per-version folding for one field. `present` decides whether a
// version's value counts as set for the "identical" test (Go compares nil pointers too, so all
// versions lacking the field are identical as well).
const Json* Fold(const std::vector<const Json*>& values, bool* folded) {
  *folded = true;
  if (values.empty()) return nullptr;
  const Json first = values[0] ? Normalize(*values[0]) : Json();
  for (const Json* v : values) {
    const Json n = v ? Normalize(*v) : Json();
    if (n != first) {
      *folded = false;
      return nullptr;
    }
  }
  return values[0];
}

// Numbers inside JSON-typed fields (default, example, enum) decode to float64 in Go.
std::string MarshalAsGoInterface(const Json& v) {
  if (v.is_number()) return GoJsonFloat(v.get<double>());
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + MarshalAsGoInterface(v[i]);
    return out + "]";
  }
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (const auto& [k, e] : v.items()) {
      out += (first ? "" : ",") + GoJsonMarshal(Json(k)) + ":" + MarshalAsGoInterface(e);
      first = false;
    }
    return out + "}";
  }
  return GoJsonMarshal(v);
}

class StructWriter {
 public:
  void Raw(std::string_view name, const std::string& rendered) {
    out_ += first_ ? "{" : ",";
    first_ = false;
    out_ += "\"" + std::string(name) + "\":" + rendered;
  }
  void String(std::string_view name, const Json* obj, std::string_view key) {
    Raw(name, GoJsonMarshal(Json(Str(obj, key))));
  }
  void StringPtr(std::string_view name, const Json* obj, std::string_view key) {
    auto s = OptStr(obj, key);
    Raw(name, s ? GoJsonMarshal(Json(*s)) : "null");
  }
  void BoolField(std::string_view name, const Json* obj, std::string_view key) {
    Raw(name, Bool(obj, key) ? "true" : "false");
  }
  void BoolPtr(std::string_view name, const Json* obj, std::string_view key) {
    const Json* v = Get(obj, key);
    Raw(name, v && v->is_boolean() ? (v->get<bool>() ? "true" : "false") : "null");
  }
  void FloatPtr(std::string_view name, const Json* obj, std::string_view key) {
    const Json* v = Get(obj, key);
    Raw(name, v && v->is_number() ? GoJsonFloat(v->get<double>()) : "null");
  }
  void IntPtr(std::string_view name, const Json* obj, std::string_view key) {
    const Json* v = Get(obj, key);
    Raw(name, v && v->is_number() ? std::to_string(v->get<int64_t>()) : "null");
  }
  void Int(std::string_view name, const Json* obj, std::string_view key) {
    const Json* v = Get(obj, key);
    Raw(name, v && v->is_number() ? std::to_string(v->get<int64_t>()) : "0");
  }
  void AnyPtr(std::string_view name, const Json* obj, std::string_view key) {
    const Json* v = Get(obj, key);
    Raw(name, v ? MarshalAsGoInterface(*v) : "null");
  }
  void StringList(std::string_view name, const Json* obj, std::string_view key) {
    const Json* a = Arr(obj, key);
    Raw(name, a ? GoJsonMarshal(Json(Strings(obj, key))) : "null");
  }
  std::string Done() { return first_ ? "{}" : out_ + "}"; }

 private:
  std::string out_;
  bool first_ = true;
};

// A Go slice of structs: null when absent, else each element rendered by `render`.
template <class Render>
std::string StructList(const Json* arr, Render render) {
  if (arr == nullptr) return "null";
  std::string out = "[";
  for (size_t i = 0; i < arr->size(); ++i) out += (i ? "," : "") + render(&(*arr)[i]);
  return out + "]";
}

std::string SchemaList(const Json* arr) {
  return StructList(arr, [](const Json* s) { return RenderInternalSchema(*s); });
}

std::string SchemaMap(const Json* map) {
  if (map == nullptr) return "null";
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : map->items()) {
    out += (first ? "" : ",") + GoJsonMarshal(Json(k)) + ":" + RenderInternalSchema(v);
    first = false;
  }
  return out + "}";
}

std::string PropsOrBool(const Json* v) {
  if (v == nullptr) return "null";
  if (v->is_boolean()) return std::string("{\"Allows\":") + (v->get<bool>() ? "true" : "false") + ",\"Schema\":null}";
  return "{\"Allows\":true,\"Schema\":" + RenderInternalSchema(*v) + "}";
}

std::string Dependencies(const Json* map) {
  if (map == nullptr) return "null";
  std::string out = "{";
  bool first = true;
  for (const auto& [k, v] : map->items()) {
    std::string entry;
    if (v.is_array()) {
      std::vector<std::string> props;
      for (const auto& p : v) props.push_back(p.is_string() ? p.get<std::string>() : "");
      entry = "{\"Schema\":null,\"Property\":" + GoJsonMarshal(Json(props)) + "}";
    } else {
      entry = "{\"Schema\":" + RenderInternalSchema(v) + ",\"Property\":null}";
    }
    out += (first ? "" : ",") + GoJsonMarshal(Json(k)) + ":" + entry;
    first = false;
  }
  return out + "}";
}

std::string ValidationRules(const Json* arr) {
  return StructList(arr, [](const Json* r) {
    StructWriter w;
    w.String("Rule", r, "rule");
    w.String("Message", r, "message");
    w.String("MessageExpression", r, "messageExpression");
    w.StringPtr("Reason", r, "reason");
    w.String("FieldPath", r, "fieldPath");
    w.BoolPtr("OptionalOldSelf", r, "optionalOldSelf");
    return w.Done();
  });
}

std::string Columns(const Json* arr) {
  return StructList(arr, [](const Json* c) {
    StructWriter w;
    w.String("Name", c, "name");
    w.String("Type", c, "type");
    w.String("Format", c, "format");
    w.String("Description", c, "description");
    w.Int("Priority", c, "priority");
    w.String("JSONPath", c, "jsonPath");
    return w.Done();
  });
}

std::string SelectableFields(const Json* arr) {
  return StructList(arr, [](const Json* f) {
    StructWriter w;
    w.String("JSONPath", f, "jsonPath");
    return w.Done();
  });
}

std::string Subresources(const Json* sub) {
  if (sub == nullptr) return "null";
  StructWriter w;
  w.Raw("Status", Get(sub, "status") ? "{}" : "null");
  if (const Json* scale = Obj(sub, "scale")) {
    StructWriter s;
    s.String("SpecReplicasPath", scale, "specReplicasPath");
    s.String("StatusReplicasPath", scale, "statusReplicasPath");
    s.StringPtr("LabelSelectorPath", scale, "labelSelectorPath");
    w.Raw("Scale", s.Done());
  } else {
    w.Raw("Scale", "null");
  }
  return w.Done();
}

}  // namespace

std::string RenderInternalSchema(const Json& schema) {
  const Json* s = &schema;
  StructWriter w;
  w.String("ID", s, "id");
  w.String("Schema", s, "$schema");
  w.StringPtr("Ref", s, "$ref");
  w.String("Description", s, "description");
  w.String("Type", s, "type");
  w.BoolField("Nullable", s, "nullable");
  w.String("Format", s, "format");
  w.String("Title", s, "title");
  w.AnyPtr("Default", s, "default");
  w.FloatPtr("Maximum", s, "maximum");
  w.BoolField("ExclusiveMaximum", s, "exclusiveMaximum");
  w.FloatPtr("Minimum", s, "minimum");
  w.BoolField("ExclusiveMinimum", s, "exclusiveMinimum");
  w.IntPtr("MaxLength", s, "maxLength");
  w.IntPtr("MinLength", s, "minLength");
  w.String("Pattern", s, "pattern");
  w.IntPtr("MaxItems", s, "maxItems");
  w.IntPtr("MinItems", s, "minItems");
  w.BoolField("UniqueItems", s, "uniqueItems");
  w.FloatPtr("MultipleOf", s, "multipleOf");
  w.AnyPtr("Enum", s, "enum");
  w.IntPtr("MaxProperties", s, "maxProperties");
  w.IntPtr("MinProperties", s, "minProperties");
  w.StringList("Required", s, "required");
  const Json* items = Get(s, "items");
  w.Raw("Items", items ? RenderInternalItems(*items) : "null");
  w.Raw("AllOf", SchemaList(Arr(s, "allOf")));
  w.Raw("OneOf", SchemaList(Arr(s, "oneOf")));
  w.Raw("AnyOf", SchemaList(Arr(s, "anyOf")));
  const Json* no = Obj(s, "not");
  w.Raw("Not", no ? RenderInternalSchema(*no) : "null");
  w.Raw("Properties", SchemaMap(Obj(s, "properties")));
  w.Raw("AdditionalProperties", PropsOrBool(Get(s, "additionalProperties")));
  w.Raw("PatternProperties", SchemaMap(Obj(s, "patternProperties")));
  w.Raw("Dependencies", Dependencies(Obj(s, "dependencies")));
  w.Raw("AdditionalItems", PropsOrBool(Get(s, "additionalItems")));
  w.Raw("Definitions", SchemaMap(Obj(s, "definitions")));
  if (const Json* docs = Obj(s, "externalDocs")) {
    StructWriter d;
    d.String("Description", docs, "description");
    d.String("URL", docs, "url");
    w.Raw("ExternalDocs", d.Done());
  } else {
    w.Raw("ExternalDocs", "null");
  }
  w.AnyPtr("Example", s, "example");
  w.BoolPtr("XPreserveUnknownFields", s, "x-kubernetes-preserve-unknown-fields");
  w.BoolField("XEmbeddedResource", s, "x-kubernetes-embedded-resource");
  w.BoolField("XIntOrString", s, "x-kubernetes-int-or-string");
  w.StringList("XListMapKeys", s, "x-kubernetes-list-map-keys");
  w.StringPtr("XListType", s, "x-kubernetes-list-type");
  w.StringPtr("XMapType", s, "x-kubernetes-map-type");
  w.Raw("XValidations", ValidationRules(Arr(s, "x-kubernetes-validations")));
  return w.Done();
}

std::string RenderInternalItems(const Json& items) {
  if (items.is_array()) return "{\"Schema\":null,\"JSONSchemas\":" + SchemaList(&items) + "}";
  return "{\"Schema\":" + RenderInternalSchema(items) + ",\"JSONSchemas\":null}";
}

std::string RenderInternalVersions(const InternalSpec& spec) {
  if (spec.versions_null) return "null";
  std::string out = "[";
  for (size_t i = 0; i < spec.versions.size(); ++i) {
    const InternalVersion& v = spec.versions[i];
    StructWriter w;
    w.Raw("Name", GoJsonMarshal(Json(v.name)));
    w.Raw("Served", v.served ? "true" : "false");
    w.Raw("Storage", v.storage ? "true" : "false");
    w.Raw("Deprecated", v.deprecated ? "true" : "false");
    w.Raw("DeprecationWarning", v.deprecation_warning ? GoJsonMarshal(Json(*v.deprecation_warning)) : "null");
    if (v.schema != nullptr) {
      const Json* s = Obj(v.schema, "openAPIV3Schema");
      w.Raw("Schema", "{\"OpenAPIV3Schema\":" + (s ? RenderInternalSchema(*s) : std::string("null")) + "}");
    } else {
      w.Raw("Schema", "null");
    }
    w.Raw("Subresources", Subresources(v.subresources));
    w.Raw("AdditionalPrinterColumns", Columns(v.columns));
    w.Raw("SelectableFields", SelectableFields(v.selectable_fields));
    out += (i ? "," : "") + w.Done();
  }
  return out + "]";
}

InternalSpec ToInternal(const Json& crd) {
  InternalSpec out;
  const Json* spec = Obj(&crd, "spec");
  out.group = Str(spec, "group");
  out.names = Obj(spec, "names");
  out.scope = Str(spec, "scope");
  out.conversion = Obj(spec, "conversion");
  out.preserve_unknown_fields = Bool(spec, "preserveUnknownFields");
  const Json* versions = Arr(spec, "versions");
  out.versions_null = versions == nullptr;
  if (versions == nullptr) return out;

  std::vector<const Json*> schemas, subresources, columns, selectable;
  for (const auto& raw : *versions) {
    InternalVersion v;
    v.raw = &raw;
    v.name = Str(&raw, "name");
    v.served = Bool(&raw, "served");
    v.storage = Bool(&raw, "storage");
    v.deprecated = Bool(&raw, "deprecated");
    v.deprecation_warning = OptStr(&raw, "deprecationWarning");
    v.schema = Obj(&raw, "schema");
    v.subresources = Obj(&raw, "subresources");
    v.columns = Arr(&raw, "additionalPrinterColumns");
    v.selectable_fields = Arr(&raw, "selectableFields");
    schemas.push_back(v.schema);
    subresources.push_back(v.subresources);
    columns.push_back(v.columns);
    selectable.push_back(v.selectable_fields);
    out.versions.push_back(std::move(v));
  }
  if (!out.versions.empty()) out.version = out.versions[0].name;

  bool folded = false;
  out.validation = Fold(schemas, &folded);
  if (folded) for (auto& v : out.versions) v.schema = nullptr;
  out.subresources = Fold(subresources, &folded);
  if (folded) for (auto& v : out.versions) v.subresources = nullptr;
  out.columns = Fold(columns, &folded);
  if (folded) for (auto& v : out.versions) v.columns = nullptr;
  out.selectable_fields = Fold(selectable, &folded);
  if (folded) for (auto& v : out.versions) v.selectable_fields = nullptr;
  return out;
}

const Json* SchemaForVersion(const InternalSpec& spec, const InternalVersion& v) {
  const Json* validation = v.schema != nullptr ? v.schema : spec.validation;
  return Obj(validation, "openAPIV3Schema");
}

const Json* SubresourcesForVersion(const InternalSpec& spec, const InternalVersion& v) {
  for (const auto& other : spec.versions) {
    if (other.subresources != nullptr) return v.subresources;
  }
  return spec.subresources;
}

}  // namespace kube::apiextensions
