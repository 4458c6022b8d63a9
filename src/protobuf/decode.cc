// Protobuf -> JSON (see protobuf.h for the contract).
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "catalogue/catalogue.h"
#include "protobuf/proto_catalogue.h"
#include "protobuf/protobuf.h"
#include "protobuf/well_known.h"
#include "protobuf/wire.h"
#include "util/json_depth.h"

namespace kube::protobuf {
namespace {

using nlohmann::json;
using wire::Reader;
constexpr int kMaxDepth = 100;
// Years 0000..9999, the range Go's RFC 3339 formatting accepts.
constexpr int64_t kMinSeconds = -62167219200, kMaxSeconds = 253402300799;

bool ValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<uint8_t>(s[i]);
    const size_t n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : 9;
    if (n == 9 || i + n >= s.size()) return false;
    uint32_t cp = n == 0 ? c : n == 1 ? (c & 0x1f) : n == 2 ? (c & 0x0f) : (c & 0x07);
    for (size_t k = 1; k <= n; ++k) {
      const auto cc = static_cast<uint8_t>(s[i + k]);
      if ((cc >> 6) != 2) return false;
      cp = (cp << 6) | (cc & 0x3f);
    }
    static constexpr uint32_t kMin[] = {0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return false;
    i += n + 1;
  }
  return true;
}

class Decoder {
 public:
  // Decodes the message `m` from `data` into `*obj` (merging, for inline fields).
  Status Message(const protobuf::Message& m, std::string_view data, json* obj, int depth) {
    if (depth > kMaxDepth) return Fail("nesting deeper than 100 levels");
    if (m.special != Special::kNone) return Special(m, data, obj, depth);
    if (!obj->is_object()) *obj = json::object();
    Reader r(data);
    while (!r.done()) {
      uint64_t tag;
      if (!r.Varint(&tag)) return Fail("truncated or invalid field tag");
      const uint64_t number = tag >> 3;
      const auto wt = static_cast<uint32_t>(tag & 7);
      if (number == 0 || number > 0x1fffffff) return Fail("invalid field number");
      const Field* f = m.ByNumber(static_cast<uint32_t>(number));
      if (f == nullptr) {
        KUBE_RETURN_IF_ERROR(Skip(r, wt));
        continue;
      }
      path_.push_back(f->json_name);
      Status s = FieldValue(*f, r, wt, obj, depth);
      if (!s.ok()) return s;
      path_.pop_back();
    }
    return Status::OK();
  }

  Status Fail(std::string_view what) const {
    std::string where;
    for (const auto& p : path_) where += (where.empty() ? "" : ".") + p;
    return Status::BadRequest("invalid protobuf body: " + (where.empty() ? "" : where + ": ") +
                              std::string(what));
  }

 private:
  Status FieldValue(const Field& f, Reader& r, uint32_t wt, json* obj, int depth) {
    if (f.is_map) {
      std::string_view entry;
      if (wt != wire::kLen) return Fail("wrong wire type for a map entry");
      if (!r.Bytes(&entry)) return Fail("map entry length past the end of the buffer");
      return MapEntry(f, entry, &(*obj)[f.json_name], depth);
    }
    if (f.inline_) {
      std::string_view bytes;
      if (wt != wire::kLen || !r.Bytes(&bytes)) return Fail("bad embedded message");
      path_.pop_back();  // inline fields have no JSON name of their own
      Status s = Message(*f.type.message, bytes, obj, depth + 1);
      path_.push_back(f.json_name);
      return s;
    }
    if (f.repeated) {
      json& arr = (*obj)[f.json_name];
      if (!arr.is_array()) arr = json::array();
      const bool packable = f.type.scalar != ScalarType::kMessage &&
                            f.type.scalar != ScalarType::kString &&
                            f.type.scalar != ScalarType::kBytes;
      if (packable && wt == wire::kLen) {  // packed encoding
        std::string_view packed;
        if (!r.Bytes(&packed)) return Fail("packed length past the end of the buffer");
        Reader pr(packed);
        while (!pr.done()) {
          json v;
          KUBE_RETURN_IF_ERROR(Value(f.type, pr, ScalarWireType(f.type.scalar), &v, depth));
          arr.push_back(std::move(v));
        }
        return Status::OK();
      }
      json v;
      KUBE_RETURN_IF_ERROR(Value(f.type, r, wt, &v, depth));
      arr.push_back(std::move(v));
      return Status::OK();
    }
    json v;
    KUBE_RETURN_IF_ERROR(Value(f.type, r, wt, &v, depth));
    const bool empty_string = v.is_string() && v.get_ref<const std::string&>().empty() &&
                              f.type.scalar == ScalarType::kString;
    const bool zero = (v.is_boolean() && !v.get<bool>()) || (v.is_number_integer() && v == 0);
    if (!f.required && ((empty_string && !f.keep_empty) || (zero && f.omit_zero))) {
      obj->erase(f.json_name);
    } else {
      (*obj)[f.json_name] = std::move(v);
    }
    return Status::OK();
  }

  static uint32_t ScalarWireType(ScalarType t) {
    switch (t) {
      case ScalarType::kFixed32: case ScalarType::kSfixed32: case ScalarType::kFloat:
        return wire::kFixed32;
      case ScalarType::kFixed64: case ScalarType::kSfixed64: case ScalarType::kDouble:
        return wire::kFixed64;
      case ScalarType::kMessage: case ScalarType::kString: case ScalarType::kBytes:
        return wire::kLen;
      default:
        return wire::kVarint;
    }
  }

  // One value of type `t` whose tag (wire type `wt`) has been read.
  Status Value(const FieldType& t, Reader& r, uint32_t wt, json* out, int depth) {
    if (wt != ScalarWireType(t.scalar)) return Fail("wrong wire type " + std::to_string(wt));
    uint64_t v = 0;
    std::string_view bytes;
    switch (wt) {
      case wire::kVarint:
        if (!r.Varint(&v)) return Fail("truncated or overlong varint");
        break;
      case wire::kFixed32:
        if (!r.Fixed(4, &v)) return Fail("truncated fixed32");
        break;
      case wire::kFixed64:
        if (!r.Fixed(8, &v)) return Fail("truncated fixed64");
        break;
      default:
        if (!r.Bytes(&bytes)) return Fail("length past the end of the buffer");
    }
    switch (t.scalar) {
      case ScalarType::kMessage: return Message(*t.message, bytes, out, depth + 1);
      case ScalarType::kString:
        if (!ValidUtf8(bytes)) return Fail("string is not valid UTF-8");
        *out = std::string(bytes);
        return Status::OK();
      case ScalarType::kBytes: *out = Base64StdEncode(bytes); return Status::OK();
      case ScalarType::kBool: *out = v != 0; return Status::OK();
      case ScalarType::kInt32: *out = static_cast<int32_t>(v); return Status::OK();
      case ScalarType::kInt64: *out = static_cast<int64_t>(v); return Status::OK();
      case ScalarType::kUint32: *out = static_cast<uint32_t>(v); return Status::OK();
      case ScalarType::kUint64: case ScalarType::kFixed64: *out = v; return Status::OK();
      case ScalarType::kSint32: *out = static_cast<int32_t>((v >> 1) ^ (0 - (v & 1))); return Status::OK();
      case ScalarType::kSint64: *out = static_cast<int64_t>((v >> 1) ^ (0 - (v & 1))); return Status::OK();
      case ScalarType::kFixed32: *out = static_cast<uint32_t>(v); return Status::OK();
      case ScalarType::kSfixed32: *out = static_cast<int32_t>(v); return Status::OK();
      case ScalarType::kSfixed64: *out = static_cast<int64_t>(v); return Status::OK();
      case ScalarType::kDouble: *out = std::bit_cast<double>(v); return Status::OK();
      case ScalarType::kFloat: *out = std::bit_cast<float>(static_cast<uint32_t>(v)); return Status::OK();
    }
    return Fail("unsupported type");
  }

  Status MapEntry(const Field& f, std::string_view entry, json* map, int depth) {
    if (depth + 1 > kMaxDepth) return Fail("nesting deeper than 100 levels");
    if (!map->is_object()) *map = json::object();
    Reader r(entry);
    json key = "", value;
    bool have_value = false;
    while (!r.done()) {
      uint64_t tag;
      if (!r.Varint(&tag)) return Fail("truncated map entry");
      const auto wt = static_cast<uint32_t>(tag & 7);
      if (tag >> 3 == 1) {
        KUBE_RETURN_IF_ERROR(Value(f.key, r, wt, &key, depth + 1));
      } else if (tag >> 3 == 2) {
        value = json();
        KUBE_RETURN_IF_ERROR(Value(f.type, r, wt, &value, depth + 1));
        have_value = true;
      } else {
        if (tag >> 3 == 0) return Fail("invalid field number");
        KUBE_RETURN_IF_ERROR(Skip(r, wt));
      }
    }
    if (!have_value) {  // the value type's zero value
      if (f.type.scalar == ScalarType::kMessage) {
        KUBE_RETURN_IF_ERROR(Message(*f.type.message, "", &value, depth + 2));
      } else if (f.type.scalar == ScalarType::kString || f.type.scalar == ScalarType::kBytes) {
        value = "";
      } else if (f.type.scalar == ScalarType::kBool) {
        value = false;
      } else {
        value = 0;
      }
    }
    (*map)[key.is_string() ? key.get<std::string>() : key.dump()] = std::move(value);
    return Status::OK();
  }

  // Scalar fields 1..3 of a special message, by number: varint or length-delimited.
  struct Parts {
    uint64_t varint[4] = {0, 0, 0, 0};
    std::string_view bytes[4];
    std::vector<std::string_view> repeated;  // every field 1 payload (wrappers)
  };
  Status ReadParts(std::string_view data, Parts* p) {
    Reader r(data);
    while (!r.done()) {
      uint64_t tag;
      if (!r.Varint(&tag)) return Fail("truncated field tag");
      const uint64_t n = tag >> 3;
      const auto wt = static_cast<uint32_t>(tag & 7);
      if (n == 0) return Fail("invalid field number");
      if (n > 3) {
        KUBE_RETURN_IF_ERROR(Skip(r, wt));
      } else if (wt == wire::kVarint) {
        if (!r.Varint(&p->varint[n])) return Fail("truncated or overlong varint");
      } else if (wt == wire::kLen) {
        if (!r.Bytes(&p->bytes[n])) return Fail("length past the end of the buffer");
        if (n == 1) p->repeated.push_back(p->bytes[n]);
      } else {
        return Fail("wrong wire type " + std::to_string(wt));
      }
    }
    return Status::OK();
  }

  Status Special(const protobuf::Message& m, std::string_view data, json* out, int depth) {
    Parts p;
    KUBE_RETURN_IF_ERROR(ReadParts(data, &p));
    switch (m.special) {
      case Special::kTime:
      case Special::kMicroTime: {
        if (data.empty()) {  // Go's zero Time marshals to nothing; its JSON is null
          *out = nullptr;
          return Status::OK();
        }
        const auto secs = static_cast<int64_t>(p.varint[1]);
        const auto nanos = static_cast<int32_t>(p.varint[2]);
        if (secs < kMinSeconds || secs > kMaxSeconds || nanos < 0 || nanos > 999999999)
          return Fail("time out of range");
        *out = FormatRfc3339({secs, nanos}, m.special == Special::kMicroTime);
        return Status::OK();
      }
      case Special::kDuration:
        *out = FormatGoDuration(static_cast<int64_t>(p.varint[1]));
        return Status::OK();
      case Special::kQuantity:
        if (!ValidUtf8(p.bytes[1])) return Fail("quantity is not valid UTF-8");
        *out = p.bytes[1].empty() ? std::string("0") : std::string(p.bytes[1]);
        return Status::OK();
      case Special::kIntOrString:
        if (p.varint[1] == 0) {
          *out = static_cast<int32_t>(p.varint[2]);
        } else if (p.varint[1] == 1) {
          if (!ValidUtf8(p.bytes[3])) return Fail("string is not valid UTF-8");
          *out = std::string(p.bytes[3]);
        } else {
          return Fail("IntOrString type must be 0 or 1");
        }
        return Status::OK();
      case Special::kRawJson: return RawJson(p.bytes[1], out, depth);
      case Special::kWrapper:
        *out = json::array();
        for (std::string_view s : p.repeated) {
          if (!ValidUtf8(s)) return Fail("string is not valid UTF-8");
          out->push_back(std::string(s));
        }
        return Status::OK();
      case Special::kNone: break;
    }
    return Fail("unsupported special type");
  }

  Status RawJson(std::string_view raw, json* out, int depth);

  Status Skip(Reader& r, uint32_t wt) {
    uint64_t v;
    std::string_view b;
    switch (wt) {
      case wire::kVarint: if (r.Varint(&v)) return Status::OK(); break;
      case wire::kFixed64: if (r.Fixed(8, &v)) return Status::OK(); break;
      case wire::kFixed32: if (r.Fixed(4, &v)) return Status::OK(); break;
      case wire::kLen: if (r.Bytes(&b)) return Status::OK(); break;
      default: return Fail("unsupported wire type " + std::to_string(wt));
    }
    return Fail("truncated unknown field");
  }

  std::vector<std::string> path_;
};

Result<json> DecodeEnvelope(std::string_view body, const KindDefaults& defaults, int depth);

Status Decoder::RawJson(std::string_view raw, json* out, int depth) {
  if (raw.empty()) {
    *out = nullptr;
    return Status::OK();
  }
  if (raw.size() >= 4 && raw.substr(0, 4) == kMagic) {  // a nested protobuf object
    Result<json> nested = DecodeEnvelope(raw, {}, depth + 1);
    if (!nested.ok()) return nested.status();
    *out = std::move(*nested);
    return Status::OK();
  }
  // Nothing may walk a value nested deeper than kube's JSON decoder allows.
  if (FindJsonDepthExcess(raw) != std::string_view::npos) return Fail("embedded raw JSON nested too deeply");
  json parsed = json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return Fail("embedded raw JSON is not valid JSON");
  *out = std::move(parsed);
  return Status::OK();
}

Result<json> DecodeEnvelope(std::string_view body, const KindDefaults& defaults, int depth) {
  if (depth > kMaxDepth) return Status::BadRequest("invalid protobuf body: nesting deeper than 100 levels");
  if (body.size() < kMagic.size()) return Status::BadRequest("invalid protobuf body: truncated before the k8s magic prefix");
  if (body.substr(0, 4) != kMagic)
    return Status::BadRequest("invalid protobuf body: missing the \"k8s\\x00\" magic prefix");
  if (body.size() == kMagic.size()) return Status::BadRequest("empty body");
  // runtime.Unknown {1: typeMeta {1: apiVersion, 2: kind}, 2: raw, 3: contentEncoding, 4: contentType}
  static const protobuf::Message* unknown = ProtoCatalogue::Get().Find("k8s.io.apimachinery.pkg.runtime.Unknown");
  Decoder d;
  json env;
  KUBE_RETURN_IF_ERROR(d.Message(*unknown, body.substr(4), &env, depth));
  const json& tm = env.contains("typeMeta") ? env["typeMeta"] : json::object();
  std::string api_version = tm.value("apiVersion", "");
  std::string kind = tm.value("kind", "");
  if (kind.empty()) kind = defaults.kind;
  if (api_version.empty()) api_version = defaults.api_version;
  if (kind.empty() || api_version.empty())
    return Status::BadRequest("invalid protobuf body: the envelope has no apiVersion/kind");
  const std::string encoding = env.value("contentEncoding", "");
  const std::string type = env.value("contentType", "");
  if (!encoding.empty())
    return Status::BadRequest("invalid protobuf body: unsupported contentEncoding \"" + encoding + "\"");
  if (!type.empty() && type != kContentType)
    return Status::BadRequest("invalid protobuf body: unsupported contentType \"" + type + "\"");
  const std::string name = MessageNameFor(api_version, kind);
  const protobuf::Message* m = name.empty() ? nullptr : ProtoCatalogue::Get().Find(name);
  if (m == nullptr)
    return Status::BadRequest("no protobuf form known for kind \"" + kind + "\" in \"" + api_version + "\"");
  // Unknown.raw was decoded as base64 text by the generic decoder: decode it again raw.
  std::optional<std::string> raw = Base64StdDecode(env.value("raw", ""));
  json obj = json::object();
  KUBE_RETURN_IF_ERROR(d.Message(*m, raw.value_or(""), &obj, depth + 1));
  obj["apiVersion"] = api_version;
  obj["kind"] = kind;
  return obj;
}

}  // namespace

std::string MessageNameFor(std::string_view api_version, std::string_view kind) {
  // Option kinds are registered in every group version (metav1.AddToGroupVersion), so a client
  // may send its own group's DeleteOptions.
  static constexpr std::string_view kOptionKinds[] = {"DeleteOptions", "ListOptions",   "GetOptions",
                                                      "CreateOptions", "UpdateOptions", "PatchOptions"};
  if (std::find(std::begin(kOptionKinds), std::end(kOptionKinds), kind) != std::end(kOptionKinds)) {
    return "k8s.io.apimachinery.pkg.apis.meta.v1." + std::string(kind);
  }
  std::string_view group, version = api_version;
  if (size_t slash = api_version.find('/'); slash != std::string_view::npos) {
    group = api_version.substr(0, slash);
    version = api_version.substr(slash + 1);
  }
  const ProtoCatalogue& pc = ProtoCatalogue::Get();
  std::vector<std::string> candidates;
  if (const catalogue::Schema* s = catalogue::Catalogue::BuiltIn().KindSchema(group, version, kind)) {
    std::string_view def = s->definition();  // "io.k8s.api.core.v1.ConfigMap"
    if (def.rfind("io.k8s.", 0) == 0) candidates.push_back("k8s.io." + std::string(def.substr(7)));
  }
  // Kinds the OpenAPI document does not tag: meta.k8s.io kinds and the group's own package.
  if (group.empty() || group == "meta.k8s.io")
    candidates.push_back("k8s.io.apimachinery.pkg.apis.meta." + std::string(version) + "." + std::string(kind));
  std::string_view label = group.empty() ? "core" : group.substr(0, group.find('.'));
  if (group == "internal.apiserver.k8s.io") label = "apiserverinternal";
  candidates.push_back("k8s.io.api." + std::string(label) + "." + std::string(version) + "." + std::string(kind));
  for (const std::string& c : candidates) {
    if (pc.Find(c) != nullptr) return c;
  }
  return "";
}

Result<json> DecodeObject(std::string_view body, const KindDefaults& defaults) { return DecodeEnvelope(body, defaults, 0); }

}  // namespace kube::protobuf
