// Query parameters parsed from the raw query string (cpp-httplib's own parser splits on every
// '=', which breaks `labelSelector=app=web`), with Go apimachinery's conversion rules.
//
// Thread-safety: immutable after Parse.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "util/status.h"

namespace kube::endpoints {

class Query {
 public:
  // `raw` is the part after '?', still percent-encoded.
  static Query Parse(std::string_view raw);

  bool Has(std::string_view name) const;
  // The first value of `name`, or "" when absent.
  std::string Get(std::string_view name) const;
  std::vector<std::string> GetAll(std::string_view name) const;
  // Go rules: absent, "0" and any case of "false" are false; anything else (also "") is true.
  bool Bool(std::string_view name) const;
  // A base-10 int64; nullopt when absent; BadRequest when malformed.
  Result<std::optional<int64_t>> Int(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, std::string>> params_;
};

// Percent-decoding; '+' becomes a space, as in form encoding.
std::string PercentDecode(std::string_view s);

}  // namespace kube::endpoints
