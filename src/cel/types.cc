#include "cel/types.h"

#include <cctype>

namespace kube::cel {

namespace {

TypeRef Simple(TypeKind k) { return std::make_shared<const Type>(k, "", std::vector<TypeRef>{}); }

std::string_view TrimSpace(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

// Splits "a, map(b, c), d" at its top-level commas.
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '(') ++depth;
    if (s[i] == ')') --depth;
    if (s[i] == ',' && depth == 0) {
      parts.push_back(TrimSpace(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  parts.push_back(TrimSpace(s.substr(start)));
  return parts;
}

}  // namespace

const Type* Type::Field(std::string_view name) const {
  auto it = fields_.find(name);
  return it == fields_.end() ? nullptr : it->second.get();
}

#define KUBE_CEL_SIMPLE_TYPE(Fn, K)      \
  const TypeRef& Type::Fn() {            \
    static const TypeRef t = Simple(K);  \
    return t;                            \
  }
KUBE_CEL_SIMPLE_TYPE(Dyn, TypeKind::kDyn)
KUBE_CEL_SIMPLE_TYPE(Error, TypeKind::kError)
KUBE_CEL_SIMPLE_TYPE(Null, TypeKind::kNull)
KUBE_CEL_SIMPLE_TYPE(Bool, TypeKind::kBool)
KUBE_CEL_SIMPLE_TYPE(Int, TypeKind::kInt)
KUBE_CEL_SIMPLE_TYPE(Uint, TypeKind::kUint)
KUBE_CEL_SIMPLE_TYPE(Double, TypeKind::kDouble)
KUBE_CEL_SIMPLE_TYPE(String, TypeKind::kString)
KUBE_CEL_SIMPLE_TYPE(Bytes, TypeKind::kBytes)
KUBE_CEL_SIMPLE_TYPE(Timestamp, TypeKind::kTimestamp)
KUBE_CEL_SIMPLE_TYPE(Duration, TypeKind::kDuration)
#undef KUBE_CEL_SIMPLE_TYPE

TypeRef Type::List(TypeRef element) { return std::make_shared<const Type>(TypeKind::kList, "", std::vector{std::move(element)}); }
TypeRef Type::Map(TypeRef key, TypeRef value) {
  return std::make_shared<const Type>(TypeKind::kMap, "", std::vector{std::move(key), std::move(value)});
}
TypeRef Type::Optional(TypeRef element) {
  return std::make_shared<const Type>(TypeKind::kOptional, "", std::vector{std::move(element)});
}
TypeRef Type::TypeOf(TypeRef of) {
  std::vector<TypeRef> params;
  if (of) params.push_back(std::move(of));
  return std::make_shared<const Type>(TypeKind::kType, "", std::move(params));
}
TypeRef Type::Param(std::string name) { return std::make_shared<const Type>(TypeKind::kParam, std::move(name), std::vector<TypeRef>{}); }
TypeRef Type::Opaque(std::string name, std::vector<TypeRef> params) {
  return std::make_shared<const Type>(TypeKind::kOpaque, std::move(name), std::move(params));
}
TypeRef Type::Object(std::string name, std::map<std::string, TypeRef, std::less<>> fields) {
  auto t = std::make_shared<Type>(TypeKind::kObject, std::move(name), std::vector<TypeRef>{});
  t->fields_ = std::move(fields);
  return t;
}

TypeRef Type::WithBounds(const TypeRef& t, uint64_t max_elements, uint64_t min_serialized_size) {
  auto copy = std::make_shared<Type>(*t);
  copy->max_elements_ = max_elements;
  copy->min_serialized_size_ = min_serialized_size;
  return copy;
}

bool IsTypeName(std::string_view name, bool with_dyn) {
  static constexpr std::string_view kNames[] = {
      "int", "uint", "double", "bool", "string", "bytes", "list", "map", "null_type", "type", "optional_type",
      "google.protobuf.Timestamp", "google.protobuf.Duration", "net.IP", "net.CIDR", "kubernetes.URL",
      "kubernetes.Quantity", "kubernetes.Semver", "kubernetes.NamedFormat"};
  if (with_dyn && name == "dyn") return true;
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

std::string FormatType(const Type& t) {
  auto param = [&](size_t i) { return i < t.params().size() ? FormatType(*t.params()[i]) : std::string("dyn"); };
  switch (t.kind()) {
    case TypeKind::kDyn: return "dyn";
    case TypeKind::kError: return "*error*";
    case TypeKind::kNull: return "null_type";
    case TypeKind::kBool: return "bool";
    case TypeKind::kInt: return "int";
    case TypeKind::kUint: return "uint";
    case TypeKind::kDouble: return "double";
    case TypeKind::kString: return "string";
    case TypeKind::kBytes: return "bytes";
    case TypeKind::kTimestamp: return "google.protobuf.Timestamp";
    case TypeKind::kDuration: return "google.protobuf.Duration";
    case TypeKind::kList: return "list(" + param(0) + ")";
    case TypeKind::kMap: return "map(" + param(0) + ", " + param(1) + ")";
    case TypeKind::kOptional: return "optional_type(" + param(0) + ")";
    case TypeKind::kType: return t.params().empty() ? "type" : "type(" + param(0) + ")";
    case TypeKind::kObject:
    case TypeKind::kParam: return t.name();
    case TypeKind::kOpaque: {
      if (t.params().empty()) return t.name();
      std::string out = t.name() + "(";
      for (size_t i = 0; i < t.params().size(); ++i) out += (i ? ", " : "") + FormatType(*t.params()[i]);
      return out + ")";
    }
  }
  return "dyn";
}

TypeRef ParseTypeNotation(std::string_view s) {
  s = TrimSpace(s);
  if (s.empty()) return nullptr;
  const size_t open = s.find('(');
  if (open == std::string_view::npos) {
    if (s == "dyn") return Type::Dyn();
    if (s == "null_type") return Type::Null();
    if (s == "bool") return Type::Bool();
    if (s == "int") return Type::Int();
    if (s == "uint") return Type::Uint();
    if (s == "double") return Type::Double();
    if (s == "string") return Type::String();
    if (s == "bytes") return Type::Bytes();
    if (s == "timestamp" || s == "google.protobuf.Timestamp") return Type::Timestamp();
    if (s == "duration" || s == "google.protobuf.Duration") return Type::Duration();
    if (s == "type") return Type::TypeOf(nullptr);
    if (s.size() == 1 && std::isupper(static_cast<unsigned char>(s[0]))) return Type::Param(std::string(s));
    for (char c : s) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_') return nullptr;
    }
    return Type::Opaque(std::string(s));
  }
  if (s.back() != ')') return nullptr;
  const std::string_view head = TrimSpace(s.substr(0, open));
  std::vector<TypeRef> params;
  for (std::string_view part : SplitTopLevel(s.substr(open + 1, s.size() - open - 2))) {
    TypeRef p = ParseTypeNotation(part);
    if (!p) return nullptr;
    params.push_back(std::move(p));
  }
  if (head == "list" && params.size() == 1) return Type::List(params[0]);
  if (head == "map" && params.size() == 2) return Type::Map(params[0], params[1]);
  if (head == "optional_type" && params.size() == 1) return Type::Optional(params[0]);
  if (head == "type" && params.size() == 1) return Type::TypeOf(params[0]);
  if (head.empty()) return nullptr;
  return Type::Opaque(std::string(head), std::move(params));
}

}  // namespace kube::cel
