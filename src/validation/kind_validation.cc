#include "validation/kind_validation.h"

#include <string>

#include "validation/kind_table.h"

namespace kube::validation {

const KindValidator* FindKindValidator(std::string_view group, std::string_view resource) {
  static const KindTable table = [] {
    KindTable t;
    AddCoreKinds(&t);
    AddGroupKinds(&t);
    return t;
  }();
  std::string key;
  key.reserve(group.size() + 1 + resource.size());
  key.append(group).append("/").append(resource);
  auto it = table.find(key);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace kube::validation
