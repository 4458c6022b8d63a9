#include "endpoints/runtime_config.h"

namespace kube::endpoints {

namespace {

// "v1", "v1beta2", "v2alpha1": ga, beta or alpha (kube's v\d+, v\d+beta\d+, v\d+alpha\d+).
std::string Stability(const std::string& version) {
  if (version.find("alpha") != std::string::npos) return "alpha";
  if (version.find("beta") != std::string::npos) return "beta";
  return "ga";
}

}  // namespace

Result<RuntimeConfig> RuntimeConfig::Parse(const std::vector<std::pair<std::string, std::string>>& flags,
                                           const catalogue::Catalogue& catalogue) {
  RuntimeConfig config;
  for (const auto& [raw_key, value] : flags) {
    bool enabled;
    if (value == "true" || value == "1" || value == "t" || value == "True" || value == "TRUE") {
      enabled = true;
    } else if (value == "false" || value == "0" || value == "f" || value == "False" || value == "FALSE") {
      enabled = false;
    } else {
      return Status::BadRequest("invalid value of " + raw_key + ": " + value + ", err: strconv.ParseBool: parsing \"" +
                                value + "\": invalid syntax");
    }
    std::string key = raw_key;
    if (key == "api/all" || key == "api/ga" || key == "api/beta" || key == "api/alpha") {
      config.rules_.push_back({key.substr(4), enabled});
      continue;
    }
    if (key.starts_with("api/")) key = key.substr(4);  // api/v1 is the core group
    std::string group, version, resource;
    const size_t a = key.find('/');
    if (a == std::string::npos) {
      version = key;
    } else {
      const size_t b = key.find('/', a + 1);
      if (b == std::string::npos && key.substr(0, a).find('.') == std::string::npos &&
          catalogue.Find("", key.substr(0, a), key.substr(a + 1)) != nullptr) {
        version = key.substr(0, a);  // v1/pods
        resource = key.substr(a + 1);
      } else {
        group = key.substr(0, a);
        version = b == std::string::npos ? key.substr(a + 1) : key.substr(a + 1, b - a - 1);
        if (b != std::string::npos) resource = key.substr(b + 1);
      }
    }
    bool known = false;
    for (const auto& info : catalogue.Resources()) {
      if (info.group == group && info.version == version && (resource.empty() || info.resource == resource)) {
        known = true;
        break;
      }
    }
    if (!known) return Status::BadRequest("runtime-config invalid key " + raw_key);
    config.rules_.push_back({group + "/" + version + (resource.empty() ? "" : "/" + resource), enabled});
  }
  return config;
}

bool RuntimeConfig::Enabled(const catalogue::ResourceInfo& info) const {
  static const std::string kAll = "all";
  const std::string gv = info.group + "/" + info.version;
  const std::string gvr = gv + "/" + info.resource;
  const std::string stability = Stability(info.version);
  bool enabled = EnabledByDefault(info);
  // As kube merges them: api/all first, then stability levels, then group versions, then
  // resources, whatever their order on the command line.
  for (const std::string* key : {&kAll, &stability, &gv, &gvr}) {
    for (const Rule& r : rules_) {
      if (r.key == *key) enabled = r.enabled;
    }
  }
  return enabled;
}

bool RuntimeConfig::EnabledByDefault(const catalogue::ResourceInfo& info) {
  // kube 1.36's DefaultAPIResourceConfigSource: every GA group version on; every beta one in
  // betaAPIGroupVersionsDisabledByDefault and every alpha one off; no legacy beta resource is
  // left on (legacyBetaEnabledByDefaultResources is empty since flowcontrol v1beta3 went in 1.32).
  return Stability(info.version) == "ga";
}

}  // namespace kube::endpoints
