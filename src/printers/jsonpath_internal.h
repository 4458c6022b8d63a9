// The parse tree of a JSONPath template (client-go's node.go). Not part of the library's API.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "util/status.h"

namespace kube::printers::jsonpath_internal {

struct Node;
using NodePtr = std::shared_ptr<Node>;

// One slice bound of an array node ([start:end:step]).
struct Param {
  int64_t value = 0;
  bool known = false;
  bool derived = false;  // end = start + 1 for a plain index
};

struct Node {
  enum class Type { kList, kText, kField, kArray, kFilter, kInt, kFloat, kBool, kWildcard, kRecursive, kUnion, kIdentifier };
  Type type = Type::kList;
  std::vector<NodePtr> nodes;  // kList: the sequence; kUnion: one kList per alternative
  std::string text;            // kText: text; kField: name; kIdentifier: name; kFilter: operator
  Param params[3];             // kArray
  NodePtr left, right;         // kFilter: kList operands (right empty for "exists")
  int64_t int_value = 0;
  double float_value = 0;
  bool bool_value = false;
};

// Parses `text` into a root kList.
Result<NodePtr> ParseTemplate(std::string_view text);

}  // namespace kube::printers::jsonpath_internal
