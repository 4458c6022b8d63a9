#include "apiextensions/name_formats.h"

namespace kube::apiextensions {

namespace {

constexpr std::string_view kDns1035Msg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
    "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', "
    "regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
constexpr std::string_view kSubdomainMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for "
    "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])? with the first character class given.
bool IsLabel(std::string_view s, bool must_start_with_letter) {
  if (s.empty()) return false;
  if (must_start_with_letter ? !(s[0] >= 'a' && s[0] <= 'z') : !IsLowerAlnum(s[0])) return false;
  if (!IsLowerAlnum(s.back())) return false;
  for (char c : s) {
    if (!IsLowerAlnum(c) && c != '-') return false;
  }
  return true;
}

}  // namespace

std::vector<std::string> IsDNS1035Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back("must be no more than 63 characters");
  if (!IsLabel(value, true)) errs.emplace_back(kDns1035Msg);
  return errs;
}

std::vector<std::string> IsDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back("must be no more than 253 characters");
  bool ok = !value.empty();
  size_t start = 0;
  while (ok && start <= value.size()) {
    size_t dot = value.find('.', start);
    if (dot == std::string_view::npos) dot = value.size();
    ok = IsLabel(value.substr(start, dot - start), false);
    start = dot + 1;
  }
  if (!ok) errs.emplace_back(kSubdomainMsg);
  return errs;
}

std::string JoinMessages(const std::vector<std::string>& messages) {
  std::string out;
  for (size_t i = 0; i < messages.size(); ++i) out += (i ? "," : "") + messages[i];
  return out;
}

}  // namespace kube::apiextensions
