#include "registry/field_set.h"

#include <algorithm>
#include <charconv>

#include "util/go_format.h"

namespace kube::registry {

using nlohmann::json;

namespace {

int TypeRank(const json& v) {
  if (v.is_null()) return 0;
  if (v.is_boolean()) return 1;
  if (v.is_number()) return 2;
  if (v.is_string()) return 3;
  if (v.is_array()) return 4;
  return 5;
}

// A total order of JSON values (numbers by value, objects by their sorted members).
int CompareValues(const json& a, const json& b) {
  const int ra = TypeRank(a), rb = TypeRank(b);
  if (ra != rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return 0;
    case 1:
      return a.get<bool>() == b.get<bool>() ? 0 : (a.get<bool>() ? 1 : -1);
    case 2: {
      if (a.is_number_float() || b.is_number_float()) {
        const double x = a.get<double>(), y = b.get<double>();
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      if (a.is_number_unsigned() && b.is_number_unsigned()) {
        const uint64_t x = a.get<uint64_t>(), y = b.get<uint64_t>();
        return x < y ? -1 : (x > y ? 1 : 0);
      }
      const int64_t x = a.get<int64_t>(), y = b.get<int64_t>();
      return x < y ? -1 : (x > y ? 1 : 0);
    }
    case 3:
      return a.get_ref<const std::string&>().compare(b.get_ref<const std::string&>()) < 0
                 ? -1
                 : (a.get_ref<const std::string&>() == b.get_ref<const std::string&>() ? 0 : 1);
    case 4: {
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        if (int c = CompareValues(a[i], b[i]); c != 0) return c;
      }
      return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
    }
    default: {
      auto ia = a.begin(), ib = b.begin();
      for (; ia != a.end() && ib != b.end(); ++ia, ++ib) {
        if (int c = ia.key().compare(ib.key()); c != 0) return c < 0 ? -1 : 1;
        if (int c = CompareValues(ia.value(), ib.value()); c != 0) return c;
      }
      return a.size() == b.size() ? 0 : (a.size() < b.size() ? -1 : 1);
    }
  }
}

// smd's value.ToString: how a value reads inside a printed path.
std::string ValueString(const json& v) {
  if (v.is_null()) return "null";
  if (v.is_string()) return GoQuote(v.get_ref<const std::string&>());
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number_float()) return GoFormatFloat(v.get<double>());
  if (v.is_number()) return v.dump();
  std::string out;
  if (v.is_array()) {
    out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + ValueString(v[i]);
    return out + "]";
  }
  out = "{";
  bool first = true;
  for (const auto& [k, item] : v.items()) {
    out += (first ? "" : ", ") + k + "=" + ValueString(item);
    first = false;
  }
  return out + "}";
}

template <class T, class Key>
auto Find(std::vector<T>& v, const Key& key, const PathElement& (*element)(const T&)) {
  return std::lower_bound(v.begin(), v.end(), key,
                          [element](const T& item, const PathElement& k) { return element(item) < k; });
}

const PathElement& MemberElement(const PathElement& e) { return e; }
const PathElement& ChildElement(const std::pair<PathElement, FieldSet>& c) { return c.first; }

Result<FieldSet> ReadFieldsV1(const json& node, bool* is_member) {
  if (!node.is_object()) return Status::BadRequest("expected an object in FieldsV1, got " + node.dump());
  FieldSet set;
  bool any = false;
  for (const auto& [key, value] : node.items()) {
    if (key == ".") {
      *is_member = true;
      continue;
    }
    auto element = PathElement::Deserialize(key);
    if (!element.ok()) return element.status();
    if (!element->has_value()) continue;
    bool child_member = false;
    auto child = ReadFieldsV1(value, &child_member);
    if (!child.ok()) return child.status();
    any = true;
    if (child_member) set.AddMember(**element);
    if (!child->Empty()) set.AddChild(std::move(**element), std::move(*child));
  }
  // A node with nothing below it is a member itself ("f:a": {}).
  if (!any) *is_member = true;
  set.Sort();
  return set;
}

}  // namespace

int PathElement::Compare(const PathElement& other) const {
  if (kind != other.kind) return kind < other.kind ? -1 : 1;
  switch (kind) {
    case Kind::kField: {
      const int c = name.compare(other.name);
      return c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    case Kind::kKey:
    case Kind::kValue:
      return CompareValues(value, other.value);
    case Kind::kIndex:
      return index < other.index ? -1 : (index > other.index ? 1 : 0);
  }
  return 0;
}

std::string PathElement::String() const {
  switch (kind) {
    case Kind::kField:
      return "." + name;
    case Kind::kKey: {
      std::string out = "[";
      bool first = true;
      for (const auto& [k, v] : value.items()) {
        out += (first ? "" : ",") + k + "=" + ValueString(v);
        first = false;
      }
      return out + "]";
    }
    case Kind::kValue:
      return "[=" + ValueString(value) + "]";
    case Kind::kIndex:
      return "[" + std::to_string(index) + "]";
  }
  return "{{invalid path element}}";
}

std::string PathElement::Serialize() const {
  switch (kind) {
    case Kind::kField:
      return "f:" + name;
    case Kind::kKey:
      return "k:" + GoJsonMarshal(value);
    case Kind::kValue:
      return "v:" + GoJsonMarshal(value);
    case Kind::kIndex:
      return "i:" + std::to_string(index);
  }
  return "";
}

Result<std::optional<PathElement>> PathElement::Deserialize(std::string_view key) {
  if (key.size() < 2) return Status::BadRequest("key must be 2 characters long: " + std::string(key));
  if (key[1] != ':') return Status::BadRequest("missing colon: " + std::string(key));
  const std::string_view rest = key.substr(2);
  switch (key[0]) {
    case 'f':
      return std::optional(Field(std::string(rest)));
    case 'v':
    case 'k': {
      json parsed = json::parse(rest, nullptr, /*allow_exceptions=*/false);
      if (parsed.is_discarded()) return Status::BadRequest("invalid JSON in path element " + GoQuote(key));
      if (key[0] == 'v') return std::optional(Value(std::move(parsed)));
      if (!parsed.is_object()) return Status::BadRequest("expected an object of key fields in " + GoQuote(key));
      return std::optional(Key(std::move(parsed)));
    }
    case 'i': {
      int64_t i = 0;
      auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), i);
      if (ec != std::errc() || end != rest.data() + rest.size() || rest.empty()) {
        return Status::BadRequest("invalid index in path element " + GoQuote(key));
      }
      return std::optional(Index(i));
    }
    default:
      return std::optional<PathElement>();
  }
}

std::string FieldPathString(const FieldPath& path) {
  std::string out;
  for (const auto& e : path) out += e.String();
  return out;
}

bool FieldSet::Empty() const {
  if (!members_.empty()) return false;
  for (const auto& [e, child] : children_) {
    if (!child.Empty()) return false;
  }
  return true;
}

void FieldSet::InsertMember(const PathElement& e) {
  auto it = Find(members_, e, &MemberElement);
  if (it == members_.end() || !(*it == e)) members_.insert(it, e);
}

void FieldSet::Insert(const FieldPath& path) {
  if (path.empty()) return;
  FieldSet* node = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) node = node->MutableChild(path[i]);
  node->InsertMember(path.back());
}

void FieldSet::Sort() {
  std::sort(members_.begin(), members_.end());
  members_.erase(std::unique(members_.begin(), members_.end()), members_.end());
  std::sort(children_.begin(), children_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  // Repeated children (entries a list repeats) become one.
  for (size_t i = 1; i < children_.size();) {
    if (children_[i].first == children_[i - 1].first) {
      children_[i - 1].second = children_[i - 1].second.Union(children_[i].second);
      children_.erase(children_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

bool FieldSet::HasMember(const PathElement& e) const {
  return std::binary_search(members_.begin(), members_.end(), e);
}

const FieldSet* FieldSet::Child(const PathElement& e) const {
  auto it = std::lower_bound(children_.begin(), children_.end(), e,
                             [](const auto& c, const PathElement& k) { return c.first < k; });
  return it != children_.end() && it->first == e ? &it->second : nullptr;
}

FieldSet* FieldSet::MutableChild(const PathElement& e) {
  auto it = Find(children_, e, &ChildElement);
  if (it == children_.end() || !(it->first == e)) it = children_.insert(it, {e, FieldSet()});
  return &it->second;
}

bool FieldSet::Has(const FieldPath& path) const {
  if (path.empty()) return false;
  const FieldSet* node = this;
  for (size_t i = 0; i + 1 < path.size(); ++i) {
    node = node->Child(path[i]);
    if (node == nullptr) return false;
  }
  return node->HasMember(path.back());
}

FieldSet FieldSet::Union(const FieldSet& other) const& {
  FieldSet out;
  std::set_union(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                 std::back_inserter(out.members_));
  auto a = children_.begin(), b = other.children_.begin();
  while (a != children_.end() || b != other.children_.end()) {
    if (b == other.children_.end() || (a != children_.end() && a->first < b->first)) {
      out.children_.push_back(*a++);
    } else if (a == children_.end() || b->first < a->first) {
      out.children_.push_back(*b++);
    } else {
      out.children_.emplace_back(a->first, a->second.Union(b->second));
      ++a, ++b;
    }
  }
  return out;
}

FieldSet FieldSet::Intersection(const FieldSet& other) const {
  FieldSet out;
  std::set_intersection(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                        std::back_inserter(out.members_));
  for (const auto& [e, child] : children_) {
    if (const FieldSet* o = other.Child(e)) {
      FieldSet both = child.Intersection(*o);
      if (!both.Empty()) out.children_.emplace_back(e, std::move(both));
    }
  }
  return out;
}

FieldSet FieldSet::Subtract(const FieldSet& other, bool recursive) const {
  FieldSet out;
  std::set_difference(members_.begin(), members_.end(), other.members_.begin(), other.members_.end(),
                      std::back_inserter(out.members_));
  for (const auto& [e, child] : children_) {
    // A recursive difference drops everything below a path of `other` with it.
    if (recursive && other.HasMember(e)) continue;
    const FieldSet* o = other.Child(e);
    if (o == nullptr) {
      out.children_.emplace_back(e, child);
      continue;
    }
    FieldSet rest = child.Subtract(*o, recursive);
    if (!rest.Empty()) out.children_.emplace_back(e, std::move(rest));
  }
  return out;
}

FieldSet FieldSet::Difference(const FieldSet& other) const& { return Subtract(other, /*recursive=*/false); }

FieldSet FieldSet::Union(const FieldSet& other) && {
  if (other.Empty()) return std::move(*this);
  if (Empty()) return other;
  return static_cast<const FieldSet&>(*this).Union(other);
}

FieldSet FieldSet::Difference(const FieldSet& other) && {
  Subtract(other);
  return std::move(*this);
}

void FieldSet::Subtract(const FieldSet& other) {
  if (other.Empty()) return;
  std::erase_if(members_, [&](const PathElement& e) { return other.HasMember(e); });
  std::erase_if(children_, [&](std::pair<PathElement, FieldSet>& c) {
    if (const FieldSet* o = other.Child(c.first)) c.second.Subtract(*o);
    return c.second.Empty();
  });
}

FieldSet FieldSet::RecursiveDifference(const FieldSet& other) const { return Subtract(other, /*recursive=*/true); }

json FieldSet::ToFieldsV1() const {
  json out = json::object();
  for (const auto& m : members_) out[m.Serialize()] = json::object();
  for (const auto& [e, child] : children_) {
    if (child.Empty()) continue;
    json node = child.ToFieldsV1();
    if (HasMember(e)) node["."] = json::object();
    out[e.Serialize()] = std::move(node);
  }
  return out;
}

Result<FieldSet> FieldSet::FromFieldsV1(const json& fields) {
  bool ignored = false;
  return ReadFieldsV1(fields, &ignored);
}

bool FieldSet::operator==(const FieldSet& other) const {
  return Difference(other).Empty() && other.Difference(*this).Empty();
}

}  // namespace kube::registry
