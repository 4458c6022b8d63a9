// go-yaml v2's decode.go semantics for an interface{} target, then sigs.k8s.io/yaml's
// convertToJSONableObject and encoding/json's number rules.

#include "yaml/decode.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include "yaml/resolve.h"

namespace kube::yaml::internal {

namespace {

using Json = nlohmann::json;

// A Go value as go-yaml produces it for an interface{} target.
struct GoValue {
  enum class Kind { kNil, kBool, kInt, kUint, kFloat, kBigInt, kString, kSeq, kMap };
  Kind kind = Kind::kNil;
  bool b = false;
  int64_t i = 0;
  uint64_t u = 0;
  double f = 0;
  std::string s;
  std::vector<GoValue> items;                     // kSeq items, or kMap keys
  std::vector<GoValue> values;                    // kMap values, parallel to items
  std::unordered_map<std::string, size_t> index;  // kMap: IndexKey(key) -> position
};

// A string that is equal for two keys exactly when Go's == is; nullopt for keys that never
// compare equal (NaN, *big.Int pointers).
std::optional<std::string> IndexKey(const GoValue& k) {
  switch (k.kind) {
    case GoValue::Kind::kNil:
      return "n";
    case GoValue::Kind::kBool:
      return k.b ? "b1" : "b0";
    case GoValue::Kind::kInt:
      return "i" + std::to_string(k.i);
    case GoValue::Kind::kUint:
      return "u" + std::to_string(k.u);
    case GoValue::Kind::kString:
      return "s" + k.s;
    case GoValue::Kind::kFloat: {
      if (std::isnan(k.f)) return std::nullopt;
      const double f = k.f == 0 ? 0.0 : k.f;  // -0 == 0
      char buf[32];
      std::snprintf(buf, sizeof buf, "f%a", f);
      return std::string(buf);
    }
    default:
      return std::nullopt;
  }
}

// strconv.Quote, close enough for error messages.
std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// fmt's %#v, for error messages.
std::string GoSyntax(const GoValue& v) {
  switch (v.kind) {
    case GoValue::Kind::kNil:
      return "<nil>";
    case GoValue::Kind::kBool:
      return v.b ? "true" : "false";
    case GoValue::Kind::kInt:
      return std::to_string(v.i);
    case GoValue::Kind::kUint: {
      char buf[32];
      std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v.u));
      return buf;
    }
    case GoValue::Kind::kFloat:
      return FormatFloatG(v.f, 64);
    case GoValue::Kind::kBigInt:
      return "&big.Int{...}";
    case GoValue::Kind::kString:
      return Quote(v.s);
    case GoValue::Kind::kSeq: {
      std::string out = "[]interface {}{";
      for (size_t i = 0; i < v.items.size(); ++i) out += (i ? ", " : "") + GoSyntax(v.items[i]);
      return out + "}";
    }
    case GoValue::Kind::kMap: {
      std::string out = "map[interface {}]interface {}{";
      for (size_t i = 0; i < v.items.size(); ++i) {
        out += (i ? ", " : "") + GoSyntax(v.items[i]) + ":" + GoSyntax(v.values[i]);
      }
      return out + "}";
    }
  }
  return "";
}

// base64.StdEncoding.DecodeString, which skips \r and \n and requires padding.
std::optional<std::string> DecodeBase64(std::string_view text) {
  std::string in;
  for (char c : text) {
    if (c != '\r' && c != '\n') in += c;
  }
  if (in.size() % 4 != 0) return std::nullopt;
  auto val = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < in.size(); i += 4) {
    const bool last = i + 4 == in.size();
    int pad = 0;
    if (last && in[i + 3] == '=') pad = in[i + 2] == '=' ? 2 : 1;
    uint32_t n = 0;
    for (size_t k = 0; k < 4; ++k) {
      int d = 0;
      if (k >= 4 - static_cast<size_t>(pad)) {
        if (in[i + k] != '=') return std::nullopt;
      } else {
        d = val(in[i + k]);
        if (d < 0) return std::nullopt;
      }
      n = (n << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>(n >> 16);
    if (pad < 2) out += static_cast<char>((n >> 8) & 0xFF);
    if (pad < 1) out += static_cast<char>(n & 0xFF);
  }
  return out;
}

double AllowedAliasRatio(int64_t decode_count) {
  // go-yaml: up to 99% of decode operations may come from alias expansion in small documents,
  // scaling down to 10% for documents of millions of nodes.
  constexpr int64_t kLow = 400000, kHigh = 4000000;
  if (decode_count <= kLow) return 0.99;
  if (decode_count >= kHigh) return 0.10;
  return 0.99 -
         0.89 * (static_cast<double>(decode_count - kLow) / static_cast<double>(kHigh - kLow));
}

class Decoder {
 public:
  Decoder(const std::vector<Node>& nodes, bool strict)
      : nodes_(nodes), strict_(strict), alias_active_(nodes.size(), false) {}

  GoValue Unmarshal(size_t idx) {
    GoValue out;
    UnmarshalInto(idx, out);
    return out;
  }

  const std::vector<std::string>& type_errors() const { return terrors_; }

 private:
  static constexpr int kMaxDepth = 2000;

  void Count() {
    ++decode_count_;
    if (alias_depth_ > 0) ++alias_count_;
    if (alias_count_ > 100 && decode_count_ > 1000 &&
        static_cast<double>(alias_count_) / static_cast<double>(decode_count_) >
            AllowedAliasRatio(decode_count_)) {
      throw DecodeError("document contains excessive aliasing");
    }
  }

  // d.unmarshal(n, out): `out` is a fresh value, or the map being merged into.
  void UnmarshalInto(size_t idx, GoValue& out) {
    Count();
    if (++depth_ > kMaxDepth) throw DecodeError("exceeded max depth of 2000");
    const Node& n = nodes_[idx];
    switch (n.kind) {
      case Node::Kind::kAlias: {
        if (alias_active_[idx]) {
          throw DecodeError("anchor '" + n.anchor + "' value contains itself");
        }
        alias_active_[idx] = true;
        ++alias_depth_;
        UnmarshalInto(n.target, out);
        --alias_depth_;
        alias_active_[idx] = false;
        break;
      }
      case Node::Kind::kNull:
        out = GoValue();
        break;
      case Node::Kind::kScalar:
        out = Scalar(n);
        break;
      case Node::Kind::kSeq: {
        GoValue seq;
        seq.kind = GoValue::Kind::kSeq;
        for (size_t child : n.children) seq.items.push_back(Unmarshal(child));
        out = std::move(seq);
        break;
      }
      case Node::Kind::kMap: {
        if (out.kind != GoValue::Kind::kMap) {
          out = GoValue();
          out.kind = GoValue::Kind::kMap;
        }
        Mapping(n, out);
        break;
      }
    }
    --depth_;
  }

  GoValue Scalar(const Node& n) {
    GoValue v;
    v.kind = GoValue::Kind::kString;
    if (n.tag == "!") {  // quoted, block or "!"-tagged: always a string
      v.s = n.value;
      return v;
    }
    internal::Scalar sc;
    if (std::optional<std::string> err = Resolve(n.tag == "?" ? "" : n.tag, n.value, &sc)) {
      throw DecodeError(*err);
    }
    if (sc.tag == kBinaryTag) {
      std::optional<std::string> data = DecodeBase64(sc.s);
      if (!data) throw DecodeError("!!binary value contains invalid base64 data");
      v.s = std::move(*data);
      return v;
    }
    switch (sc.kind) {
      case internal::Scalar::Kind::kNull:
        v.kind = GoValue::Kind::kNil;
        break;
      case internal::Scalar::Kind::kBool:
        v.kind = GoValue::Kind::kBool, v.b = sc.b;
        break;
      case internal::Scalar::Kind::kInt:
        v.kind = GoValue::Kind::kInt, v.i = sc.i;
        break;
      case internal::Scalar::Kind::kUint:
        v.kind = GoValue::Kind::kUint, v.u = sc.u;
        break;
      case internal::Scalar::Kind::kFloat:
        v.kind = GoValue::Kind::kFloat, v.f = sc.f;
        break;
      case internal::Scalar::Kind::kBigInt:
        v.kind = GoValue::Kind::kBigInt, v.f = sc.f;
        break;
      case internal::Scalar::Kind::kMerge:
      case internal::Scalar::Kind::kString:
        v.s = n.value;
        break;
    }
    return v;
  }

  bool IsMerge(const Node& n) const {
    return n.kind == Node::Kind::kScalar && n.value == "<<" && (n.tag == "?" || n.tag == kMergeTag);
  }

  void Mapping(const Node& n, GoValue& out) {
    for (size_t i = 0; i + 1 < n.children.size(); i += 2) {
      const Node& key_node = nodes_[n.children[i]];
      if (IsMerge(key_node)) {
        Merge(n.children[i + 1], out);
        continue;
      }
      GoValue k = Unmarshal(n.children[i]);
      if (k.kind == GoValue::Kind::kSeq || k.kind == GoValue::Kind::kMap) {
        throw DecodeError("invalid map key: " + GoSyntax(k));
      }
      GoValue v = Unmarshal(n.children[i + 1]);
      SetMapIndex(nodes_[n.children[i + 1]], out, std::move(k), std::move(v));
    }
  }

  void SetMapIndex(const Node& value_node, GoValue& out, GoValue k, GoValue v) {
    std::optional<std::string> ik = IndexKey(k);
    auto it = ik ? out.index.find(*ik) : out.index.end();
    if (it != out.index.end()) {
      if (strict_) {
        terrors_.push_back("line " + std::to_string(value_node.line + 1) + ": key " + GoSyntax(k) +
                           " already set in map");
        return;
      }
      out.values[it->second] = std::move(v);
      return;
    }
    if (ik) out.index.emplace(*ik, out.items.size());
    out.items.push_back(std::move(k));
    out.values.push_back(std::move(v));
  }

  [[noreturn]] static void FailWantMap() {
    throw DecodeError("map merge requires map or sequence of maps as the value");
  }

  void Merge(size_t idx, GoValue& out) {
    const Node& n = nodes_[idx];
    switch (n.kind) {
      case Node::Kind::kMap:
        UnmarshalInto(idx, out);
        return;
      case Node::Kind::kAlias:
        if (nodes_[n.target].kind != Node::Kind::kMap) FailWantMap();
        UnmarshalInto(idx, out);
        return;
      case Node::Kind::kSeq:
        // Earlier maps take precedence, so merge from the last one.
        for (size_t i = n.children.size(); i-- > 0;) {
          const Node& c = nodes_[n.children[i]];
          const Node& resolved = c.kind == Node::Kind::kAlias ? nodes_[c.target] : c;
          if (resolved.kind != Node::Kind::kMap) FailWantMap();
          UnmarshalInto(n.children[i], out);
        }
        return;
      default:
        FailWantMap();
    }
  }

  const std::vector<Node>& nodes_;
  const bool strict_;
  std::vector<bool> alias_active_;
  std::vector<std::string> terrors_;
  int64_t decode_count_ = 1;  // go-yaml counts the document node too
  int64_t alias_count_ = 0;
  int alias_depth_ = 0;
  int depth_ = 0;
};

// sigs.k8s.io/yaml's key stringification; nullopt for key types it rejects.
std::optional<std::string> KeyString(const GoValue& k) {
  switch (k.kind) {
    case GoValue::Kind::kString:
      return SanitizeUtf8(k.s);
    case GoValue::Kind::kInt:
      return std::to_string(k.i);
    case GoValue::Kind::kBool:
      return k.b ? "true" : "false";
    case GoValue::Kind::kFloat: {
      std::string s = FormatFloatG(k.f, 32);
      if (s == "+Inf") return ".inf";
      if (s == "-Inf") return "-.inf";
      if (s == "NaN") return ".nan";
      return s;
    }
    default:
      return std::nullopt;
  }
}

std::string TypeName(const GoValue& k) {
  switch (k.kind) {
    case GoValue::Kind::kNil:
      return "%!s(<nil>)";
    case GoValue::Kind::kUint:
      return "uint64";
    case GoValue::Kind::kBigInt:
      return "*big.Int";
    default:
      return "interface {}";
  }
}

// Go's encoding/json prints integral floats without a fraction, so a decoder reading the JSON
// back sees an integer; keep them as integers here.
Json FloatJson(double f) {
  if (std::isfinite(f) && f == std::trunc(f)) {
    if (f >= -9223372036854775808.0 && f < 9223372036854775808.0) {
      return static_cast<int64_t>(f);
    }
    if (f > 0 && f < 18446744073709551616.0) return static_cast<uint64_t>(f);
  }
  return f;
}

Json ToJson(const GoValue& v) {
  switch (v.kind) {
    case GoValue::Kind::kNil:
      return nullptr;
    case GoValue::Kind::kBool:
      return v.b;
    case GoValue::Kind::kInt:
      return v.i;
    case GoValue::Kind::kUint:
      return v.u;
    case GoValue::Kind::kFloat:
    case GoValue::Kind::kBigInt:
      return FloatJson(v.f);
    case GoValue::Kind::kString:
      return SanitizeUtf8(v.s);
    case GoValue::Kind::kSeq: {
      Json arr = Json::array();
      for (const GoValue& item : v.items) arr.push_back(ToJson(item));
      return arr;
    }
    case GoValue::Kind::kMap: {
      Json obj = Json::object();
      for (size_t i = 0; i < v.items.size(); ++i) {
        std::optional<std::string> key = KeyString(v.items[i]);
        if (!key) {
          throw DecodeError("unsupported map key of type: " + TypeName(v.items[i]) +
                            ", key: " + GoSyntax(v.items[i]) + ", value: " + GoSyntax(v.values[i]));
        }
        obj[*key] = ToJson(v.values[i]);
      }
      return obj;
    }
  }
  return nullptr;
}

// The first NaN/Inf in encoding order, which encoding/json refuses to encode.
const Json* FirstNonFinite(const Json& j) {
  if (j.is_number_float() && !std::isfinite(j.get<double>())) return &j;
  if (j.is_array() || j.is_object()) {
    for (const Json& child : j) {
      if (const Json* bad = FirstNonFinite(child)) return bad;
    }
  }
  return nullptr;
}

}  // namespace

Result<nlohmann::json> Decode(const std::vector<Node>& nodes, size_t root, bool strict) {
  Decoder decoder(nodes, strict);
  GoValue value = decoder.Unmarshal(root);
  const auto& terrors = decoder.type_errors();
  if (!terrors.empty()) {
    std::string msg = "error converting YAML to JSON: yaml: unmarshal errors:";
    for (const std::string& e : terrors) msg += "\n  " + e;
    return Status::BadRequest(std::move(msg));
  }
  Json j;
  try {
    j = ToJson(value);
  } catch (const DecodeError& e) {
    return Status::BadRequest(std::string("error converting YAML to JSON: ") + e.what());
  }
  if (const Json* bad = FirstNonFinite(j)) {
    return Status::BadRequest("error converting YAML to JSON: json: unsupported value: " +
                              FormatFloatG(bad->get<double>(), 64));
  }
  return j;
}

}  // namespace kube::yaml::internal
