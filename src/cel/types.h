// The static types of CEL expressions, as the type checker (type_checker.h) infers them: the
// primitive types, list(T), map(K, V), optional_type(T), type(T), dyn, type parameters of
// generic overloads, and object types whose fields are known (Kubernetes builds these from a
// CRD's structural schema; the field names and their types are all the checker needs).
//
// A type also carries the size bounds of the values it describes, for the cost estimator: the
// most elements (list items, map entries, string characters or bytes) a value can have, and the
// least bytes its JSON serialization takes. Kube derives both from the schema (maxItems,
// maxLength, the request size limit); types made here without bounds have none.
//
// Types are immutable once built and shared by reference.
//
// Thread-safety: immutable; safe to share between threads.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kube::cel {

enum class TypeKind : uint8_t {
  kDyn,
  kError,
  kNull,
  kBool,
  kInt,
  kUint,
  kDouble,
  kString,
  kBytes,
  kTimestamp,
  kDuration,
  kList,      // params: element
  kMap,       // params: key, value
  kOptional,  // params: element
  kType,      // params: the type it is the type of (or none: any type)
  kObject,    // name, fields
  kOpaque,    // a library's abstract type (net.IP, kubernetes.Quantity …): name, params
  kParam,     // a type parameter of a generic overload: name
};

class Type;
using TypeRef = std::shared_ptr<const Type>;

class Type {
 public:
  // No bound: what a type made without size information reports.
  static constexpr uint64_t kUnbounded = UINT64_MAX;

  TypeKind kind() const { return kind_; }
  const std::string& name() const { return name_; }
  const std::vector<TypeRef>& params() const { return params_; }
  // Object types: the type of field `name`, or nullptr when the object has no such field.
  const Type* Field(std::string_view name) const;
  const std::map<std::string, TypeRef, std::less<>>& fields() const { return fields_; }

  uint64_t max_elements() const { return max_elements_; }
  uint64_t min_serialized_size() const { return min_serialized_size_; }

  // The shared instances of the parameterless types.
  static const TypeRef& Dyn();
  static const TypeRef& Error();
  static const TypeRef& Null();
  static const TypeRef& Bool();
  static const TypeRef& Int();
  static const TypeRef& Uint();
  static const TypeRef& Double();
  static const TypeRef& String();
  static const TypeRef& Bytes();
  static const TypeRef& Timestamp();
  static const TypeRef& Duration();

  static TypeRef List(TypeRef element);
  static TypeRef Map(TypeRef key, TypeRef value);
  static TypeRef Optional(TypeRef element);
  static TypeRef TypeOf(TypeRef of);  // type(T); nullptr: `type` itself
  static TypeRef Param(std::string name);
  static TypeRef Opaque(std::string name, std::vector<TypeRef> params = {});
  static TypeRef Object(std::string name, std::map<std::string, TypeRef, std::less<>> fields);

  // A copy of `t` with size bounds (see the file comment).
  static TypeRef WithBounds(const TypeRef& t, uint64_t max_elements, uint64_t min_serialized_size);

  Type(TypeKind kind, std::string name, std::vector<TypeRef> params)
      : kind_(kind), name_(std::move(name)), params_(std::move(params)) {}

 private:
  TypeKind kind_;
  std::string name_;
  std::vector<TypeRef> params_;
  std::map<std::string, TypeRef, std::less<>> fields_;
  uint64_t max_elements_ = kUnbounded;
  uint64_t min_serialized_size_ = 0;
};

// Whether `name` denotes a type when written as an identifier: `int`, `list`, `type`,
// `google.protobuf.Timestamp`, and the Kubernetes libraries' `net.IP`, `kubernetes.Quantity` …
// (`dyn` too when `with_dyn`).
bool IsTypeName(std::string_view name, bool with_dyn = false);

// cel-go's rendering of a type in messages: "int", "list(string)", "map(string, dyn)",
// "optional_type(int)", "type(int)", "google.protobuf.Timestamp", object and opaque names.
std::string FormatType(const Type& t);

// Parses the signature notation the checker's declarations use: a type name ("int", "dyn",
// "timestamp", "duration", "null_type", "A" … a single capital letter is a type parameter, a
// dotted or other name is an opaque type) or a parameterized one ("list(A)", "map(K, V)",
// "optional_type(A)", "type(A)"). nullptr when malformed.
TypeRef ParseTypeNotation(std::string_view notation);

}  // namespace kube::cel
