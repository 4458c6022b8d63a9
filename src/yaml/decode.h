// go-yaml v2's decoder over a parsed YAML node tree, followed by sigs.k8s.io/yaml's conversion
// to JSON. Internal to kube_yaml.
//
// Thread-safety: Decode is reentrant.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "util/status.h"

namespace kube::yaml::internal {

// One node of a parsed document. Aliases keep their identity (kind kAlias + target) so the
// decoder can apply go-yaml's alias rules.
struct Node {
  enum class Kind { kScalar, kNull, kSeq, kMap, kAlias };
  Kind kind = Kind::kNull;
  // yaml-cpp's tag: "?" for plain scalars and untagged collections, "!" for quoted/block scalars
  // or an explicit "!", else the resolved tag ("tag:yaml.org,2002:int", "!custom").
  std::string tag;
  std::string value;             // scalar text
  std::string anchor;            // anchor name of this node, or of an alias's target
  int line = -1;                 // 0-based, -1 when unknown
  std::vector<size_t> children;  // sequence items, or alternating map keys and values
  size_t target = 0;             // for kAlias: index of the anchored node
};

// A go-yaml "failf": aborts decoding with `what()` as the problem (without the "yaml: " prefix).
// Only thrown and caught inside kube_yaml.
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Decodes nodes[root] and converts the result to JSON. Returns BadRequest for the errors go-yaml
// reports after decoding (strict-mode duplicate keys) and for sigs.k8s.io/yaml's conversion
// errors; throws DecodeError for go-yaml's immediate failures.
Result<nlohmann::json> Decode(const std::vector<Node>& nodes, size_t root, bool strict);

}  // namespace kube::yaml::internal
