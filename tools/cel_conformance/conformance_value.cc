#include "conformance_value.h"

#include <charconv>
#include <cmath>

namespace kube::celconf {

namespace {

using cel::Kind;
using cel::Value;
using textproto::Field;
using textproto::Message;

Converted Unsupported(std::string category) { return {.unsupported = std::move(category)}; }
Converted Malformed(std::string what) { return {.error = std::move(what)}; }
Converted Of(Value v) { return {.value = std::move(v)}; }

bool Int64Field(const Message& m, std::string_view name, int64_t* out) {
  const Field* f = m.Find(name);
  if (!f) {
    *out = 0;
    return true;
  }
  return textproto::ParseInt64(f->scalar, out);
}

// google.protobuf.Value, the JSON value.
Converted FromJsonValue(const Message& m);

Converted FromStruct(const Message& m) {
  cel::MapEntries entries;
  for (const Field* f : m.FindAll("fields")) {
    if (!f->message) return Malformed("Struct.fields is not a message");
    const Message* value = f->message->FindMessage("value");
    Converted v = value ? FromJsonValue(*value) : Of(Value::Null());
    if (!v.ok()) return v;
    entries.emplace_back(Value::String(f->message->Scalar("key")), std::move(v.value));
  }
  return Of(Value::Map(std::move(entries)));
}

Converted FromJsonList(const Message& m) {
  cel::ValueList items;
  for (const Field* f : m.FindAll("values")) {
    if (!f->message) return Malformed("ListValue.values is not a message");
    Converted v = FromJsonValue(*f->message);
    if (!v.ok()) return v;
    items.push_back(std::move(v.value));
  }
  return Of(Value::List(std::move(items)));
}

Converted FromJsonValue(const Message& m) {
  if (m.Find("null_value")) return Of(Value::Null());
  if (const Field* f = m.Find("number_value")) {
    double d;
    if (!textproto::ParseDouble(f->scalar, &d)) return Malformed("bad number_value " + f->scalar);
    return Of(Value::Double(d));
  }
  if (const Field* f = m.Find("string_value")) return Of(Value::String(f->scalar));
  if (const Field* f = m.Find("bool_value")) return Of(Value::Bool(f->scalar == "true"));
  if (const Message* s = m.FindMessage("struct_value")) return FromStruct(*s);
  if (const Message* l = m.FindMessage("list_value")) return FromJsonList(*l);
  // An empty google.protobuf.Value is a null.
  return Of(Value::Null());
}

// The single bracketed field of an Any written in expanded form.
const Field* AnyContent(const Message& m) {
  for (const auto& f : m.fields) {
    if (f.bracketed && f.kind == Field::Kind::kMessage) return &f;
  }
  return nullptr;
}

}  // namespace

Converted FromAny(std::string_view type_url, const Message& m) {
  const size_t slash = type_url.rfind('/');
  const std::string_view type = slash == std::string_view::npos ? type_url : type_url.substr(slash + 1);
  if (type == "google.protobuf.Duration" || type == "google.protobuf.Timestamp") {
    int64_t seconds, nanos;
    if (!Int64Field(m, "seconds", &seconds) || !Int64Field(m, "nanos", &nanos)) return Malformed("bad seconds/nanos");
    if (type == "google.protobuf.Timestamp") {
      return Of(Value::OfTimestamp({.seconds = seconds, .nanos = static_cast<int32_t>(nanos)}));
    }
    // Go's time.Duration range; the tests stay within it.
    return Of(Value::OfDuration({.nanos = seconds * 1000000000 + nanos}));
  }
  const Field* value = m.Find("value");
  if (type == "google.protobuf.Int64Value" || type == "google.protobuf.Int32Value") {
    int64_t i = 0;
    if (value && !textproto::ParseInt64(value->scalar, &i)) return Malformed("bad wrapper value");
    return Of(Value::Int(i));
  }
  if (type == "google.protobuf.UInt64Value" || type == "google.protobuf.UInt32Value") {
    uint64_t u = 0;
    if (value && !textproto::ParseUint64(value->scalar, &u)) return Malformed("bad wrapper value");
    return Of(Value::Uint(u));
  }
  if (type == "google.protobuf.DoubleValue" || type == "google.protobuf.FloatValue") {
    double d = 0;
    if (value && !textproto::ParseDouble(value->scalar, &d)) return Malformed("bad wrapper value");
    // A float wrapper holds a 32-bit float.
    if (type == "google.protobuf.FloatValue") d = static_cast<float>(d);
    return Of(Value::Double(d));
  }
  if (type == "google.protobuf.StringValue") return Of(Value::String(value ? value->scalar : ""));
  if (type == "google.protobuf.BytesValue") return Of(Value::Bytes(value ? value->scalar : ""));
  if (type == "google.protobuf.BoolValue") return Of(Value::Bool(value && value->scalar == "true"));
  if (type == "google.protobuf.Struct") return FromStruct(m);
  if (type == "google.protobuf.ListValue") return FromJsonList(m);
  if (type == "google.protobuf.Value") return FromJsonValue(m);
  if (type == "google.protobuf.Any") {
    const Field* inner = AnyContent(m);
    if (!inner) return Unsupported("messages");  // an Any in binary form (type_url + value bytes)
    return FromAny(inner->name, *inner->message);
  }
  return Unsupported("messages");
}

Converted FromExprValue(const Message& v) {
  if (v.fields.empty()) return Malformed("empty cel.expr.Value");
  const Field& f = v.fields.back();
  const std::string& s = f.scalar;
  if (f.name == "null_value") return Of(Value::Null());
  if (f.name == "bool_value") return Of(Value::Bool(s == "true" || s == "True" || s == "t" || s == "1"));
  if (f.name == "int64_value") {
    int64_t i;
    if (!textproto::ParseInt64(s, &i)) return Malformed("bad int64_value " + s);
    return Of(Value::Int(i));
  }
  if (f.name == "uint64_value") {
    uint64_t u;
    if (!textproto::ParseUint64(s, &u)) return Malformed("bad uint64_value " + s);
    return Of(Value::Uint(u));
  }
  if (f.name == "double_value") {
    double d;
    if (!textproto::ParseDouble(s, &d)) return Malformed("bad double_value " + s);
    return Of(Value::Double(d));
  }
  if (f.name == "string_value") return Of(Value::String(s));
  if (f.name == "bytes_value") return Of(Value::Bytes(s));
  if (f.name == "type_value") return Of(Value::Type(s));
  if (f.name == "enum_value") return Unsupported("enums");
  if (f.name == "list_value") {
    cel::ValueList items;
    if (f.message) {
      for (const Field* item : f.message->FindAll("values")) {
        if (!item->message) return Malformed("list_value.values is not a message");
        Converted c = FromExprValue(*item->message);
        if (!c.ok()) return c;
        items.push_back(std::move(c.value));
      }
    }
    return Of(Value::List(std::move(items)));
  }
  if (f.name == "map_value") {
    cel::MapEntries entries;
    if (f.message) {
      for (const Field* entry : f.message->FindAll("entries")) {
        const Message* key = entry->message ? entry->message->FindMessage("key") : nullptr;
        const Message* value = entry->message ? entry->message->FindMessage("value") : nullptr;
        if (!key || !value) return Malformed("map_value entry without key or value");
        Converted k = FromExprValue(*key);
        if (!k.ok()) return k;
        Converted val = FromExprValue(*value);
        if (!val.ok()) return val;
        entries.emplace_back(std::move(k.value), std::move(val.value));
      }
    }
    return Of(Value::Map(std::move(entries)));
  }
  if (f.name == "object_value") {
    const Field* content = f.message ? AnyContent(*f.message) : nullptr;
    if (!content) return Unsupported("messages");
    return FromAny(content->name, *content->message);
  }
  return Malformed("unknown cel.expr.Value field " + f.name);
}

bool ConformanceEqual(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Kind::kDouble: {
      const double x = a.AsDouble(), y = b.AsDouble();
      return (std::isnan(x) && std::isnan(y)) || x == y;
    }
    case Kind::kList: {
      const auto &x = a.AsList(), &y = b.AsList();
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!ConformanceEqual(x[i], y[i])) return false;
      }
      return true;
    }
    case Kind::kMap: {
      const auto &x = a.AsMap(), &y = b.AsMap();
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x) {
        bool found = false;
        for (const auto& [k2, v2] : y) {
          if (ConformanceEqual(k, k2)) {
            found = ConformanceEqual(v, v2);
            break;
          }
        }
        if (!found) return false;
      }
      return true;
    }
    case Kind::kOptional: {
      const Value *x = a.OptionalValue(), *y = b.OptionalValue();
      if (!x || !y) return x == y;
      return ConformanceEqual(*x, *y);
    }
    case Kind::kError: return true;
    default: return cel::Equal(a, b);
  }
}

std::string Render(const Value& v) {
  switch (v.kind()) {
    case Kind::kDouble: {
      const double d = v.AsDouble();
      if (std::isnan(d)) return "NaN";
      if (std::isinf(d)) return d > 0 ? "+Inf" : "-Inf";
      char buf[40];
      auto r = std::to_chars(buf, buf + sizeof buf, d);
      std::string s(buf, r.ptr - buf);
      // Keep doubles recognisable next to ints: 1.0, not 1.
      if (s.find_first_of(".e") == std::string::npos) s += ".0";
      return s;
    }
    case Kind::kList: {
      std::string out = "[";
      for (const auto& item : v.AsList()) out += (out.size() > 1 ? ", " : "") + Render(item);
      return out + "]";
    }
    case Kind::kMap: {
      std::string out = "{";
      for (const auto& [k, val] : v.AsMap()) out += (out.size() > 1 ? ", " : "") + Render(k) + ": " + Render(val);
      return out + "}";
    }
    case Kind::kOptional:
      return v.OptionalValue() ? "optional.of(" + Render(*v.OptionalValue()) + ")" : "optional.none()";
    case Kind::kType: return "type(" + std::string(v.AsTypeName()) + ")";
    default: return cel::DebugString(v);
  }
}

}  // namespace kube::celconf
