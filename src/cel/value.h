// CEL runtime values (cel-spec langdef "Values"): null, bool, int (int64), uint (uint64), double,
// string (UTF-8; sizes and indexes count Unicode code points), bytes, list, map, timestamp,
// duration, type, optional, error and opaque objects (the Kubernetes libraries' IP, CIDR, URL,
// Quantity, Semver and named-format values). Errors are values: functions return them and strict
// functions propagate them, so that `&&`/`||` can absorb them as the spec requires.
//
// A Value is small (a tag and 16 bytes) and cheap to copy: strings, bytes, lists, maps, optionals
// and errors share immutable payloads. Maps keep their entries sorted by key, so lookup is a
// binary search and iteration order is deterministic; keys are bool, int, uint or string, and an
// int, uint or integral double key finds the numerically equal key of another numeric kind
// (heterogeneous equality).
//
// Thread-safety: values are immutable; share them freely between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kube::cel {

class Value;

enum class Kind : uint8_t {
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kList,
  kMap,
  kTimestamp,
  kDuration,
  kType,
  kOptional,
  kError,
  kOpaque,  // an OpaqueObject: a library type CEL knows only by name (`net.IP`, `kubernetes.URL`)
};

// A point in time: seconds since the Unix epoch and nanoseconds within the second (0..999999999).
// CEL's range is 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
struct Timestamp {
  int64_t seconds = 0;
  int32_t nanos = 0;
  friend bool operator==(const Timestamp&, const Timestamp&) = default;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

// A signed span of time in nanoseconds, as Go's time.Duration (about ±292 years), which is what
// the Kubernetes CEL environment uses.
struct Duration {
  int64_t nanos = 0;
  friend bool operator==(const Duration&, const Duration&) = default;
  friend auto operator<=>(const Duration&, const Duration&) = default;
};

// A type as a value: `type(1) == int`. `name` is the CEL type name ("int", "list", "map",
// "google.protobuf.Timestamp", "optional_type", "type", "null_type", or an object type's name).
struct TypeValue {
  std::shared_ptr<const std::string> name;
  std::string_view Name() const { return name ? std::string_view(*name) : std::string_view("dyn"); }
};

// The payload of a kOpaque value: an immutable object of a library type. Values of one type name
// are compared with Equals; values of different type names are never equal.
class OpaqueObject {
 public:
  virtual ~OpaqueObject() = default;
  // The CEL type name, e.g. "net.IP"; stable for the object's lifetime.
  virtual std::string_view TypeName() const = 0;
  // REQUIRES: other.TypeName() == TypeName().
  virtual bool Equals(const OpaqueObject& other) const = 0;
  // A rendering for messages and tests, e.g. `ip("10.0.0.1")`.
  virtual std::string DebugString() const = 0;
};

using ValueList = std::vector<Value>;
using MapEntries = std::vector<std::pair<Value, Value>>;

struct StringPayload {
  std::shared_ptr<const std::string> text;
};
struct BytesPayload {
  std::shared_ptr<const std::string> data;
};
struct OptionalPayload {
  std::shared_ptr<const Value> value;  // null: optional.none()
};
struct ErrorPayload {
  std::shared_ptr<const std::string> message;
};

// How a list compares and concatenates (Kubernetes x-kubernetes-list-type): atomic lists are
// CEL lists; sets compare regardless of order and `+` adds only new elements; map lists (of
// objects identified by their key fields) compare item by key and `+` replaces items by key.
enum class ListSemantics : uint8_t { kAtomic, kSet, kMap };
struct ListPayload {
  ValueList items;
  ListSemantics semantics = ListSemantics::kAtomic;
  std::vector<std::string> map_keys;  // kMap: the key field names, as rules see them
};
struct OpaquePayload {
  std::shared_ptr<const OpaqueObject> object;  // never null
};

class Value {
 public:
  Value() = default;  // null
  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Value(b); }
  static Value Int(int64_t i) { return Value(i); }
  static Value Uint(uint64_t u) { return Value(u); }
  static Value Double(double d) { return Value(d); }
  static Value String(std::string s);
  // A string value that refers to `s` instead of copying it: nothing is allocated, and copies of
  // the value share no counter. For values built over a document that outlives every use of
  // them (a request body while its rules run).
  // REQUIRES: `s` outlives the value, all its copies and every value that holds them.
  static Value BorrowedString(const std::string& s);
  static Value Bytes(std::string b);
  static Value List(ValueList items);
  // A list with Kubernetes list-type semantics (ListSemantics).
  static Value SetList(ValueList items);
  static Value MapList(ValueList items, std::vector<std::string> keys);
  // `entries` in any order; a duplicate key keeps the last entry (callers that must refuse
  // duplicates check with MapHasDuplicateKeys first).
  static Value Map(MapEntries entries);
  // A map whose entries are already in strictly increasing key order (KeyLess), as a JSON
  // object's are: nothing is compared. REQUIRES: that order (Map checks it; this trusts it).
  static Value SortedMap(MapEntries entries);
  static Value OfTimestamp(Timestamp t) { return Value(t); }
  static Value OfDuration(Duration d) { return Value(d); }
  static Value Type(std::string_view name);
  static Value OptionalOf(Value v);
  static Value OptionalNone();
  static Value Error(std::string message);
  // REQUIRES: object != nullptr.
  static Value Opaque(std::shared_ptr<const OpaqueObject> object);

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool IsError() const { return kind() == Kind::kError; }

  bool AsBool() const { return std::get<bool>(v_); }
  int64_t AsInt() const { return std::get<int64_t>(v_); }
  uint64_t AsUint() const { return std::get<uint64_t>(v_); }
  double AsDouble() const { return std::get<double>(v_); }
  const std::string& AsString() const { return *std::get<StringPayload>(v_).text; }
  const std::string& AsBytes() const { return *std::get<BytesPayload>(v_).data; }
  const ValueList& AsList() const { return std::get<std::shared_ptr<const ListPayload>>(v_)->items; }
  // kList: its list-type semantics and, for map lists, key fields.
  const ListPayload& AsListPayload() const { return *std::get<std::shared_ptr<const ListPayload>>(v_); }
  // Sorted by key (KeyLess).
  const MapEntries& AsMap() const { return *std::get<std::shared_ptr<const MapEntries>>(v_); }
  Timestamp AsTimestamp() const { return std::get<Timestamp>(v_); }
  Duration AsDuration() const { return std::get<Duration>(v_); }
  std::string_view AsTypeName() const { return std::get<TypeValue>(v_).Name(); }
  // kOptional: the value, or nullptr for none.
  const Value* OptionalValue() const { return std::get<OptionalPayload>(v_).value.get(); }
  const std::string& ErrorMessage() const { return *std::get<ErrorPayload>(v_).message; }
  // Libraries downcast it to their own class once a Param::Opaque(type name) matched.
  const OpaqueObject& AsOpaque() const { return *std::get<OpaquePayload>(v_).object; }

  // kMap: the value of `key`, or nullptr.
  const Value* Find(const Value& key) const;
  const Value* FindField(std::string_view key) const;

  // The CEL type name of this value ("int", "list", "google.protobuf.Duration" ...).
  std::string_view TypeName() const;

 private:
  using Storage = std::variant<std::monostate, bool, int64_t, uint64_t, double, StringPayload, BytesPayload,
                               std::shared_ptr<const ListPayload>, std::shared_ptr<const MapEntries>, Timestamp,
                               Duration, TypeValue, OptionalPayload, ErrorPayload, OpaquePayload>;
  template <class T>
  explicit Value(T v) : v_(std::move(v)) {}
  Storage v_;
};

// CEL equality (`==`): numeric values compare across int, uint and double; lists and maps
// element-wise (a set or map list on the left compares as kube's list types do); values of
// different kinds are unequal. Errors are not handled here.
bool Equal(const Value& a, const Value& b);

// `a + b` for lists: concatenation, or for a set or map list on the left kube's union (new
// elements appended; map list items with the key of an item of `a` replace it in place).
Value ConcatLists(const Value& a, const Value& b);

// The order of map keys: by kind (bool < numbers < string), then by value; int, uint and double
// keys compare numerically, so equal numbers sort together.
bool KeyLess(const Value& a, const Value& b);

// Whether a value can be a map key (bool, int, uint, string).
bool IsKeyKind(Kind k);

// Whether `entries` holds two equal keys (a map literal with a repeated key is an error).
bool MapHasDuplicateKeys(const MapEntries& entries);

// JSON → CEL: null, bool, integers as int (uint when above int64), floats as double, strings,
// arrays as lists, objects as maps with string keys.
Value FromJson(const nlohmann::json& j);

// A value's CEL-ish rendering for messages and tests: 1, 2u, 1.5, "s", b"\x01", [1, 2], {"a": 1}.
std::string DebugString(const Value& v);

// UTF-8 helpers: the number of code points of `s` (invalid bytes count one each).
size_t CodePointCount(std::string_view s);

}  // namespace kube::cel
