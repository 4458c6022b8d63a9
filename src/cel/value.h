// CEL runtime values (cel-spec langdef "Values"): null, bool, int (int64), uint (uint64), double,
// string (UTF-8; sizes and indexes count Unicode code points), bytes, list, map, timestamp,
// duration, type, optional, error and opaque objects (the Kubernetes libraries' IP, CIDR, URL,
// Quantity, Semver and named-format values). Errors are values: functions return them and strict
// functions propagate them, so that `&&`/`||` can absorb them as the spec requires.
//
// A Value is small (a tag and 16 bytes) and cheap to copy. Null, bool, int, uint, double,
// timestamp and duration live in the value itself and copy as plain bytes. Strings, bytes, lists,
// maps, types, optionals, errors and opaque objects share an immutable heap payload (one block
// holding an atomic reference count and the content) that the last copy frees; a borrowed string
// (BorrowedString) and a well-known type name point at text they do not own and count nothing.
// Moving a value steals its payload and leaves the source null. Maps keep their entries sorted by
// key, so lookup is a binary search and iteration order is deterministic; keys are bool, int, uint
// or string, and an int, uint or integral double key finds the numerically equal key of another
// numeric kind (heterogeneous equality).
//
// Thread-safety: values are immutable; share them freely between threads. Copying and destroying
// copies of one value on several threads at once is safe (the counts are atomic); assigning to
// one Value object from several threads is not.
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kube::cel {

class Value;
class ValueArena;

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

// How a list compares and concatenates (Kubernetes x-kubernetes-list-type): atomic lists are
// CEL lists; sets compare regardless of order and `+` adds only new elements; map lists (of
// objects identified by their key fields) compare item by key and `+` replaces items by key.
enum class ListSemantics : uint8_t { kAtomic, kSet, kMap };
struct ListPayload {
  ValueList items;
  ListSemantics semantics = ListSemantics::kAtomic;
  std::vector<std::string> map_keys;  // kMap: the key field names, as rules see them
};

namespace value_internal {
// The head of every shared payload: the number of Values that refer to it. value.cc allocates
// each payload as one block with this count in front and deletes it when the count drops to 0.
struct RefCount {
  std::atomic<uint32_t> refs{1};
};
// An opaque value's block: its object inline (MakeOpaque) or shared (Opaque).
struct OpaqueBlock : RefCount {
  virtual ~OpaqueBlock() = default;
};
template <class T>
struct OpaqueBlockOf final : OpaqueBlock {
  template <class... Args>
  explicit OpaqueBlockOf(Args&&... args) : body(std::forward<Args>(args)...) {}
  T body;
};
}  // namespace value_internal

class Value {
 public:
  Value() = default;  // null
  Value(const Value& other) noexcept : data_(other.data_), kind_(other.kind_), counted_(other.counted_) {
    if (counted_) data_.heap.count->refs.fetch_add(1, std::memory_order_relaxed);
  }
  // Leaves `other` null.
  Value(Value&& other) noexcept : data_(other.data_), kind_(other.kind_), counted_(other.counted_) {
    other.kind_ = Kind::kNull;
    other.counted_ = false;
  }
  Value& operator=(const Value& other) noexcept {
    // Take the new reference before dropping the old one: `other` may live inside what this
    // value holds (v = v.AsList()[0]).
    Value copy(other);
    return *this = std::move(copy);
  }
  Value& operator=(Value&& other) noexcept {
    // Steal first, then release: correct for self-move without a check.
    const Data data = other.data_;
    const Kind kind = other.kind_;
    const bool counted = other.counted_;
    other.kind_ = Kind::kNull;
    other.counted_ = false;
    Release();
    data_ = data;
    kind_ = kind;
    counted_ = counted;
    return *this;
  }
  ~Value() { Release(); }

  static Value Null() { return Value(); }
  static Value Bool(bool b) { return Inline<&Data::b>(Kind::kBool, b); }
  static Value Int(int64_t i) { return Inline<&Data::i>(Kind::kInt, i); }
  static Value Uint(uint64_t u) { return Inline<&Data::u>(Kind::kUint, u); }
  static Value Double(double d) { return Inline<&Data::d>(Kind::kDouble, d); }
  static Value String(std::string s);
  // A string value that refers to `s` instead of copying it: nothing is allocated, and copies of
  // the value share no counter. For values built over a document that outlives every use of
  // them (a request body while its rules run).
  // REQUIRES: `s` outlives the value, all its copies and every value that holds them.
  static Value BorrowedString(const std::string& s) { return Value(Kind::kString, nullptr, &s); }
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
  static Value OfTimestamp(Timestamp t) { return Inline<&Data::timestamp>(Kind::kTimestamp, t); }
  static Value OfDuration(Duration d) { return Inline<&Data::duration>(Kind::kDuration, d); }
  static Value Type(std::string_view name);
  static Value OptionalOf(Value v);
  static Value OptionalNone() { return Value(Kind::kOptional, nullptr, nullptr); }
  static Value Error(std::string message);
  // REQUIRES: object != nullptr.
  static Value Opaque(std::shared_ptr<const OpaqueObject> object);
  // An opaque value of a new T(args...) (an OpaqueObject), made in the value's own block.
  template <class T, class... Args>
  static Value MakeOpaque(Args&&... args) {
    auto* block = new value_internal::OpaqueBlockOf<T>(std::forward<Args>(args)...);
    return Value(Kind::kOpaque, block, static_cast<const OpaqueObject*>(&block->body));
  }
  // An opaque value of `part`, an object held inside opaque value `owner`'s object (a CIDR's
  // address), that keeps `owner`'s object alive. REQUIRES: owner.kind() == kOpaque.
  static Value OpaquePart(const Value& owner, const OpaqueObject& part) {
    Value v(owner);
    v.data_.heap.body = &part;
    return v;
  }

  Kind kind() const { return kind_; }
  bool IsError() const { return kind_ == Kind::kError; }

  // Each As... REQUIRES: kind() is that kind (checked in debug builds only).
  bool AsBool() const { return Checked(Kind::kBool).data_.b; }
  int64_t AsInt() const { return Checked(Kind::kInt).data_.i; }
  uint64_t AsUint() const { return Checked(Kind::kUint).data_.u; }
  double AsDouble() const { return Checked(Kind::kDouble).data_.d; }
  const std::string& AsString() const { return Body<std::string>(Kind::kString); }
  const std::string& AsBytes() const { return Body<std::string>(Kind::kBytes); }
  const ValueList& AsList() const { return Body<ListPayload>(Kind::kList).items; }
  // kList: its list-type semantics and, for map lists, key fields.
  const ListPayload& AsListPayload() const { return Body<ListPayload>(Kind::kList); }
  // Sorted by key (KeyLess).
  const MapEntries& AsMap() const { return Body<MapEntries>(Kind::kMap); }
  Timestamp AsTimestamp() const { return Checked(Kind::kTimestamp).data_.timestamp; }
  Duration AsDuration() const { return Checked(Kind::kDuration).data_.duration; }
  std::string_view AsTypeName() const { return Body<std::string>(Kind::kType); }
  // kOptional: the value, or nullptr for none.
  const Value* OptionalValue() const {
    return static_cast<const Value*>(Checked(Kind::kOptional).data_.heap.body);
  }
  const std::string& ErrorMessage() const { return Body<std::string>(Kind::kError); }
  // Libraries downcast it to their own class once a Param::Opaque(type name) matched.
  const OpaqueObject& AsOpaque() const { return Body<OpaqueObject>(Kind::kOpaque); }

  // kMap: the value of `key`, or nullptr.
  const Value* Find(const Value& key) const;
  const Value* FindField(std::string_view key) const;

  // The CEL type name of this value ("int", "list", "google.protobuf.Duration" ...).
  std::string_view TypeName() const;

 private:
  // A shared payload: `count` is its reference count, or nullptr when nothing is counted (a
  // borrowed string, a well-known type name, optional.none()); `body` is what the accessors
  // read (the std::string, ListPayload, MapEntries, Value or OpaqueObject), so that reading
  // never depends on whether the payload is counted.
  struct Heap {
    value_internal::RefCount* count;
    const void* body;
  };
  union Data {
    Data() : heap{nullptr, nullptr} {}
    Heap heap;
    bool b;
    int64_t i;
    uint64_t u;
    double d;
    Timestamp timestamp;
    Duration duration;
  };

  explicit Value(Kind kind) : kind_(kind) {}
  // A value of an inline kind, its content in union member `Member`.
  template <auto Member, class T>
  static Value Inline(Kind kind, T content) {
    Value v(kind);
    v.data_.*Member = content;
    return v;
  }
  Value(Kind kind, value_internal::RefCount* count, const void* body) : kind_(kind), counted_(count != nullptr) {
    data_.heap = Heap{count, body};
  }
  static_assert(std::is_trivially_copyable_v<Data>, "Data copies as plain bytes");
  const Value& Checked(Kind kind) const {
    assert(kind_ == kind);
    (void)kind;
    return *this;
  }
  template <class T>
  const T& Body(Kind kind) const {
    return *static_cast<const T*>(Checked(kind).data_.heap.body);
  }
// GCC 12 wrongly reports the atomic load below as an overflow (-Wstringop-overflow) in some
// destructors it inlines this into, on a path that `counted_` rules out.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#endif
  void Release() noexcept {
    if (!counted_) return;
    value_internal::RefCount* count = data_.heap.count;
    // The only reference (most temporaries): no other thread can take one, so skip the atomic
    // read-modify-write; the acquire orders every earlier release of the other references.
    if (count->refs.load(std::memory_order_acquire) == 1 ||
        count->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) {
      Destroy(kind_, count);
    }
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  // A `kind` value over a new payload holding T(args...), counted once.
  template <class T, class... Args>
  static Value MakeCounted(Kind kind, Args&&... args);
  // Deletes the payload of a `kind` value whose count reached 0.
  static void Destroy(Kind kind, value_internal::RefCount* count) noexcept;

  friend class ValueArena;  // makes uncounted payloads

  Data data_;
  Kind kind_ = Kind::kNull;
  bool counted_ = false;  // data_.heap.count is set and owned by this value
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
