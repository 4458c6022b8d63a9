#include "storage/continue_token.h"

#include <nlohmann/json.hpp>

#include "util/base64.h"

namespace kube::storage {

namespace {

constexpr std::string_view kTokenVersion = "meta.k8s.io/v1";

Status Invalid(std::string why) { return Status::BadRequest("continue key is not valid: " + why); }

// Whether Go's path.Clean would leave `p` unchanged (it must, or the start key escapes its
// prefix). `p` starts with '/'.
bool IsCleanPath(std::string_view p) {
  if (p.size() > 1 && p.back() == '/') return false;
  size_t i = 0;
  while (i < p.size()) {
    size_t next = p.find('/', i + 1);
    std::string_view segment = p.substr(i + 1, next == std::string_view::npos ? p.npos : next - i - 1);
    if (next != std::string_view::npos && segment.empty()) return false;  // "//"
    if (segment == "." || segment == "..") return false;
    if (next == std::string_view::npos) break;
    i = next;
  }
  return true;
}

}  // namespace

Result<std::string> EncodeContinueToken(std::string_view next_key, std::string_view key_prefix,
                                        int64_t resource_version) {
  if (!next_key.starts_with(key_prefix)) {
    return Status::Internal("unable to encode next field: the last item did not have the prefix");
  }
  nlohmann::json token = {{"v", kTokenVersion},
                          {"rv", resource_version},
                          {"start", std::string(next_key.substr(key_prefix.size()))}};
  return Base64UrlEncode(token.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

Result<ContinueToken> DecodeContinueToken(std::string_view token, std::string_view key_prefix) {
  auto raw = Base64UrlDecode(token);
  if (!raw) return Invalid("illegal base64 data");
  nlohmann::json j = nlohmann::json::parse(*raw, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return Invalid("invalid JSON");
  auto v = j.find("v");
  std::string version = v != j.end() && v->is_string() ? v->get<std::string>() : "";
  if (version != kTokenVersion) {
    return Invalid("server does not recognize this encoded version \"" + version + "\"");
  }
  auto rv = j.find("rv");
  int64_t resource_version = rv != j.end() && rv->is_number_integer() ? rv->get<int64_t>() : 0;
  if (resource_version == 0) {
    return Invalid("incorrect encoded start resourceVersion (version meta.k8s.io/v1)");
  }
  auto start = j.find("start");
  std::string key = start != j.end() && start->is_string() ? start->get<std::string>() : "";
  if (key.empty()) return Invalid("encoded start key empty (version meta.k8s.io/v1)");
  if (key.front() != '/') key.insert(key.begin(), '/');
  if (!IsCleanPath(key)) return Invalid(key);
  ContinueToken out;
  out.resource_version = resource_version;
  out.start_key = std::string(key_prefix) + key.substr(1);
  return out;
}

}  // namespace kube::storage
