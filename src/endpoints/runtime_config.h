// --runtime-config: which API group versions (and resources) are served, as kube's
// resourceconfig reads the flag. Keys, applied in order with later ones winning:
//   api/all, api/ga, api/beta, api/alpha    every version, or those of one stability level
//   <group>/<version> (v1 or api/v1 for the core group)
//   <group>/<version>/<resource>
// Values are booleans. By default, as kube-apiserver 1.36: the GA versions (v1, v2) of every group
// are served, beta and alpha versions are not (EnabledByDefault).
//
// Thread-safety: immutable after Parse.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "catalogue/catalogue.h"
#include "util/status.h"

namespace kube::endpoints {

class RuntimeConfig {
 public:
  // An error for a key that names no group version of `catalogue`, or a value that is not a bool.
  static Result<RuntimeConfig> Parse(const std::vector<std::pair<std::string, std::string>>& flags,
                                     const catalogue::Catalogue& catalogue);

  bool Enabled(const catalogue::ResourceInfo& info) const;
  // Whether kube-apiserver 1.36 serves the resource without any --runtime-config.
  static bool EnabledByDefault(const catalogue::ResourceInfo& info);
  bool empty() const { return rules_.empty(); }

 private:
  struct Rule {
    std::string key;  // all, ga, beta, alpha, or group/version[/resource]
    bool enabled;
  };
  std::vector<Rule> rules_;
};

}  // namespace kube::endpoints
