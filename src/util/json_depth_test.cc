#include "util/json_depth.h"

#include <doctest/doctest.h>

#include <string>

namespace kube {

TEST_CASE("json depth: the first bracket past the limit, strings ignored") {
  CHECK(FindJsonDepthExcess("{}") == std::string_view::npos);
  CHECK(FindJsonDepthExcess("[[1]]", 2) == std::string_view::npos);
  CHECK(FindJsonDepthExcess("[[[1]]]", 2) == 2);
  CHECK(FindJsonDepthExcess(R"({"a":"[[[[\"[[[","b":[1]})", 2) == std::string_view::npos);
  CHECK(FindJsonDepthExcess("[][][][]", 1) == std::string_view::npos);
  // Unbalanced closers never make the depth negative.
  CHECK(FindJsonDepthExcess("]]]][[", 1) == 5);
  const std::string at_limit = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK(FindJsonDepthExcess(at_limit) == std::string_view::npos);
  const std::string past = "{\"a\":" + std::string(kMaxJsonDepth, '[');
  CHECK(FindJsonDepthExcess(past) == past.size() - 1);
  CHECK(JsonDepthError('[') == "invalid character '[' exceeded max depth");
}

}  // namespace kube
