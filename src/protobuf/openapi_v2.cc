// EncodeOpenApiV2: Swagger 2.0 JSON -> gnostic's openapi.v2.Document protobuf (see openapi_v2.h).
#include "protobuf/openapi_v2.h"

#include <bit>
#include <cctype>
#include <cstdint>
#include <regex>

#include "protobuf/wire.h"

namespace kube::protobuf {

using nlohmann::json;

namespace {

// ---- YAML (yaml.v3's emitter, styles cleared) ----

bool ResolvesAsNonString(const std::string& s) {
  static const char* const kWords[] = {"",      "~",     "null",  "Null",  "NULL",  "true", "True", "TRUE",
                                       "false", "False", "FALSE", ".nan",  ".NaN",  ".NAN", ".inf", ".Inf",
                                       ".INF",  "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"};
  for (const char* w : kWords) {
    if (s == w) return true;
  }
  static const std::regex kInt("^[-+]?(0b[01_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|[0-9][0-9_]*)$");
  static const std::regex kFloat("^[-+]?(\\.[0-9]+|[0-9]+(\\.[0-9]*)?)([eE][-+]?[0-9]+)?$");
  static const std::regex kDate("^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?$");
  return std::regex_match(s, kInt) || std::regex_match(s, kFloat) || std::regex_match(s, kDate);
}

bool IsBlankOrEnd(const std::string& s, size_t i) {
  return i >= s.size() || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r';
}

// Whether the emitter may write `s` as a plain (unquoted) block scalar.
bool PlainAllowed(const std::string& s) {
  if (s.starts_with("---") || s.starts_with("...")) return false;
  if (s.front() == ' ' || s.back() == ' ') return false;
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return false;
    if (i == 0) {
      if (std::string_view("#,[]{}&*!|>'\"%@`").find(static_cast<char>(c)) != std::string_view::npos) return false;
      if ((c == '?' || c == ':' || c == '-') && IsBlankOrEnd(s, 1)) return false;
      continue;
    }
    if (c == ':' && IsBlankOrEnd(s, i + 1)) return false;
    if (c == '#' && s[i - 1] == ' ') return false;
  }
  return true;
}

bool HasControl(const std::string& s) {
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n') || c == 0x7f) return true;
  }
  return false;
}

std::string DoubleQuoted(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case 0: out += "\\0"; break;
      default:
        if (c < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02X", c);
          out += buf;
        } else {
          out.push_back(ch);
        }
    }
  }
  return out + "\"";
}

// A scalar string on one line ("" when it needs the literal block style).
std::string ScalarString(const std::string& s) {
  if (ResolvesAsNonString(s)) return DoubleQuoted(s);
  if (HasControl(s)) return DoubleQuoted(s);
  if (PlainAllowed(s)) return s;
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// A literal block scalar ("|-" and lines indented by `indent`), after a key or "- ".
std::string Literal(const std::string& s, int indent) {
  std::string out = "|";
  size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  if (trailing == 0) out += "-";
  if (trailing > 1) out += "+";
  out += "\n";
  const std::string pad(indent, ' ');
  size_t start = 0;
  const std::string body = s.substr(0, s.size() - (trailing == 1 ? 1 : 0));
  while (start <= body.size()) {
    size_t nl = body.find('\n', start);
    if (nl == std::string::npos) nl = body.size();
    const std::string line = body.substr(start, nl - start);
    out += line.empty() ? "\n" : pad + line + "\n";
    start = nl + 1;
    if (nl == body.size()) break;
  }
  return out;
}

std::string Scalar(const json& v, int indent) {
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (s.find('\n') != std::string::npos && !ResolvesAsNonString(s)) return Literal(s, indent);
    return ScalarString(s) + "\n";
  }
  if (v.is_null()) return "null\n";
  return v.dump() + "\n";
}

bool IsBlockCollection(const json& v) { return (v.is_object() || v.is_array()) && !v.empty(); }

// The column yaml.v3 puts a block nested under a mapping key at: the next multiple of its
// indentation (4) past the mapping's column.
int NestedColumn(int column) { return 4 * ((column + 4) / 4); }

// `v` as a block node whose content sits at `column`; its first line continues the current one
// (after "key:", "- " or at the document start), the rest start at `column`. A literal scalar's
// lines go to `literal_column`.
void EmitYaml(const json& v, int column, int literal_column, std::string* out) {
  const std::string pad(column, ' ');
  if (v.is_object() && !v.empty()) {
    bool first = true;
    const int nested = NestedColumn(column);
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first) *out += pad;
      first = false;
      *out += ScalarString(it.key()) + ":";
      if (IsBlockCollection(it.value())) {
        *out += "\n" + std::string(nested, ' ');
      } else {
        *out += " ";
      }
      EmitYaml(it.value(), nested, nested, out);
    }
    return;
  }
  if (v.is_array() && !v.empty()) {
    bool first = true;
    for (const auto& item : v) {
      if (!first) *out += pad;
      first = false;
      *out += "- ";
      EmitYaml(item, column + 2, column + 2, out);
    }
    return;
  }
  if (v.is_object()) {
    *out += "{}\n";
  } else if (v.is_array()) {
    *out += "[]\n";
  } else {
    *out += Scalar(v, literal_column);
  }
}

// ---- protobuf writing ----

using wire::PutLen;
using wire::PutTag;
using wire::PutVarint;

class Msg {
 public:
  void Str(uint32_t n, const json& o, const char* key) {
    if (auto it = o.find(key); it != o.end() && it->is_string() && !it->get_ref<const std::string&>().empty()) {
      PutLen(&b_, n, it->get_ref<const std::string&>());
    }
  }
  void Strs(uint32_t n, const json& o, const char* key) {
    if (auto it = o.find(key); it != o.end() && it->is_array()) {
      for (const auto& s : *it) {
        if (s.is_string()) PutLen(&b_, n, s.get_ref<const std::string&>());
      }
    }
  }
  void Bool(uint32_t n, const json& o, const char* key) {
    if (auto it = o.find(key); it != o.end() && it->is_boolean() && it->get<bool>()) {
      PutTag(&b_, n, wire::kVarint);
      PutVarint(&b_, 1);
    }
  }
  void Int(uint32_t n, const json& o, const char* key) {
    if (auto it = o.find(key); it != o.end() && it->is_number_integer() && it->get<int64_t>() != 0) {
      PutTag(&b_, n, wire::kVarint);
      PutVarint(&b_, static_cast<uint64_t>(it->get<int64_t>()));
    }
  }
  void Double(uint32_t n, const json& o, const char* key) {
    if (auto it = o.find(key); it != o.end() && it->is_number() && it->get<double>() != 0) {
      PutTag(&b_, n, wire::kFixed64);
      wire::PutFixed(&b_, std::bit_cast<uint64_t>(it->get<double>()), 8);
    }
  }
  void Sub(uint32_t n, const std::string& payload) { PutLen(&b_, n, payload); }
  std::string& bytes() { return b_; }

 private:
  std::string b_;
};

std::string AnyMsg(const json& v) {
  std::string out;
  PutLen(&out, 2, OpenApiV2Yaml(v));
  return out;
}

std::string Named(const std::string& name, const std::string& value) {
  std::string out;
  if (!name.empty()) PutLen(&out, 1, name);
  PutLen(&out, 2, value);
  return out;
}

// Every x- member of `o` as repeated NamedAny field `n`.
void Extensions(Msg* m, uint32_t n, const json& o) {
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (it.key().starts_with("x-")) m->Sub(n, Named(it.key(), AnyMsg(it.value())));
  }
}

void AnyField(Msg* m, uint32_t n, const json& o, const char* key) {
  if (auto it = o.find(key); it != o.end()) m->Sub(n, AnyMsg(*it));
}

void AnyList(Msg* m, uint32_t n, const json& o, const char* key) {
  if (auto it = o.find(key); it != o.end() && it->is_array()) {
    for (const auto& v : *it) m->Sub(n, AnyMsg(v));
  }
}

const json* Obj(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_object() ? &*it : nullptr;
}

std::string ExternalDocs(const json& o) {
  Msg m;
  m.Str(1, o, "description");
  m.Str(2, o, "url");
  Extensions(&m, 3, o);
  return m.bytes();
}

std::string Xml(const json& o) {
  Msg m;
  m.Str(1, o, "name");
  m.Str(2, o, "namespace");
  m.Str(3, o, "prefix");
  m.Bool(4, o, "attribute");
  m.Bool(5, o, "wrapped");
  Extensions(&m, 6, o);
  return m.bytes();
}

std::string Schema(const json& o);

std::string StringList(const json& v) {
  std::string out;
  if (v.is_string()) PutLen(&out, 1, v.get_ref<const std::string&>());
  if (v.is_array()) {
    for (const auto& s : v) {
      if (s.is_string()) PutLen(&out, 1, s.get_ref<const std::string&>());
    }
  }
  return out;
}

std::string Schema(const json& o) {
  Msg m;
  if (!o.is_object()) return {};
  m.Str(1, o, "$ref");
  m.Str(2, o, "format");
  m.Str(3, o, "title");
  m.Str(4, o, "description");
  AnyField(&m, 5, o, "default");
  m.Double(6, o, "multipleOf");
  m.Double(7, o, "maximum");
  m.Bool(8, o, "exclusiveMaximum");
  m.Double(9, o, "minimum");
  m.Bool(10, o, "exclusiveMinimum");
  m.Int(11, o, "maxLength");
  m.Int(12, o, "minLength");
  m.Str(13, o, "pattern");
  m.Int(14, o, "maxItems");
  m.Int(15, o, "minItems");
  m.Bool(16, o, "uniqueItems");
  m.Int(17, o, "maxProperties");
  m.Int(18, o, "minProperties");
  m.Strs(19, o, "required");
  AnyList(&m, 20, o, "enum");
  if (auto it = o.find("additionalProperties"); it != o.end()) {
    std::string item;
    if (it->is_object()) {
      PutLen(&item, 1, Schema(*it));
    } else if (it->is_boolean()) {
      PutTag(&item, 2, wire::kVarint);
      PutVarint(&item, it->get<bool>() ? 1 : 0);
    }
    if (it->is_object() || it->is_boolean()) m.Sub(21, item);
  }
  if (auto it = o.find("type"); it != o.end() && (it->is_string() || it->is_array())) m.Sub(22, StringList(*it));
  if (auto it = o.find("items"); it != o.end() && (it->is_object() || it->is_array())) {
    std::string items;
    if (it->is_object()) {
      PutLen(&items, 1, Schema(*it));
    } else {
      for (const auto& s : *it) PutLen(&items, 1, Schema(s));
    }
    m.Sub(23, items);
  }
  if (auto it = o.find("allOf"); it != o.end() && it->is_array()) {
    for (const auto& s : *it) m.Sub(24, Schema(s));
  }
  if (const json* props = Obj(o, "properties")) {
    std::string p;
    for (auto it = props->begin(); it != props->end(); ++it) PutLen(&p, 1, Named(it.key(), Schema(it.value())));
    m.Sub(25, p);
  }
  m.Str(26, o, "discriminator");
  m.Bool(27, o, "readOnly");
  if (const json* x = Obj(o, "xml")) m.Sub(28, Xml(*x));
  if (const json* d = Obj(o, "externalDocs")) m.Sub(29, ExternalDocs(*d));
  AnyField(&m, 30, o, "example");
  Extensions(&m, 31, o);
  return m.bytes();
}

// The validation keywords PrimitivesItems, Header and the non-body parameters share, from field
// number `first` (type) on: type, format, items, collectionFormat, default, maximum, ...,
// multipleOf (PrimitivesItems and Header from 1, path/header parameters from 5, query/form from 6).
std::string PrimitivesItems(const json& o);
void Primitives(Msg* m, uint32_t first, const json& o) {
  m->Str(first, o, "type");
  m->Str(first + 1, o, "format");
  if (const json* items = Obj(o, "items")) m->Sub(first + 2, PrimitivesItems(*items));
  m->Str(first + 3, o, "collectionFormat");
  AnyField(m, first + 4, o, "default");
  m->Double(first + 5, o, "maximum");
  m->Bool(first + 6, o, "exclusiveMaximum");
  m->Double(first + 7, o, "minimum");
  m->Bool(first + 8, o, "exclusiveMinimum");
  m->Int(first + 9, o, "maxLength");
  m->Int(first + 10, o, "minLength");
  m->Str(first + 11, o, "pattern");
  m->Int(first + 12, o, "maxItems");
  m->Int(first + 13, o, "minItems");
  m->Bool(first + 14, o, "uniqueItems");
  AnyList(m, first + 15, o, "enum");
  m->Double(first + 16, o, "multipleOf");
}

std::string PrimitivesItems(const json& o) {
  Msg m;
  Primitives(&m, 1, o);
  Extensions(&m, 18, o);
  return m.bytes();
}

std::string Header(const json& o) {
  Msg m;
  Primitives(&m, 1, o);
  m.Str(18, o, "description");
  Extensions(&m, 19, o);
  return m.bytes();
}

std::string JsonReference(const json& o) {
  Msg m;
  m.Str(1, o, "$ref");
  m.Str(2, o, "description");
  return m.bytes();
}

// openapi.v2.Parameter: a body parameter or one of the four non-body sub-schemas.
std::string Parameter(const json& o) {
  Msg m;
  const std::string in = o.value("in", "");
  if (in == "body") {
    Msg b;
    b.Str(1, o, "description");
    b.Str(2, o, "name");
    b.Str(3, o, "in");
    b.Bool(4, o, "required");
    if (const json* s = Obj(o, "schema")) b.Sub(5, Schema(*s));
    Extensions(&b, 6, o);
    m.Sub(1, b.bytes());
    return m.bytes();
  }
  Msg s;
  s.Bool(1, o, "required");
  s.Str(2, o, "in");
  s.Str(3, o, "description");
  s.Str(4, o, "name");
  uint32_t which = 0;
  if (in == "query" || in == "formData") {
    which = in == "query" ? 3 : 2;
    s.Bool(5, o, "allowEmptyValue");
    Primitives(&s, 6, o);
    Extensions(&s, 23, o);
  } else {
    which = in == "header" ? 1 : 4;
    Primitives(&s, 5, o);
    Extensions(&s, 22, o);
  }
  std::string non_body;
  PutLen(&non_body, which, s.bytes());
  m.Sub(2, non_body);
  return m.bytes();
}

std::string ParametersItem(const json& o) {
  std::string out;
  if (o.contains("$ref")) {
    PutLen(&out, 2, JsonReference(o));
  } else {
    PutLen(&out, 1, Parameter(o));
  }
  return out;
}

void Parameters(Msg* m, uint32_t n, const json& o) {
  if (auto it = o.find("parameters"); it != o.end() && it->is_array()) {
    for (const auto& p : *it) {
      if (p.is_object()) m->Sub(n, ParametersItem(p));
    }
  }
}

std::string Response(const json& o) {
  Msg m;
  m.Str(1, o, "description");
  if (const json* s = Obj(o, "schema")) {
    std::string item;
    if (s->value("type", json()) == "file") {
      Msg f;
      f.Str(1, *s, "format");
      f.Str(2, *s, "title");
      f.Str(3, *s, "description");
      AnyField(&f, 4, *s, "default");
      f.Strs(5, *s, "required");
      f.Str(6, *s, "type");
      f.Bool(7, *s, "readOnly");
      if (const json* d = Obj(*s, "externalDocs")) f.Sub(8, ExternalDocs(*d));
      AnyField(&f, 9, *s, "example");
      Extensions(&f, 10, *s);
      PutLen(&item, 2, f.bytes());
    } else {
      PutLen(&item, 1, Schema(*s));
    }
    m.Sub(2, item);
  }
  if (const json* h = Obj(o, "headers")) {
    std::string hs;
    for (auto it = h->begin(); it != h->end(); ++it) PutLen(&hs, 1, Named(it.key(), Header(it.value())));
    m.Sub(3, hs);
  }
  if (const json* e = Obj(o, "examples")) {
    std::string es;
    for (auto it = e->begin(); it != e->end(); ++it) PutLen(&es, 1, Named(it.key(), AnyMsg(it.value())));
    m.Sub(4, es);
  }
  Extensions(&m, 5, o);
  return m.bytes();
}

std::string Responses(const json& o) {
  Msg m;
  for (auto it = o.begin(); it != o.end(); ++it) {
    if (it.key().starts_with("x-") || !it->is_object()) continue;
    std::string value;
    if (it->contains("$ref")) {
      PutLen(&value, 2, JsonReference(*it));
    } else {
      PutLen(&value, 1, Response(*it));
    }
    m.Sub(1, Named(it.key(), value));
  }
  Extensions(&m, 2, o);
  return m.bytes();
}

std::string SecurityRequirement(const json& o) {
  std::string out;
  for (auto it = o.begin(); it != o.end(); ++it) PutLen(&out, 1, Named(it.key(), StringList(it.value())));
  return out;
}

void Security(Msg* m, uint32_t n, const json& o) {
  if (auto it = o.find("security"); it != o.end() && it->is_array()) {
    for (const auto& r : *it) {
      if (r.is_object()) m->Sub(n, SecurityRequirement(r));
    }
  }
}

std::string Operation(const json& o) {
  Msg m;
  m.Strs(1, o, "tags");
  m.Str(2, o, "summary");
  m.Str(3, o, "description");
  if (const json* d = Obj(o, "externalDocs")) m.Sub(4, ExternalDocs(*d));
  m.Str(5, o, "operationId");
  m.Strs(6, o, "produces");
  m.Strs(7, o, "consumes");
  Parameters(&m, 8, o);
  if (const json* r = Obj(o, "responses")) m.Sub(9, Responses(*r));
  m.Strs(10, o, "schemes");
  m.Bool(11, o, "deprecated");
  Security(&m, 12, o);
  Extensions(&m, 13, o);
  return m.bytes();
}

std::string PathItem(const json& o) {
  Msg m;
  m.Str(1, o, "$ref");
  static const char* const kMethods[] = {"get", "put", "post", "delete", "options", "head", "patch"};
  for (uint32_t i = 0; i < 7; ++i) {
    if (const json* op = Obj(o, kMethods[i])) m.Sub(2 + i, Operation(*op));
  }
  Parameters(&m, 9, o);
  Extensions(&m, 10, o);
  return m.bytes();
}

std::string Info(const json& o) {
  Msg m;
  m.Str(1, o, "title");
  m.Str(2, o, "version");
  m.Str(3, o, "description");
  m.Str(4, o, "termsOfService");
  if (const json* c = Obj(o, "contact")) {
    Msg cm;
    cm.Str(1, *c, "name");
    cm.Str(2, *c, "url");
    cm.Str(3, *c, "email");
    Extensions(&cm, 4, *c);
    m.Sub(5, cm.bytes());
  }
  if (const json* l = Obj(o, "license")) {
    Msg lm;
    lm.Str(1, *l, "name");
    lm.Str(2, *l, "url");
    Extensions(&lm, 3, *l);
    m.Sub(6, lm.bytes());
  }
  Extensions(&m, 7, o);
  return m.bytes();
}

// A security scheme by its type (and an oauth2 one by its flow).
std::string SecurityDefinitionsItem(const json& o) {
  const std::string type = o.value("type", "");
  Msg m;
  uint32_t which = 0;
  if (type == "basic") {
    which = 1;
    m.Str(1, o, "type");
    m.Str(2, o, "description");
    Extensions(&m, 3, o);
  } else if (type == "apiKey") {
    which = 2;
    m.Str(1, o, "type");
    m.Str(2, o, "name");
    m.Str(3, o, "in");
    m.Str(4, o, "description");
    Extensions(&m, 5, o);
  } else if (type == "oauth2") {
    const std::string flow = o.value("flow", "");
    which = flow == "implicit" ? 3 : flow == "password" ? 4 : flow == "application" ? 5 : 6;
    m.Str(1, o, "type");
    m.Str(2, o, "flow");
    if (const json* s = Obj(o, "scopes")) {
      std::string scopes;
      for (auto it = s->begin(); it != s->end(); ++it) {
        if (!it->is_string()) continue;
        std::string named;
        PutLen(&named, 1, it.key());
        if (!it->get_ref<const std::string&>().empty()) PutLen(&named, 2, it->get_ref<const std::string&>());
        PutLen(&scopes, 1, named);
      }
      m.Sub(3, scopes);
    }
    uint32_t n = 4;
    if (which == 3 || which == 6) m.Str(n++, o, "authorizationUrl");
    if (which != 3) m.Str(n++, o, "tokenUrl");
    m.Str(n++, o, "description");
    Extensions(&m, n, o);
  } else {
    return {};
  }
  std::string out;
  PutLen(&out, which, m.bytes());
  return out;
}

}  // namespace

std::string OpenApiV2Yaml(const json& value) {
  std::string out;
  EmitYaml(value, 0, 4, &out);
  return out;
}

Result<std::string> EncodeOpenApiV2(const json& swagger) {
  if (!swagger.is_object()) return Status::BadRequest("an OpenAPI v2 document must be a JSON object");
  const json& o = swagger;
  Msg m;
  m.Str(1, o, "swagger");
  if (const json* info = Obj(o, "info")) m.Sub(2, Info(*info));
  m.Str(3, o, "host");
  m.Str(4, o, "basePath");
  m.Strs(5, o, "schemes");
  m.Strs(6, o, "consumes");
  m.Strs(7, o, "produces");
  if (const json* paths = Obj(o, "paths")) {
    Msg p;
    Extensions(&p, 1, *paths);
    for (auto it = paths->begin(); it != paths->end(); ++it) {
      if (it.key().starts_with("/") && it->is_object()) p.Sub(2, Named(it.key(), PathItem(*it)));
    }
    m.Sub(8, p.bytes());
  }
  if (const json* defs = Obj(o, "definitions")) {
    std::string d;
    for (auto it = defs->begin(); it != defs->end(); ++it) PutLen(&d, 1, Named(it.key(), Schema(*it)));
    m.Sub(9, d);
  }
  if (const json* params = Obj(o, "parameters")) {
    std::string d;
    for (auto it = params->begin(); it != params->end(); ++it) {
      if (it->is_object()) PutLen(&d, 1, Named(it.key(), Parameter(*it)));
    }
    m.Sub(10, d);
  }
  if (const json* responses = Obj(o, "responses")) {
    std::string d;
    for (auto it = responses->begin(); it != responses->end(); ++it) {
      if (it->is_object()) PutLen(&d, 1, Named(it.key(), Response(*it)));
    }
    m.Sub(11, d);
  }
  Security(&m, 12, o);
  if (const json* sd = Obj(o, "securityDefinitions")) {
    std::string d;
    for (auto it = sd->begin(); it != sd->end(); ++it) {
      if (it->is_object()) PutLen(&d, 1, Named(it.key(), SecurityDefinitionsItem(*it)));
    }
    m.Sub(13, d);
  }
  if (auto it = o.find("tags"); it != o.end() && it->is_array()) {
    for (const auto& t : *it) {
      if (!t.is_object()) continue;
      Msg tm;
      tm.Str(1, t, "name");
      tm.Str(2, t, "description");
      if (const json* d = Obj(t, "externalDocs")) tm.Sub(3, ExternalDocs(*d));
      Extensions(&tm, 4, t);
      m.Sub(14, tm.bytes());
    }
  }
  if (const json* d = Obj(o, "externalDocs")) m.Sub(15, ExternalDocs(*d));
  Extensions(&m, 16, o);
  return std::move(m.bytes());
}

}  // namespace kube::protobuf
