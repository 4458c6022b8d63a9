#include "patch/json_patch.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "patch/patch_internal.h"

namespace kube::patch {
namespace {

using internal::Json;

// kube-apiserver's limits: maxJSONPatchOperations in the patch handler, and the default of
// JSONPatchMaxCopyBytes, which it installs as the library's copy limit.
constexpr size_t kMaxOperations = 10000;
constexpr size_t kMaxCopyBytes = 3 * 1024 * 1024;

Status DecodeError(std::string detail) {
  return Status::BadRequest("error decoding patch: json: cannot unmarshal " + std::move(detail));
}

// kube decodes the body into []jsonPatchOp{op, path, from string; value any} before handing it to
// the patch library, so these shape errors surface as 400s with encoding/json's wording.
Status ValidateShape(const Json& body) {
  if (body.is_null()) return Status::OK();
  if (!body.is_array()) {
    return DecodeError(std::string(internal::JsonTypeWord(body)) +
                       " into Go value of type []handlers.jsonPatchOp");
  }
  for (const Json& op : body) {
    if (op.is_null()) continue;
    if (!op.is_object()) {
      return DecodeError(std::string(internal::JsonTypeWord(op)) +
                         " into Go value of type handlers.jsonPatchOp");
    }
    for (const char* field : {"from", "op", "path"}) {
      auto it = op.find(field);
      if (it != op.end() && !it->is_null() && !it->is_string()) {
        return DecodeError(std::string(internal::JsonTypeWord(*it)) +
                           " into Go struct field jsonPatchOp." + field + " of type string");
      }
    }
  }
  return Status::OK();
}

// strconv.Atoi: optional sign, decimal digits, int64 range.
std::optional<int64_t> GoAtoi(std::string_view s) {
  size_t i = 0;
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    i = 1;
  }
  if (i == s.size()) return std::nullopt;
  uint64_t magnitude = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    // Past this bound the value no longer fits int64 (and the next step could wrap uint64).
    if (magnitude > 922337203685477580ULL) return std::nullopt;
    magnitude = magnitude * 10 + static_cast<uint64_t>(s[i] - '0');
  }
  if (magnitude > (negative ? uint64_t{1} << 63 : static_cast<uint64_t>(INT64_MAX))) {
    return std::nullopt;
  }
  return negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
}

// Resolves a possibly negative index against `len` elements; nullopt when out of range.
std::optional<size_t> ResolveIndex(std::string_view key, size_t len, bool allow_end) {
  std::optional<int64_t> idx = GoAtoi(key);
  if (!idx) return std::nullopt;
  int64_t n = static_cast<int64_t>(len) + (allow_end ? 1 : 0);
  if (*idx < 0) {
    if (*idx < -n) return std::nullopt;
    *idx += n;
  }
  if (*idx >= n) return std::nullopt;
  return static_cast<size_t>(*idx);
}

std::string DecodeToken(std::string_view token) {
  std::string out;
  for (size_t i = 0; i < token.size(); ++i) {
    if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
      out += token[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      out += token[i];
    }
  }
  return out;
}

// Reading a member or element. `value` is null for a missing member or a null value: the
// library does not tell them apart except in "remove".
struct Lookup {
  bool ok = false;
  Json* value = nullptr;
};

Lookup Get(Json& container, const std::string& key) {
  if (container.is_object()) {
    auto it = container.find(key);
    return {true, it == container.end() || it->is_null() ? nullptr : &*it};
  }
  std::optional<size_t> idx = ResolveIndex(key, container.size(), /*allow_end=*/false);
  if (!idx) return {};
  Json& v = container[*idx];
  return {true, v.is_null() ? nullptr : &v};
}

bool Add(Json& container, const std::string& key, Json value) {
  if (container.is_object()) {
    container[key] = std::move(value);
    return true;
  }
  if (key == "-") {
    container.push_back(std::move(value));
    return true;
  }
  std::optional<size_t> idx = ResolveIndex(key, container.size(), /*allow_end=*/true);
  if (!idx) return false;
  container.insert(container.begin() + static_cast<std::ptrdiff_t>(*idx), std::move(value));
  return true;
}

bool Remove(Json& container, const std::string& key) {
  if (container.is_object()) return container.erase(key) == 1;
  std::optional<size_t> idx = ResolveIndex(key, container.size(), /*allow_end=*/false);
  if (!idx) return false;
  container.erase(*idx);
  return true;
}

// The container holding the last token of `path`, and that token. Like the library, the first
// segment is never looked at and intermediate nulls or scalars fail the lookup.
struct Location {
  Json* container = nullptr;
  std::string key;
};

std::optional<Location> FindParent(Json& root, std::string_view path) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t slash = path.find('/', start);
    parts.push_back(path.substr(start, slash == std::string_view::npos ? slash : slash - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  if (parts.size() < 2) return std::nullopt;
  Json* cur = &root;
  for (size_t i = 1; i + 1 < parts.size(); ++i) {
    Lookup next = Get(*cur, DecodeToken(parts[i]));
    if (!next.ok || next.value == nullptr) return std::nullopt;
    if (!next.value->is_object() && !next.value->is_array()) return std::nullopt;
    cur = next.value;
  }
  return Location{cur, DecodeToken(parts.back())};
}

std::optional<std::string> StringField(const Json& op, const char* name) {
  auto it = op.find(name);
  if (it == op.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

// How one operation went. kPanic marks inputs on which the library dereferences a nil pointer;
// kube's panic recovery turns those into a 500.
enum class Outcome { kOk, kFailed, kPanic };

// The library compares scalars by their compact text, so 1 and 1.0 differ. Null array items
// reached by the comparison crash it (nullopt).
std::optional<bool> LibraryEqual(const Json& a, const Json& b) {
  if (a.is_object()) {
    if (!b.is_object() || a.size() != b.size()) return false;
    for (auto it = a.begin(); it != a.end(); ++it) {
      auto other = b.find(it.key());
      if (other == b.end() || it->is_null() != other->is_null()) return false;
      if (it->is_null()) continue;
      std::optional<bool> eq = LibraryEqual(*it, *other);
      if (!eq || !*eq) return eq;
    }
    return true;
  }
  if (a.is_array()) {
    if (!b.is_array() || a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].is_null() || b[i].is_null()) return std::nullopt;
      std::optional<bool> eq = LibraryEqual(a[i], b[i]);
      if (!eq || !*eq) return eq;
    }
    return true;
  }
  if (b.is_object() || b.is_array()) return false;
  return internal::Dump(a) == internal::Dump(b);
}

Outcome Check(std::optional<bool> eq) {
  if (!eq) return Outcome::kPanic;
  return *eq ? Outcome::kOk : Outcome::kFailed;
}

Outcome Check(bool ok) { return ok ? Outcome::kOk : Outcome::kFailed; }

class Applier {
 public:
  explicit Applier(Json root) : root_(std::move(root)) {}

  Outcome Apply(const Json& op) {
    std::string kind = StringField(op, "op").value_or("unknown");
    if (kind == "add") return Check(DoAdd(op));
    if (kind == "remove") return Check(DoRemove(op));
    if (kind == "replace") return DoReplace(op);
    if (kind == "move") return Check(DoMove(op));
    if (kind == "copy") return Check(DoCopy(op));
    if (kind == "test") return DoTest(op);
    return Outcome::kFailed;
  }

  Json& root() { return root_; }

 private:
  static Json ValueOf(const Json& op) {
    auto it = op.find("value");
    return it == op.end() ? Json() : *it;
  }

  bool DoAdd(const Json& op) {
    std::optional<std::string> path = StringField(op, "path");
    if (!path) return false;
    std::optional<Location> loc = FindParent(root_, *path);
    return loc && Add(*loc->container, loc->key, ValueOf(op));
  }

  bool DoRemove(const Json& op) {
    std::optional<std::string> path = StringField(op, "path");
    if (!path) return false;
    std::optional<Location> loc = FindParent(root_, *path);
    return loc && Remove(*loc->container, loc->key);
  }

  Outcome DoReplace(const Json& op) {
    std::optional<std::string> path = StringField(op, "path");
    if (!path) return Outcome::kFailed;
    if (path->empty()) {
      auto it = op.find("value");
      if (it == op.end()) return Outcome::kPanic;
      if (!(it->is_object() || it->is_array())) return Outcome::kFailed;
      root_ = *it;
      return Outcome::kOk;
    }
    std::optional<Location> loc = FindParent(root_, *path);
    if (!loc) return Outcome::kFailed;
    Json& c = *loc->container;
    if (c.is_object()) {
      c[loc->key] = ValueOf(op);
      return Outcome::kOk;
    }
    std::optional<size_t> idx = ResolveIndex(loc->key, c.size(), /*allow_end=*/false);
    if (!idx) return Outcome::kFailed;
    c[*idx] = ValueOf(op);
    return Outcome::kOk;
  }

  // The location named by the op's "from" and the value there (null when a missing object
  // member is read, as evanphx/json-patch v4 does).
  std::optional<std::pair<Location, Json>> ReadFrom(const Json& op) {
    std::optional<std::string> from = StringField(op, "from");
    if (!from) return std::nullopt;
    std::optional<Location> src = FindParent(root_, *from);
    if (!src) return std::nullopt;
    Lookup got = Get(*src->container, src->key);
    if (!got.ok) return std::nullopt;
    return std::make_pair(*src, got.value ? *got.value : Json());
  }

  bool DoMove(const Json& op) {
    auto read = ReadFrom(op);
    if (!read) return false;
    auto& [src, value] = *read;
    if (!Remove(*src.container, src.key)) return false;
    std::optional<std::string> path = StringField(op, "path");
    if (!path) return false;
    std::optional<Location> dst = FindParent(root_, *path);
    return dst && Add(*dst->container, dst->key, std::move(value));
  }

  bool DoCopy(const Json& op) {
    auto read = ReadFrom(op);
    if (!read) return false;
    Json value = std::move(read->second);
    std::optional<std::string> path = StringField(op, "path");
    if (!path) return false;
    std::optional<Location> dst = FindParent(root_, *path);
    if (!dst) return false;
    // The limit exists so that a short patch cannot double the object again and again.
    copied_bytes_ += internal::Dump(value).size();
    if (copied_bytes_ > kMaxCopyBytes) return false;
    return Add(*dst->container, dst->key, std::move(value));
  }

  Outcome DoTest(const Json& op) {
    std::optional<std::string> path = StringField(op, "path");
    if (!path) return Outcome::kFailed;
    auto expected = op.find("value");
    if (path->empty()) {
      if (expected == op.end()) return Outcome::kPanic;
      return Check(LibraryEqual(root_, *expected));
    }
    std::optional<Location> loc = FindParent(root_, *path);
    if (!loc) return Outcome::kFailed;
    Lookup got = Get(*loc->container, loc->key);
    if (!got.ok) return Outcome::kFailed;
    if (got.value == nullptr) return Check(expected == op.end() || expected->is_null());
    if (expected == op.end()) return Outcome::kFailed;
    return Check(LibraryEqual(*got.value, *expected));
  }

  Json root_;
  size_t copied_bytes_ = 0;
};

Result<Json> ApplyImpl(const Json& doc, std::string_view patch_body) {
  std::optional<Json> body = internal::ParseBody(patch_body);
  if (!body) return Status::BadRequest("invalid JSON patch");
  KUBE_RETURN_IF_ERROR(ValidateShape(*body));
  size_t count = body->is_array() ? body->size() : 0;
  if (count > kMaxOperations) {
    return Status(StatusCode::kRequestEntityTooLarge,
                  "The allowed maximum operations in a JSON patch is " +
                      std::to_string(kMaxOperations) + ", got " + std::to_string(count));
  }
  if (!doc.is_object() && !doc.is_array()) return internal::Unprocessable();
  Applier applier(doc);
  for (size_t i = 0; i < count; ++i) {
    const Json& op = (*body)[i];
    // A null element decodes to an operation without "op": the library rejects its kind.
    Outcome outcome = op.is_null() ? Outcome::kFailed : applier.Apply(op);
    if (outcome == Outcome::kFailed) return internal::Unprocessable();
    if (outcome == Outcome::kPanic) {
      return Status::Internal("runtime error: invalid memory address or nil pointer dereference");
    }
  }
  if (doc.is_object() && !applier.root().is_object()) {
    // kube fails to decode the patched bytes into the kind and answers with field "patch".
    return Status::Invalid(" \"\" is invalid: patch: Invalid value: \"" +
                           internal::Dump(applier.root()) +
                           "\": json: cannot unmarshal " +
                           std::string(internal::JsonTypeWord(applier.root())) +
                           " into Go value of type map[string]interface {}");
  }
  return std::move(applier.root());
}

}  // namespace

Result<nlohmann::json> ApplyJsonPatch(const nlohmann::json& doc, std::string_view patch_body) {
  try {
    return ApplyImpl(doc, patch_body);
  } catch (const std::exception& e) {
    return Status::Internal(std::string("applying JSON patch: ") + e.what());
  } catch (...) {
    return Status::Internal("applying JSON patch: unknown exception");
  }
}

}  // namespace kube::patch
