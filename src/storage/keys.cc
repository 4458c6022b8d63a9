#include "storage/keys.h"

namespace kube::storage {

namespace {

bool HasDotSegment(std::string_view key) {
  size_t start = 0;
  while (start <= key.size()) {
    size_t slash = key.find('/', start);
    std::string_view segment =
        key.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (segment == "." || segment == "..") return true;
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return false;
}

}  // namespace

Result<std::string> PrepareKey(std::string_view resource_prefix, std::string_view key,
                               bool recursive) {
  if (HasDotSegment(key)) return Status::Internal("invalid key: \"" + std::string(key) + "\"");
  if (key.empty() || key == "/") return Status::Internal("empty key: \"" + std::string(key) + "\"");
  std::string prepared(key);
  if (recursive && prepared.back() != '/') prepared.push_back('/');
  std::string prefix(resource_prefix);
  if (prefix.empty() || prefix.back() != '/') prefix.push_back('/');
  if (!prepared.starts_with(prefix)) {
    return Status::Internal("invalid key: \"" + std::string(key) + "\" lacks resource prefix \"" +
                            prefix + "\"");
  }
  return prepared;
}

}  // namespace kube::storage
