// The schema a fuzz input's object stands for, picked the way a request names its kind.
//
// Thread-safety: reads the immutable built-in catalogue only.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "catalogue/catalogue.h"

namespace kube::fuzz {

// The schema of the kind `obj` names with apiVersion/kind, falling back to v1 Pod so that inputs
// without them still exercise a large schema. Only objects carry a kind.
inline const catalogue::Schema* SchemaFor(const nlohmann::json& obj) {
  const auto& cat = catalogue::Catalogue::BuiltIn();
  if (obj.is_object()) {
    auto api_version = obj.find("apiVersion");
    auto kind = obj.find("kind");
    if (api_version != obj.end() && api_version->is_string() && kind != obj.end() && kind->is_string()) {
      const std::string& gv = api_version->get_ref<const std::string&>();
      const size_t slash = gv.find('/');
      const std::string_view group = slash == std::string::npos ? std::string_view() : std::string_view(gv).substr(0, slash);
      const std::string_view version = slash == std::string::npos ? std::string_view(gv) : std::string_view(gv).substr(slash + 1);
      if (const auto* schema = cat.KindSchema(group, version, kind->get_ref<const std::string&>())) return schema;
    }
  }
  return cat.KindSchema("", "v1", "Pod");
}

}  // namespace kube::fuzz
