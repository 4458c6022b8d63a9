#include "cel/value.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace kube::cel {

namespace {

// A payload block: the count the Value reads, then the content its accessors read.
template <class T>
struct Counted final : value_internal::RefCount {
  template <class... Args>
  explicit Counted(Args&&... args) : body(std::forward<Args>(args)...) {}
  T body;
};

}  // namespace

// The allocation of every heap kind: the count and `T` in one block.
template <class T, class... Args>
Value Value::MakeCounted(Kind kind, Args&&... args) {
  auto* block = new Counted<T>(std::forward<Args>(args)...);
  return Value(kind, block, &block->body);
}

void Value::Destroy(Kind kind, value_internal::RefCount* count) noexcept {
  switch (kind) {
    case Kind::kString:
    case Kind::kBytes:
    case Kind::kType:
    case Kind::kError: delete static_cast<Counted<std::string>*>(count); return;
    case Kind::kList: delete static_cast<Counted<ListPayload>*>(count); return;
    case Kind::kMap: delete static_cast<Counted<MapEntries>*>(count); return;
    case Kind::kOptional: delete static_cast<Counted<Value>*>(count); return;
    case Kind::kOpaque: delete static_cast<value_internal::OpaqueBlock*>(count); return;
    default: return;  // inline kinds are never counted
  }
}

Value Value::String(std::string s) { return MakeCounted<std::string>(Kind::kString, std::move(s)); }
Value Value::Bytes(std::string b) { return MakeCounted<std::string>(Kind::kBytes, std::move(b)); }
Value Value::List(ValueList items) { return MakeCounted<ListPayload>(Kind::kList, ListPayload{std::move(items)}); }
Value Value::SetList(ValueList items) {
  return MakeCounted<ListPayload>(Kind::kList, ListPayload{std::move(items), ListSemantics::kSet});
}
Value Value::MapList(ValueList items, std::vector<std::string> keys) {
  return MakeCounted<ListPayload>(Kind::kList, ListPayload{std::move(items), ListSemantics::kMap, std::move(keys)});
}

namespace {

bool Contains(const ValueList& list, const Value& v) {
  for (const auto& x : list) {
    if (Equal(x, v)) return true;
  }
  return false;
}

// Whether two map list items have the same key: the same value, or both none, in each key field.
bool SameMapKey(const std::vector<std::string>& keys, const Value& a, const Value& b) {
  for (const auto& k : keys) {
    const Value* x = a.FindField(k);
    const Value* y = b.FindField(k);
    if ((x == nullptr) != (y == nullptr)) return false;
    if (x != nullptr && !Equal(*x, *y)) return false;
  }
  return true;
}

bool ListEqual(const ListPayload& x, const ValueList& y) {
  if (x.items.size() != y.size()) return false;
  switch (x.semantics) {
    case ListSemantics::kAtomic:
      for (size_t i = 0; i < y.size(); ++i) {
        if (!Equal(x.items[i], y[i])) return false;
      }
      return true;
    case ListSemantics::kSet:
      for (const auto& v : x.items) {
        if (!Contains(y, v)) return false;
      }
      return true;
    case ListSemantics::kMap:
      for (const auto& v : y) {
        const Value* match = nullptr;
        for (const auto& item : x.items) {
          if (item.kind() == Kind::kMap && v.kind() == Kind::kMap && SameMapKey(x.map_keys, item, v)) {
            match = &item;
            break;
          }
        }
        if (match == nullptr || !Equal(*match, v)) return false;
      }
      return true;
  }
  return false;
}

}  // namespace

Value ConcatLists(const Value& a, const Value& b) {
  const ListPayload& x = a.AsListPayload();
  const ValueList& y = b.AsList();
  ValueList out = x.items;
  switch (x.semantics) {
    case ListSemantics::kAtomic:
      out.insert(out.end(), y.begin(), y.end());
      return Value::List(std::move(out));
    case ListSemantics::kSet:
      for (const auto& v : y) {
        if (!Contains(out, v)) out.push_back(v);
      }
      return Value::SetList(std::move(out));
    case ListSemantics::kMap: {
      const size_t original = out.size();
      for (const auto& v : y) {
        bool replaced = false;
        for (size_t i = 0; i < original && v.kind() == Kind::kMap; ++i) {
          if (out[i].kind() == Kind::kMap && SameMapKey(x.map_keys, out[i], v)) {
            out[i] = v;
            replaced = true;
            break;
          }
        }
        if (!replaced) out.push_back(v);
      }
      return Value::MapList(std::move(out), x.map_keys);
    }
  }
  return Value::List(std::move(out));
}

Value Value::Map(MapEntries entries) {
  // Entries already in strictly increasing key order (a JSON object's, in the common case) are
  // the sorted, duplicate-free form as they are.
  bool sorted = true;
  for (size_t i = 1; i < entries.size() && sorted; ++i) sorted = KeyLess(entries[i - 1].first, entries[i].first);
  if (sorted) return MakeCounted<MapEntries>(Kind::kMap, std::move(entries));
  // Stable, so that of equal keys the last one written ends last and wins below.
  std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return KeyLess(a.first, b.first); });
  MapEntries unique;
  unique.reserve(entries.size());
  for (auto& e : entries) {
    if (!unique.empty() && !KeyLess(unique.back().first, e.first) && Equal(unique.back().first, e.first)) {
      unique.back() = std::move(e);
    } else {
      unique.push_back(std::move(e));
    }
  }
  return MakeCounted<MapEntries>(Kind::kMap, std::move(unique));
}

Value Value::SortedMap(MapEntries entries) { return MakeCounted<MapEntries>(Kind::kMap, std::move(entries)); }

Value Value::Type(std::string_view name) {
  // The built-in type names (`type(x)`, an identifier such as `int`) point at text that is never
  // freed instead of allocating; other names get a payload.
  constexpr size_t kBuiltInCount = 14;
  static const std::string* const kBuiltIn = new std::string[kBuiltInCount]{
      "null_type", "bool", "int", "uint", "double", "string", "bytes", "list", "map", "type", "dyn",
      "optional_type", "google.protobuf.Timestamp", "google.protobuf.Duration"};
  for (size_t i = 0; i < kBuiltInCount; ++i) {
    if (kBuiltIn[i] == name) return Value(Kind::kType, nullptr, &kBuiltIn[i]);
  }
  return MakeCounted<std::string>(Kind::kType, name);
}
Value Value::OptionalOf(Value v) { return MakeCounted<Value>(Kind::kOptional, std::move(v)); }
Value Value::Error(std::string message) { return MakeCounted<std::string>(Kind::kError, std::move(message)); }
Value Value::Opaque(std::shared_ptr<const OpaqueObject> object) {
  auto* block = new value_internal::OpaqueBlockOf<std::shared_ptr<const OpaqueObject>>(std::move(object));
  return Value(Kind::kOpaque, block, block->body.get());
}

// Values are copied everywhere (arguments, list elements, map entries): keep them a tag and 16 bytes.
static_assert(sizeof(Value) <= 24, "Value grew");

namespace {

// Numeric comparison across int, uint and double: -1, 0, 1, or 2 when unordered (NaN).
int CompareNumbers(const Value& a, const Value& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  const Kind ka = a.kind(), kb = b.kind();
  if (ka == Kind::kDouble || kb == Kind::kDouble) {
    auto as_double = [](const Value& v) {
      switch (v.kind()) {
        case Kind::kInt: return static_cast<double>(v.AsInt());
        case Kind::kUint: return static_cast<double>(v.AsUint());
        default: return v.AsDouble();
      }
    };
    const double x = as_double(a), y = as_double(b);
    if (std::isnan(x) || std::isnan(y)) return 2;
    // An int compared with a double: exact when the double is integral and in range.
    if (ka == Kind::kInt && kb == Kind::kDouble && y >= -9.2233720368547758e18 && y < 9.2233720368547758e18 &&
        std::trunc(y) == y) {
      return sign(a.AsInt(), static_cast<int64_t>(y));
    }
    if (kb == Kind::kInt && ka == Kind::kDouble && x >= -9.2233720368547758e18 && x < 9.2233720368547758e18 &&
        std::trunc(x) == x) {
      return sign(static_cast<int64_t>(x), b.AsInt());
    }
    return sign(x, y);
  }
  if (ka == Kind::kInt && kb == Kind::kInt) return sign(a.AsInt(), b.AsInt());
  if (ka == Kind::kUint && kb == Kind::kUint) return sign(a.AsUint(), b.AsUint());
  if (ka == Kind::kInt) return a.AsInt() < 0 ? -1 : sign(static_cast<uint64_t>(a.AsInt()), b.AsUint());
  return b.AsInt() < 0 ? 1 : sign(a.AsUint(), static_cast<uint64_t>(b.AsInt()));
}

bool IsNumber(Kind k) { return k == Kind::kInt || k == Kind::kUint || k == Kind::kDouble; }

int KindRank(Kind k) {
  switch (k) {
    case Kind::kBool: return 0;
    case Kind::kInt:
    case Kind::kUint:
    case Kind::kDouble: return 1;
    case Kind::kString: return 2;
    default: return 3 + static_cast<int>(k);
  }
}

}  // namespace

bool IsKeyKind(Kind k) { return k == Kind::kBool || k == Kind::kInt || k == Kind::kUint || k == Kind::kString; }

bool KeyLess(const Value& a, const Value& b) {
  const int ra = KindRank(a.kind()), rb = KindRank(b.kind());
  if (ra != rb) return ra < rb;
  switch (a.kind()) {
    case Kind::kBool: return !a.AsBool() && b.AsBool();
    case Kind::kInt:
    case Kind::kUint:
    case Kind::kDouble: return CompareNumbers(a, b) == -1;
    case Kind::kString: return a.AsString() < b.AsString();
    default: return false;
  }
}

bool Equal(const Value& a, const Value& b) {
  const Kind ka = a.kind(), kb = b.kind();
  if (IsNumber(ka) && IsNumber(kb)) return CompareNumbers(a, b) == 0;
  if (ka != kb) return false;
  switch (ka) {
    case Kind::kNull: return true;
    case Kind::kBool: return a.AsBool() == b.AsBool();
    case Kind::kString: return a.AsString() == b.AsString();
    case Kind::kBytes: return a.AsBytes() == b.AsBytes();
    case Kind::kList: return ListEqual(a.AsListPayload(), b.AsList());
    case Kind::kMap: {
      const auto &x = a.AsMap(), &y = b.AsMap();
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x) {
        const Value* other = b.Find(k);
        if (other == nullptr || !Equal(v, *other)) return false;
      }
      return true;
    }
    case Kind::kTimestamp: return a.AsTimestamp() == b.AsTimestamp();
    case Kind::kDuration: return a.AsDuration() == b.AsDuration();
    case Kind::kType: return a.AsTypeName() == b.AsTypeName();
    case Kind::kOptional: {
      const Value *x = a.OptionalValue(), *y = b.OptionalValue();
      if (x == nullptr || y == nullptr) return x == y;
      return Equal(*x, *y);
    }
    case Kind::kOpaque: {
      const OpaqueObject &x = a.AsOpaque(), &y = b.AsOpaque();
      return x.TypeName() == y.TypeName() && x.Equals(y);
    }
    default: return false;
  }
}

bool MapHasDuplicateKeys(const MapEntries& entries) {
  std::vector<const Value*> keys;
  keys.reserve(entries.size());
  for (const auto& e : entries) keys.push_back(&e.first);
  std::sort(keys.begin(), keys.end(), [](const Value* a, const Value* b) { return KeyLess(*a, *b); });
  for (size_t i = 1; i < keys.size(); ++i) {
    if (Equal(*keys[i - 1], *keys[i])) return true;
  }
  return false;
}

const Value* Value::Find(const Value& key) const {
  if (kind() != Kind::kMap) return nullptr;
  const auto& entries = AsMap();
  auto it = std::lower_bound(entries.begin(), entries.end(), key,
                             [](const auto& e, const Value& k) { return KeyLess(e.first, k); });
  // Numerically equal keys of different kinds sort together: scan them.
  for (; it != entries.end() && !KeyLess(key, it->first); ++it) {
    if (Equal(it->first, key)) return &it->second;
  }
  return nullptr;
}

namespace {

// FindField's binary search, apart so that the scan of small objects stays a leaf function.
[[gnu::noinline]] const Value* FindFieldSorted(const MapEntries& entries, std::string_view key) {
  auto it = std::lower_bound(entries.begin(), entries.end(), key, [](const auto& e, std::string_view k) {
    if (e.first.kind() != Kind::kString) return KindRank(e.first.kind()) < KindRank(Kind::kString);
    return std::string_view(e.first.AsString()) < k;
  });
  if (it != entries.end() && it->first.kind() == Kind::kString && it->first.AsString() == key) return &it->second;
  return nullptr;
}

}  // namespace

const Value* Value::FindField(std::string_view key) const {
  if (kind() != Kind::kMap) return nullptr;
  const auto& entries = AsMap();
  if (entries.size() > 8) return FindFieldSorted(entries, key);
  // Objects are small: a scan comparing lengths first touches fewer bytes than a binary search.
  for (const auto& [k, v] : entries) {
    if (k.kind() != Kind::kString) continue;
    const std::string& name = k.AsString();
    // Names of one length usually differ in their first byte: no call to memcmp for them.
    if (name.size() == key.size() && (key.empty() || name[0] == key[0]) && name == key) return &v;
  }
  return nullptr;
}

std::string_view Value::TypeName() const {
  switch (kind()) {
    case Kind::kNull: return "null_type";
    case Kind::kBool: return "bool";
    case Kind::kInt: return "int";
    case Kind::kUint: return "uint";
    case Kind::kDouble: return "double";
    case Kind::kString: return "string";
    case Kind::kBytes: return "bytes";
    case Kind::kList: return "list";
    case Kind::kMap: return "map";
    case Kind::kTimestamp: return "google.protobuf.Timestamp";
    case Kind::kDuration: return "google.protobuf.Duration";
    case Kind::kType: return "type";
    case Kind::kOptional: return "optional_type";
    case Kind::kError: return "*types.Err";
    case Kind::kOpaque: return AsOpaque().TypeName();
  }
  return "dyn";
}

Value FromJson(const nlohmann::json& j) {
  switch (j.type()) {
    case nlohmann::json::value_t::null: return Value::Null();
    case nlohmann::json::value_t::boolean: return Value::Bool(j.get<bool>());
    case nlohmann::json::value_t::number_integer: return Value::Int(j.get<int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      const uint64_t u = j.get<uint64_t>();
      return u <= static_cast<uint64_t>(INT64_MAX) ? Value::Int(static_cast<int64_t>(u)) : Value::Uint(u);
    }
    case nlohmann::json::value_t::number_float: return Value::Double(j.get<double>());
    case nlohmann::json::value_t::string: return Value::String(j.get<std::string>());
    case nlohmann::json::value_t::array: {
      ValueList items;
      items.reserve(j.size());
      for (const auto& item : j) items.push_back(FromJson(item));
      return Value::List(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      MapEntries entries;
      entries.reserve(j.size());
      for (auto it = j.begin(); it != j.end(); ++it) entries.emplace_back(Value::String(it.key()), FromJson(it.value()));
      return Value::Map(std::move(entries));
    }
    default: return Value::Null();
  }
}

size_t CodePointCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

namespace {

void Quote(std::string_view s, std::string* out) {
  *out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      *out += '\\';
      *out += static_cast<char>(c);
    } else if (c == '\n') {
      *out += "\\n";
    } else if (c < 0x20) {
      char buf[8];
      snprintf(buf, sizeof buf, "\\x%02x", c);
      *out += buf;
    } else {
      *out += static_cast<char>(c);
    }
  }
  *out += '"';
}

void Render(const Value& v, std::string* out) {
  switch (v.kind()) {
    case Kind::kNull: *out += "null"; return;
    case Kind::kBool: *out += v.AsBool() ? "true" : "false"; return;
    case Kind::kInt: *out += std::to_string(v.AsInt()); return;
    case Kind::kUint: *out += std::to_string(v.AsUint()) + "u"; return;
    case Kind::kDouble: {
      char buf[32];
      auto r = std::to_chars(buf, buf + sizeof buf, v.AsDouble());
      *out += std::string_view(buf, r.ptr - buf);
      return;
    }
    case Kind::kString: Quote(v.AsString(), out); return;
    case Kind::kBytes: *out += 'b'; Quote(v.AsBytes(), out); return;
    case Kind::kList: {
      *out += '[';
      bool first = true;
      for (const auto& item : v.AsList()) {
        if (!first) *out += ", ";
        first = false;
        Render(item, out);
      }
      *out += ']';
      return;
    }
    case Kind::kMap: {
      *out += '{';
      bool first = true;
      for (const auto& [k, val] : v.AsMap()) {
        if (!first) *out += ", ";
        first = false;
        Render(k, out);
        *out += ": ";
        Render(val, out);
      }
      *out += '}';
      return;
    }
    case Kind::kTimestamp:
      *out += "timestamp(" + std::to_string(v.AsTimestamp().seconds) + "s+" + std::to_string(v.AsTimestamp().nanos) + "ns)";
      return;
    case Kind::kDuration: *out += "duration(" + std::to_string(v.AsDuration().nanos) + "ns)"; return;
    case Kind::kType: *out += std::string(v.AsTypeName()); return;
    case Kind::kOptional:
      if (v.OptionalValue() == nullptr) {
        *out += "optional.none()";
      } else {
        *out += "optional.of(";
        Render(*v.OptionalValue(), out);
        *out += ')';
      }
      return;
    case Kind::kError: *out += "error(" + v.ErrorMessage() + ")"; return;
    case Kind::kOpaque: *out += v.AsOpaque().DebugString(); return;
  }
}

}  // namespace

std::string DebugString(const Value& v) {
  std::string out;
  Render(v, &out);
  return out;
}

}  // namespace kube::cel
