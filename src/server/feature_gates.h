// kube-apiserver 1.36's feature gates: the list it registers (generated from the real binary's
// registry by tools/gen_feature_gates.py into feature_gates_data.cc) and --feature-gates applied to
// it as component-base's featureGate.Set does when the command runs, with its error texts:
// "unrecognized feature gate: X" for a gate 1.36 does not have (removed ones included), "cannot
// set feature gate X to false, feature is locked to true" for a locked one set to the other value,
// "invalid value of X=maybe, err: strconv.ParseBool: …", "component not registered: wardle" for
// a prefix other than "kube:". The gates are validated only; none changes behaviour here.
//
// Thread-safety: pure functions over immutable data.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/status.h"

namespace kube::server {

struct FeatureGateSpec {
  std::string_view name;
  bool default_value;
  std::string_view stage;  // "ALPHA", "BETA", "GA" or "DEPRECATED"
  bool locked;             // LockToDefault: only the default may be set
};

// Sorted by name.
const std::vector<FeatureGateSpec>& KnownFeatureGates();
const FeatureGateSpec* FindFeatureGate(std::string_view name);

// Applies each "[kube:]Name=bool" pair of `values` (the --feature-gates flags, in order, each a
// comma-separated list) onto `gates`; the first error is kube's message (BadRequest).
Status SetFeatureGates(const std::vector<std::string>& values, std::map<std::string, bool>& gates);

}  // namespace kube::server
