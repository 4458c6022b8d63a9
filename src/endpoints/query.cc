#include "endpoints/query.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace kube::endpoints {

namespace {
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::string PercentDecode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out.push_back(' ');
    } else if (s[i] == '%' && i + 2 < s.size() && HexValue(s[i + 1]) >= 0 &&
               HexValue(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(s[i + 1]) * 16 + HexValue(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

Query Query::Parse(std::string_view raw) {
  Query q;
  size_t i = 0;
  while (i <= raw.size()) {
    size_t end = raw.find_first_of("&;", i);
    if (end == std::string_view::npos) end = raw.size();
    std::string_view pair = raw.substr(i, end - i);
    if (!pair.empty()) {
      // Only the first '=' separates name and value; selectors contain more.
      size_t eq = pair.find('=');
      std::string name = PercentDecode(pair.substr(0, eq));
      std::string value = eq == std::string_view::npos ? "" : PercentDecode(pair.substr(eq + 1));
      q.params_.emplace_back(std::move(name), std::move(value));
    }
    i = end + 1;
  }
  return q;
}

bool Query::Has(std::string_view name) const {
  return std::any_of(params_.begin(), params_.end(), [&](const auto& p) { return p.first == name; });
}

std::string Query::Get(std::string_view name) const {
  for (const auto& [k, v] : params_) {
    if (k == name) return v;
  }
  return "";
}

std::vector<std::string> Query::GetAll(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& [k, v] : params_) {
    if (k == name) out.push_back(v);
  }
  return out;
}

bool Query::Bool(std::string_view name) const {
  if (!Has(name)) return false;
  std::string v = Get(name);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  return !(v == "0" || v == "false");
}

Result<std::optional<int64_t>> Query::Int(std::string_view name) const {
  if (!Has(name)) return std::optional<int64_t>();
  const std::string v = Get(name);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), value);
  if (v.empty() || ec != std::errc() || ptr != v.data() + v.size()) {
    return Status::BadRequest("invalid value for " + std::string(name) + ": strconv.ParseInt: parsing \"" + v +
                              "\": invalid syntax");
  }
  return std::optional<int64_t>(value);
}

}  // namespace kube::endpoints
