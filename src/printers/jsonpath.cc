// JSONPath evaluation: client-go's jsonpath.go over nlohmann::json, with Go reflection's view of
// decoded JSON (maps, slices, strings, int64, float64, bool, nil).

#include "printers/jsonpath.h"

#include "printers/jsonpath_internal.h"
#include "util/go_format.h"

namespace kube::printers {

using jsonpath_internal::Node;
using Json = nlohmann::json;
using Values = std::vector<JsonPathValue>;

namespace {

Status Error(std::string message) { return Status::BadRequest(std::move(message)); }

// Go's reflect kinds of decoded JSON values.
enum class Kind { kInvalid, kNil, kMap, kSlice, kString, kInt, kUint, kFloat, kBool };

Kind KindOf(const JsonPathValue& v) {
  if (!v.valid()) return Kind::kInvalid;
  const Json& j = v.get();
  switch (j.type()) {
    case Json::value_t::null: return Kind::kNil;
    case Json::value_t::object: return Kind::kMap;
    case Json::value_t::array: return Kind::kSlice;
    case Json::value_t::string: return Kind::kString;
    case Json::value_t::boolean: return Kind::kBool;
    case Json::value_t::number_float: return Kind::kFloat;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return v.is_byte() ? Kind::kUint : Kind::kInt;
    default: return Kind::kInvalid;
  }
}

// reflect.Type's String() for messages.
std::string TypeName(const JsonPathValue& v) {
  switch (KindOf(v)) {
    case Kind::kMap: return "map[string]interface {}";
    case Kind::kSlice: return "[]interface {}";
    case Kind::kString: return "string";
    case Kind::kInt: return "int64";
    case Kind::kUint: return "uint8";
    case Kind::kFloat: return "float64";
    case Kind::kBool: return "bool";
    case Kind::kNil: return "interface {}";
    case Kind::kInvalid: return "<invalid reflect.Value>";
  }
  return "";
}

// The children Go's reflection iterates: map values, slice elements, string bytes.
Values Children(const JsonPathValue& v) {
  Values out;
  switch (KindOf(v)) {
    case Kind::kMap:
    case Kind::kSlice:
      for (const auto& e : v.get()) out.push_back(JsonPathValue::Of(&e));
      break;
    case Kind::kString:
      for (unsigned char c : v.get().get_ref<const std::string&>()) out.push_back(JsonPathValue::Literal(Json(c), true));
      break;
    default: break;
  }
  return out;
}

// Comparisons of template.{Equal,Less} over basic kinds.
enum class BasicKind { kInvalid, kBool, kInt, kUint, kFloat, kString };

BasicKind Basic(const JsonPathValue& v) {
  switch (KindOf(v)) {
    case Kind::kBool: return BasicKind::kBool;
    case Kind::kInt: return BasicKind::kInt;
    case Kind::kUint: return BasicKind::kUint;
    case Kind::kFloat: return BasicKind::kFloat;
    case Kind::kString: return BasicKind::kString;
    default: return BasicKind::kInvalid;
  }
}

int64_t IntOf(const JsonPathValue& v) {
  const Json& j = v.get();
  return j.is_number_unsigned() ? static_cast<int64_t>(j.get<uint64_t>()) : j.get<int64_t>();
}

Result<bool> Equal(const JsonPathValue& a, const JsonPathValue& b) {
  const BasicKind ka = Basic(a), kb = Basic(b);
  if (ka == BasicKind::kInvalid || kb == BasicKind::kInvalid) return Error("invalid type for comparison");
  if (ka != kb) {
    if (ka == BasicKind::kInt && kb == BasicKind::kUint) return IntOf(a) >= 0 && IntOf(a) == IntOf(b);
    if (ka == BasicKind::kUint && kb == BasicKind::kInt) return IntOf(b) >= 0 && IntOf(a) == IntOf(b);
    return Error("incompatible types for comparison");
  }
  switch (ka) {
    case BasicKind::kBool: return a.get().get<bool>() == b.get().get<bool>();
    case BasicKind::kFloat: return a.get().get<double>() == b.get().get<double>();
    case BasicKind::kString: return a.get().get_ref<const std::string&>() == b.get().get_ref<const std::string&>();
    default: return IntOf(a) == IntOf(b);
  }
}

Result<bool> Less(const JsonPathValue& a, const JsonPathValue& b) {
  const BasicKind ka = Basic(a), kb = Basic(b);
  if (ka == BasicKind::kInvalid || kb == BasicKind::kInvalid) return Error("invalid type for comparison");
  if (ka != kb) {
    if (ka == BasicKind::kInt && kb == BasicKind::kUint) return IntOf(a) < IntOf(b);
    if (ka == BasicKind::kUint && kb == BasicKind::kInt) return IntOf(b) >= 0 && IntOf(a) < IntOf(b);
    return Error("incompatible types for comparison");
  }
  switch (ka) {
    case BasicKind::kBool: return Error("invalid type for comparison");
    case BasicKind::kFloat: return a.get().get<double>() < b.get().get<double>();
    case BasicKind::kString: return a.get().get_ref<const std::string&>() < b.get().get_ref<const std::string&>();
    default: return IntOf(a) < IntOf(b);
  }
}

Result<bool> Compare(const std::string& op, const JsonPathValue& a, const JsonPathValue& b) {
  if (op == "==") return Equal(a, b);
  if (op == "!=") {
    Result<bool> eq = Equal(a, b);
    if (!eq.ok()) return eq;
    return !*eq;
  }
  if (op == "<") return Less(a, b);
  if (op == "<=" || op == ">") {
    Result<bool> lt = Less(a, b);
    if (!lt.ok()) return lt;
    bool le = *lt;
    if (!le) {
      Result<bool> eq = Equal(a, b);
      if (!eq.ok()) return eq;
      le = *eq;
    }
    return op == "<=" ? le : !le;
  }
  if (op == ">=") {
    Result<bool> lt = Less(a, b);
    if (!lt.ok()) return lt;
    return !*lt;
  }
  return Error("unrecognized filter operator " + op);
}

// The range bookkeeping client-go keeps on the JSONPath object, per evaluation here.
struct RangeState {
  int begin_range = 0;
  int in_range = 0;
  int end_range = 0;
  size_t last_end = static_cast<size_t>(-1);
};

class Evaluator {
 public:
  Evaluator(bool allow_missing_keys, RangeState* state) : allow_missing_(allow_missing_keys), st_(state) {}

  Result<Values> Walk(const Values& input, const Node& node) {
    switch (node.type) {
      case Node::Type::kList: return EvalList(input, node);
      case Node::Type::kText: return Values{JsonPathValue::Literal(Json(node.text))};
      case Node::Type::kField: return EvalField(input, node);
      case Node::Type::kArray: return EvalArray(input, node);
      case Node::Type::kFilter: return EvalFilter(input, node);
      case Node::Type::kInt: return Values(input.size(), JsonPathValue::Literal(Json(node.int_value)));
      case Node::Type::kFloat: return Values(input.size(), JsonPathValue::Literal(Json(node.float_value)));
      case Node::Type::kBool: return Values(input.size(), JsonPathValue::Literal(Json(node.bool_value)));
      case Node::Type::kWildcard: return EvalWildcard(input);
      case Node::Type::kRecursive: return EvalRecursive(input);
      case Node::Type::kUnion: return EvalUnion(input, node);
      case Node::Type::kIdentifier: return EvalIdentifier(input, node);
    }
    return Error("unexpected Node");
  }

 private:
  Result<Values> EvalList(const Values& input, const Node& list) {
    Values cur = input;
    for (const auto& n : list.nodes) {
      Result<Values> next = Walk(cur, *n);
      if (!next.ok()) return next;
      cur = std::move(*next);
    }
    return cur;
  }

  Result<Values> EvalIdentifier(const Values& input, const Node& node) {
    if (node.text == "range") {
      ++st_->begin_range;
      return input;
    }
    if (node.text == "end") {
      if (st_->in_range > 0) {
        ++st_->end_range;
        return Values{};
      }
      return Error("not in range, nothing to end");
    }
    return Error("unrecognized identifier " + node.text);
  }

  Result<Values> EvalField(const Values& input, const Node& node) {
    Values results;
    if (input.empty()) return results;
    for (const JsonPathValue& v : input) {
      if (KindOf(v) != Kind::kMap) continue;
      auto it = v.get().find(node.text);
      if (it != v.get().end()) results.push_back(JsonPathValue::Of(&*it));
    }
    if (results.empty() && !allow_missing_) return Error(node.text + " is not found");
    return results;
  }

  Result<Values> EvalArray(const Values& input, const Node& node) {
    Values result;
    for (const JsonPathValue& v : input) {
      const Kind k = KindOf(v);
      if (k == Kind::kNil) continue;
      if (k != Kind::kSlice) return Error(TypeName(v) + " is not array or slice");
      const Json& arr = v.get();
      const int64_t len = static_cast<int64_t>(arr.size());
      jsonpath_internal::Param p[3] = {node.params[0], node.params[1], node.params[2]};
      if (!p[0].known) p[0].value = 0;
      if (p[0].value < 0) p[0].value += len;
      if (!p[1].known) p[1].value = len;
      if (p[1].value < 0 || (p[1].value == 0 && p[1].derived)) p[1].value += len;
      if (p[1].value == p[0].value) return result;  // zero elements requested
      if (p[0].value >= len || p[0].value < 0) {
        return Error("array index out of bounds: index " + std::to_string(p[0].value) + ", length " + std::to_string(len));
      }
      if (p[1].value > len || p[1].value < 0) {
        return Error("array index out of bounds: index " + std::to_string(p[1].value - 1) + ", length " + std::to_string(len));
      }
      if (p[0].value > p[1].value) {
        return Error("starting index " + std::to_string(p[0].value) + " is greater than ending index " + std::to_string(p[1].value));
      }
      int64_t step = 1;
      if (p[2].known) {
        if (p[2].value <= 0) return Error("step must be > 0");
        step = p[2].value;
      }
      for (int64_t i = p[0].value; i < p[1].value; i += step) result.push_back(JsonPathValue::Of(&arr[static_cast<size_t>(i)]));
    }
    return result;
  }

  Result<Values> EvalUnion(const Values& input, const Node& node) {
    Values result;
    for (const auto& alt : node.nodes) {
      Result<Values> r = EvalList(input, *alt);
      if (!r.ok()) return r;
      result.insert(result.end(), r->begin(), r->end());
    }
    return result;
  }

  Result<Values> EvalWildcard(const Values& input) {
    Values result;
    for (const JsonPathValue& v : input) {
      Values c = Children(v);
      result.insert(result.end(), c.begin(), c.end());
    }
    return result;
  }

  Result<Values> EvalRecursive(const Values& input) {
    Values result;
    for (const JsonPathValue& v : input) {
      if (KindOf(v) == Kind::kNil) continue;
      Values children = Children(v);
      if (children.empty()) continue;
      result.push_back(v);
      Result<Values> deeper = EvalRecursive(children);
      if (!deeper.ok()) return deeper;
      result.insert(result.end(), deeper->begin(), deeper->end());
    }
    return result;
  }

  Result<Values> EvalFilter(const Values& input, const Node& node) {
    Values results;
    for (const JsonPathValue& v : input) {
      if (KindOf(v) != Kind::kSlice) return Error(JsonPath::PrintValue(v) + " is not array or slice and cannot be filtered");
      for (const auto& element : v.get()) {
        const Values temp{JsonPathValue::Of(&element)};
        Result<Values> lefts = EvalList(temp, *node.left);
        if (node.text == "exists") {
          if (lefts.ok() && !lefts->empty()) results.push_back(temp[0]);
          continue;
        }
        if (!lefts.ok()) return lefts;
        if (lefts->empty()) continue;
        if (lefts->size() > 1) return Error("can only compare one element at a time");
        Result<Values> rights = EvalList(temp, *node.right);
        if (!rights.ok()) return rights;
        if (rights->empty()) continue;
        if (rights->size() > 1) return Error("can only compare one element at a time");
        Result<bool> pass = Compare(node.text, (*lefts)[0], (*rights)[0]);
        if (!pass.ok()) return pass.status();
        if (*pass) results.push_back(temp[0]);
      }
    }
    return results;
  }

  bool allow_missing_;
  RangeState* st_;
};

// FindResults over the root's nodes from `begin`, appending to `full`.
Status FindFrom(const Node& root, size_t begin, const JsonPathValue& data, bool allow_missing, RangeState* st,
                std::vector<Values>* full) {
  const Values cur{data};
  Evaluator eval(allow_missing, st);
  const size_t n = root.nodes.size();
  for (size_t i = begin; i < n; ++i) {
    Result<Values> results = eval.Walk(cur, *root.nodes[i]);
    if (!results.ok()) return results.status();
    if (st->end_range > 0 && st->end_range <= st->in_range) {
      --st->end_range;
      st->last_end = i;
      break;
    }
    if (st->begin_range > 0) {
      --st->begin_range;
      ++st->in_range;
      if (!results->empty()) {
        for (const JsonPathValue& v : *results) KUBE_RETURN_IF_ERROR(FindFrom(root, i + 1, v, allow_missing, st, full));
      } else {
        std::vector<Values> discarded;
        KUBE_RETURN_IF_ERROR(FindFrom(root, i + 1, JsonPathValue(), allow_missing, st, &discarded));
      }
      --st->in_range;
      for (size_t k = i + 1; k < n; ++k) {
        if (k == st->last_end) {
          i = k;
          break;
        }
      }
      continue;
    }
    full->push_back(std::move(*results));
  }
  return Status::OK();
}

}  // namespace

Result<JsonPath> JsonPath::Parse(std::string_view text) {
  Result<jsonpath_internal::NodePtr> root = jsonpath_internal::ParseTemplate(text);
  if (!root.ok()) return root.status();
  return JsonPath(*root);
}

Result<std::vector<Values>> JsonPath::FindResults(const Json& data, bool allow_missing_keys) const {
  std::vector<Values> full;
  RangeState st;
  // Go hands the decoded document over as interface{}: a null document is no value at all.
  const JsonPathValue root = data.is_null() ? JsonPathValue() : JsonPathValue::Of(&data);
  KUBE_RETURN_IF_ERROR(FindFrom(*root_, 0, root, allow_missing_keys, &st, &full));
  return full;
}

std::string JsonPath::PrintValue(const JsonPathValue& value) {
  switch (KindOf(value)) {
    case Kind::kInvalid: return "<no value>";
    case Kind::kNil: return "null";
    case Kind::kMap:
    case Kind::kSlice: return GoJsonMarshal(value.get());
    case Kind::kString: return value.get().get<std::string>();
    case Kind::kBool: return value.get().get<bool>() ? "true" : "false";
    case Kind::kFloat: return GoFormatFloat(value.get().get<double>());
    case Kind::kInt:
    case Kind::kUint: return value.get().is_number_unsigned() ? std::to_string(value.get().get<uint64_t>())
                                                              : std::to_string(value.get().get<int64_t>());
  }
  return "";
}

Result<std::string> JsonPath::Execute(const Json& data, bool allow_missing_keys) const {
  Result<std::vector<Values>> results = FindResults(data, allow_missing_keys);
  if (!results.ok()) return results.status();
  std::string out;
  for (const Values& values : *results) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) out += ' ';
      out += PrintValue(values[i]);
    }
  }
  return out;
}

}  // namespace kube::printers
