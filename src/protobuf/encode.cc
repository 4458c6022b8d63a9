// JSON -> protobuf (see protobuf.h for the contract).
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "protobuf/proto_catalogue.h"
#include "protobuf/protobuf.h"
#include "protobuf/well_known.h"
#include "protobuf/wire.h"

namespace kube::protobuf {
namespace {

using nlohmann::json;
constexpr int kMaxDepth = 100;

class Encoder {
 public:
  // Appends the payload of message `m` built from `v` (an object, or a special type's JSON form).
  Status Message(const protobuf::Message& m, const json& v, std::string* out, int depth) {
    if (depth > kMaxDepth) return Fail("nesting deeper than 100 levels");
    if (m.special != Special::kNone) return Special(m, v, out, depth);
    if (!v.is_object()) return Fail("expected an object");
    for (const Field& f : m.fields) {
      if (f.inline_) {  // Go embedded struct: its fields live in this same JSON object
        std::string payload;
        KUBE_RETURN_IF_ERROR(Message(*f.type.message, v, &payload, depth + 1));
        wire::PutLen(out, f.number, payload);
        continue;
      }
      auto it = v.find(f.json_name);
      if (it == v.end()) continue;
      path_.push_back(f.json_name);
      KUBE_RETURN_IF_ERROR(FieldValue(f, *it, out, depth));
      path_.pop_back();
    }
    return Status::OK();
  }

  Status Fail(std::string_view what) const {
    std::string where;
    for (const auto& p : path_) where += (where.empty() ? "" : ".") + p;
    return Status::BadRequest("cannot encode as protobuf: " + (where.empty() ? "" : where + ": ") +
                              std::string(what));
  }

 private:
  Status FieldValue(const Field& f, const json& v, std::string* out, int depth) {
    if (v.is_null()) {
      // Go's zero Time (JSON null) marshals as an empty message; other nulls are absent.
      const bool time = f.type.message != nullptr && !f.repeated && !f.is_map &&
                        (f.type.message->special == Special::kTime ||
                         f.type.message->special == Special::kMicroTime);
      if (time) wire::PutLen(out, f.number, "");
      return Status::OK();
    }
    if (f.is_map) {
      if (!v.is_object()) return Fail("expected an object (map)");
      for (auto it = v.begin(); it != v.end(); ++it) {  // std::map order: sorted by key bytes
        if (f.key.scalar != ScalarType::kString) return Fail("only string map keys are supported");
        std::string entry;
        wire::PutLen(&entry, 1, it.key());
        if (!it->is_null() || f.type.scalar != ScalarType::kMessage)
          KUBE_RETURN_IF_ERROR(Value(f.type, 2, it->is_null() ? json("") : *it, &entry, depth + 1));
        wire::PutLen(out, f.number, entry);
      }
      return Status::OK();
    }
    if (f.repeated) {
      if (!v.is_array()) return Fail("expected an array");
      for (const json& item : v) KUBE_RETURN_IF_ERROR(Value(f.type, f.number, item, out, depth));
      return Status::OK();
    }
    return Value(f.type, f.number, v, out, depth);
  }

  template <class T>
  Status Integer(const json& v, T* out) {
    if (v.is_number_unsigned()) {
      const auto u = v.get<uint64_t>();
      if (u > static_cast<uint64_t>(std::numeric_limits<T>::max())) return Fail("integer out of range");
      *out = static_cast<T>(u);
      return Status::OK();
    }
    if (v.is_number_integer()) {
      const auto i = v.get<int64_t>();
      if constexpr (std::is_unsigned_v<T>) {
        if (i < 0) return Fail("integer out of range");
        if (static_cast<uint64_t>(i) > std::numeric_limits<T>::max()) return Fail("integer out of range");
      } else {
        if (i < std::numeric_limits<T>::min() || i > std::numeric_limits<T>::max())
          return Fail("integer out of range");
      }
      *out = static_cast<T>(i);
      return Status::OK();
    }
    if (v.is_number_float()) {  // accept 3.0, as Go's JSON decoding does for ints
      const double d = v.get<double>();
      if (std::trunc(d) != d || d < static_cast<double>(std::numeric_limits<T>::min()) ||
          d >= std::ldexp(1.0, std::numeric_limits<T>::digits))
        return Fail("expected an integer");
      *out = static_cast<T>(d);
      return Status::OK();
    }
    return Fail("expected an integer");
  }

  // Appends field `number` holding value `v` of type `t`.
  Status Value(const FieldType& t, uint32_t number, const json& v, std::string* out, int depth) {
    auto varint = [&](uint64_t x) {
      wire::PutTag(out, number, wire::kVarint);
      wire::PutVarint(out, x);
      return Status::OK();
    };
    auto fixed = [&](uint64_t x, int bytes) {
      wire::PutTag(out, number, bytes == 4 ? wire::kFixed32 : wire::kFixed64);
      wire::PutFixed(out, x, bytes);
      return Status::OK();
    };
    switch (t.scalar) {
      case ScalarType::kMessage: {
        std::string payload;
        KUBE_RETURN_IF_ERROR(Message(*t.message, v, &payload, depth + 1));
        wire::PutLen(out, number, payload);
        return Status::OK();
      }
      case ScalarType::kString:
        if (!v.is_string()) return Fail("expected a string");
        wire::PutLen(out, number, v.get_ref<const std::string&>());
        return Status::OK();
      case ScalarType::kBytes: {
        if (!v.is_string()) return Fail("expected a base64 string");
        std::optional<std::string> raw = Base64StdDecode(v.get_ref<const std::string&>());
        if (!raw) return Fail("invalid base64");
        wire::PutLen(out, number, *raw);
        return Status::OK();
      }
      case ScalarType::kBool:
        if (!v.is_boolean()) return Fail("expected a boolean");
        return varint(v.get<bool>() ? 1 : 0);
      case ScalarType::kDouble:
      case ScalarType::kFloat: {
        if (!v.is_number()) return Fail("expected a number");
        if (t.scalar == ScalarType::kFloat) return fixed(std::bit_cast<uint32_t>(v.get<float>()), 4);
        return fixed(std::bit_cast<uint64_t>(v.get<double>()), 8);
      }
      default: break;
    }
    int64_t i = 0;
    uint64_t u = 0;
    switch (t.scalar) {
      case ScalarType::kInt32: case ScalarType::kSint32: case ScalarType::kSfixed32: {
        int32_t x = 0;
        KUBE_RETURN_IF_ERROR(Integer(v, &x));
        i = x;
        break;
      }
      case ScalarType::kUint32: case ScalarType::kFixed32: {
        uint32_t x = 0;
        KUBE_RETURN_IF_ERROR(Integer(v, &x));
        u = x;
        break;
      }
      case ScalarType::kUint64: case ScalarType::kFixed64:
        KUBE_RETURN_IF_ERROR(Integer(v, &u));
        break;
      default:
        KUBE_RETURN_IF_ERROR(Integer(v, &i));
    }
    switch (t.scalar) {
      case ScalarType::kSint32: case ScalarType::kSint64:
        return varint((static_cast<uint64_t>(i) << 1) ^ static_cast<uint64_t>(i >> 63));
      case ScalarType::kSfixed32: return fixed(static_cast<uint32_t>(i), 4);
      case ScalarType::kSfixed64: return fixed(static_cast<uint64_t>(i), 8);
      case ScalarType::kFixed32: return fixed(u, 4);
      case ScalarType::kFixed64: return fixed(u, 8);
      case ScalarType::kUint32: case ScalarType::kUint64: return varint(u);
      default: return varint(static_cast<uint64_t>(i));  // int32 negatives: 10-byte varint
    }
  }

  Status Special(const protobuf::Message& m, const json& v, std::string* out, int depth) {
    switch (m.special) {
      case Special::kTime:
      case Special::kMicroTime: {
        if (v.is_null()) return Status::OK();
        if (!v.is_string()) return Fail("expected an RFC 3339 time string");
        std::optional<Timestamp> t = ParseRfc3339(v.get_ref<const std::string&>());
        if (!t) return Fail("invalid RFC 3339 time \"" + v.get<std::string>() + "\"");
        // Time has second precision in JSON (and so on the wire, as Go truncates on decode).
        const int32_t nanos = m.special == Special::kTime ? 0 : t->nanos / 1000 * 1000;
        wire::PutTag(out, 1, wire::kVarint);
        wire::PutVarint(out, static_cast<uint64_t>(t->seconds));
        wire::PutTag(out, 2, wire::kVarint);
        wire::PutVarint(out, static_cast<uint64_t>(static_cast<int64_t>(nanos)));
        return Status::OK();
      }
      case Special::kDuration: {
        if (!v.is_string()) return Fail("expected a duration string");
        std::optional<int64_t> d = ParseGoDuration(v.get_ref<const std::string&>());
        if (!d) return Fail("invalid duration \"" + v.get<std::string>() + "\"");
        wire::PutTag(out, 1, wire::kVarint);
        wire::PutVarint(out, static_cast<uint64_t>(*d));
        return Status::OK();
      }
      case Special::kQuantity:
        if (v.is_string()) {
          wire::PutLen(out, 1, v.get_ref<const std::string&>());
        } else if (v.is_number()) {
          wire::PutLen(out, 1, v.dump());
        } else {
          return Fail("expected a quantity string");
        }
        return Status::OK();
      case Special::kIntOrString: {  // gogo writes all three fields
        const bool is_string = v.is_string();
        int32_t n = 0;
        if (!is_string) KUBE_RETURN_IF_ERROR(Integer(v, &n));
        wire::PutTag(out, 1, wire::kVarint);
        wire::PutVarint(out, is_string ? 1 : 0);
        wire::PutTag(out, 2, wire::kVarint);
        wire::PutVarint(out, static_cast<uint64_t>(static_cast<int64_t>(n)));
        wire::PutLen(out, 3, is_string ? v.get_ref<const std::string&>() : std::string());
        return Status::OK();
      }
      case Special::kRawJson:
        if (!v.is_null()) wire::PutLen(out, 1, v.dump());
        return Status::OK();
      case Special::kWrapper: {
        if (!v.is_array()) return Fail("expected an array");
        const Field& items = m.fields.at(0);
        for (const json& item : v) KUBE_RETURN_IF_ERROR(Value(items.type, 1, item, out, depth));
        return Status::OK();
      }
      case Special::kNone: break;
    }
    return Fail("unsupported special type");
  }

  std::vector<std::string> path_;
};

}  // namespace

Result<std::string> EncodeObject(const json& obj) {
  if (!obj.is_object()) return Status::BadRequest("cannot encode as protobuf: not a JSON object");
  auto api_version = obj.find("apiVersion");
  auto kind = obj.find("kind");
  if (api_version == obj.end() || kind == obj.end() || !api_version->is_string() ||
      !kind->is_string())
    return Status::BadRequest("cannot encode as protobuf: apiVersion and kind are required");
  const std::string& av = api_version->get_ref<const std::string&>();
  const std::string& k = kind->get_ref<const std::string&>();
  const std::string name = MessageNameFor(av, k);
  const Message* m = name.empty() ? nullptr : ProtoCatalogue::Get().Find(name);
  if (m == nullptr)
    return Status::BadRequest("no protobuf form known for kind \"" + k + "\" in \"" + av + "\"");
  Encoder e;
  std::string raw;
  try {
    KUBE_RETURN_IF_ERROR(e.Message(*m, obj, &raw, 1));
  } catch (const std::exception& ex) {  // nlohmann dump() of invalid UTF-8 in embedded JSON
    return Status::BadRequest(std::string("cannot encode as protobuf: ") + ex.what());
  }
  std::string type_meta;
  wire::PutLen(&type_meta, 1, av);
  wire::PutLen(&type_meta, 2, k);
  std::string body(kMagic);
  wire::PutLen(&body, 1, type_meta);
  wire::PutLen(&body, 2, raw);
  wire::PutLen(&body, 3, "");  // contentEncoding
  wire::PutLen(&body, 4, "");  // contentType
  return body;
}

Result<std::string> EncodeStatus(const json& status) {
  if (!status.is_object()) return Status::BadRequest("cannot encode as protobuf: not a JSON object");
  json s = status;
  if (!s.contains("apiVersion")) s["apiVersion"] = "v1";
  if (!s.contains("kind")) s["kind"] = "Status";
  return EncodeObject(s);
}

}  // namespace kube::protobuf
