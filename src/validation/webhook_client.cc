#include "validation/webhook_client.h"

#include <nlohmann/json.hpp>

#include "util/go_format.h"
#include "validation/group_primitives.h"
#include "validation/primitives.h"

namespace kube::validation {
namespace {

using nlohmann::json;

constexpr std::string_view kForm = "; desired format: https://host[/path]";

struct Url {
  std::string scheme, user, host, query, fragment;
};

// The parts of net/url.Parse that the checks read; nullopt with `error` for what Parse refuses.
std::optional<Url> ParseUrl(const std::string& raw, std::string* error) {
  for (char c : raw) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      *error = "parse " + GoQuote(raw) + ": net/url: invalid control character in URL";
      return std::nullopt;
    }
  }
  Url u;
  std::string rest = raw;
  const size_t hash = rest.find('#');
  if (hash != std::string::npos) {
    u.fragment = rest.substr(hash + 1);
    rest.resize(hash);
  }
  // getScheme: letters first, then letters, digits, '+', '-' or '.', up to ':'.
  for (size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    const bool other = (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
    if (letter) continue;
    if (other && i > 0) continue;
    if (c == ':') {
      if (i == 0) {
        *error = "parse " + GoQuote(raw) + ": missing protocol scheme";
        return std::nullopt;
      }
      u.scheme = rest.substr(0, i);
      for (char& s : u.scheme) s = static_cast<char>(s >= 'A' && s <= 'Z' ? s - 'A' + 'a' : s);
      rest = rest.substr(i + 1);
    }
    break;
  }
  const size_t question = rest.find('?');
  if (question != std::string::npos) {
    u.query = rest.substr(question + 1);
    rest.resize(question);
  }
  if (rest.rfind("//", 0) == 0) {
    std::string authority = rest.substr(2);
    const size_t slash = authority.find('/');
    if (slash != std::string::npos) authority.resize(slash);
    const size_t at = authority.rfind('@');
    if (at != std::string::npos) {
      u.user = authority.substr(0, at);
      authority = authority.substr(at + 1);
      if (u.user.empty()) u.user = "\x01";  // present but empty
    }
    u.host = authority;
  }
  return u;
}

}  // namespace

FieldErrors ValidateWebhookClientConfig(const json& cc, const std::string& path) {
  FieldErrors errors;
  const bool has_url = Has(cc, "url");
  const bool has_service = Has(cc, "service");
  if (has_url == has_service) {
    errors.push_back(Required(path, "exactly one of url or service is required"));
    return errors;
  }
  if (has_url) {
    const std::string field = path + ".url";
    std::string error;
    auto u = ParseUrl(StringAt(cc, "url"), &error);
    if (!u) {
      errors.push_back(Required(field, "url must be a valid URL: " + error + std::string(kForm)));
      return errors;
    }
    if (u->scheme != "https") errors.push_back(Invalid(field, u->scheme, "'https' is the only allowed URL scheme" + std::string(kForm)));
    if (u->host.empty()) errors.push_back(Invalid(field, u->host, "host must be specified" + std::string(kForm)));
    if (!u->user.empty()) {
      errors.push_back(Invalid(field, u->user == "\x01" ? "" : u->user, "user information is not permitted in the URL"));
    }
    if (!u->fragment.empty()) errors.push_back(Invalid(field, u->fragment, "fragments are not permitted in the URL"));
    if (!u->query.empty()) errors.push_back(Invalid(field, u->query, "query parameters are not permitted in the URL"));
    return errors;
  }
  const json& svc = cc["service"];
  const std::string field = path + ".service";
  // kube's caller passes the service's name where the helper expects its namespace and the other
  // way round, so a missing name is reported at .namespace and a missing namespace at .name.
  if (StringAt(svc, "namespace").empty()) errors.push_back(Required(field + ".name"));
  if (StringAt(svc, "name").empty()) errors.push_back(Required(field + ".namespace"));
  const int64_t port = IntField(svc, "port").value_or(0);
  if (auto problems = IsValidPortNum(port); !problems.empty()) {
    std::string joined;
    for (size_t i = 0; i < problems.size(); ++i) joined += (i ? ", " : "") + problems[i];
    errors.push_back(Invalid(field + ".port", port, "port is not valid: " + joined));
  }
  if (!Has(svc, "path")) return errors;
  const std::string url_path = StringAt(svc, "path");
  if (url_path == "/" || url_path.empty()) return errors;
  if (url_path == "//") {
    errors.push_back(Invalid(field + ".path", url_path, "segment[0] may not be empty"));
    return errors;
  }
  if (url_path[0] != '/') errors.push_back(Invalid(field + ".path", url_path, "must start with a '/'"));
  std::string check = url_path.substr(1);
  if (!check.empty() && check.back() == '/') check.pop_back();
  size_t start = 0;
  for (int i = 0;; ++i) {
    const size_t slash = check.find('/', start);
    const std::string step = check.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (step.empty()) {
      errors.push_back(Invalid(field + ".path", url_path, "segment[" + std::to_string(i) + "] may not be empty"));
    } else {
      for (const auto& msg : IsDns1123Subdomain(step)) {
        errors.push_back(Invalid(field + ".path", url_path, "segment[" + std::to_string(i) + "]: " + msg));
      }
    }
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return errors;
}

}  // namespace kube::validation
