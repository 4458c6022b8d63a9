// One compiled set of rules evaluated from several threads at once, as the server evaluates a CRD's
// rules for concurrent writes: the folded constants, the per-thread value arenas and the shared
// reference counts must give every thread the answers one thread gets. Run under TSan
// (make sanitize SANITIZER=thread) this is the race check of the rule path.
#include <doctest/doctest.h>

#include <atomic>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "apiextensions/validation_rules.h"
#include "schema/schema_test_util.h"

namespace kube::apiextensions {
namespace {

using json = nlohmann::json;

// Rules that lean on what is shared between evaluations: constants folded at compile time
// (quantity, list literals), opaque values (CIDR, URL), comprehensions and a messageExpression.
constexpr const char* kSchema = R"j({"type": "object", "properties": {"spec": {"type": "object",
  "x-kubernetes-validations": [
    {"rule": "self.targets.all(t, self.targets.exists_one(u, u == t))", "message": "targets are unique"},
    {"rule": "self.targets.map(t, t.size()).sum() <= 12", "messageExpression": "'targets too long: ' + self.targets.join(',')"}],
  "properties": {
    "size": {"type": "string", "maxLength": 32,
             "x-kubernetes-validations": [{"rule": "isQuantity(self) && quantity(self).compareTo(quantity('1Ti')) <= 0",
                                           "messageExpression": "'size at most 1Ti, not ' + self"}]},
    "allowFrom": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 43},
                  "x-kubernetes-validations": [{"rule": "self.all(c, isCIDR(c) && cidr(c).ip().family() == 4)",
                                                "message": "IPv4 CIDRs"}]},
    "endpoint": {"type": "string", "maxLength": 256,
                 "x-kubernetes-validations": [{"rule": "isURL(self) && url(self).getScheme() in ['https', 'grpcs']",
                                               "message": "secure URL"}]},
    "targets": {"type": "array", "maxItems": 8, "items": {"type": "string", "maxLength": 16}}}}}})j";

std::vector<std::string> Causes(const ValidationRules& rules, const json& spec) {
  FieldErrors errs;
  rules.Validate({{"spec", spec}}, nullptr, &errs);
  return schema::testing::Rendered(errs);
}

TEST_CASE("validation rules: one compiled set evaluated by many threads at once answers as one thread does") {
  auto graph = schema::testing::Crd(kSchema);
  auto rules = ValidationRules::Compile(graph->Root());
  REQUIRE(rules != nullptr);
  const std::vector<json> specs = {
      {{"size", "500Gi"}, {"allowFrom", {"10.0.0.0/8"}}, {"endpoint", "https://a.example/x"}, {"targets", {"a", "b"}}},
      {{"size", "2Ti"}, {"allowFrom", {"10.0.0.0/8", "fd00::/8"}}, {"endpoint", "http://a.example"},
       {"targets", {"abcdefgh", "abcdefgh"}}},
      {{"size", "lots"}, {"allowFrom", {"nope"}}, {"endpoint", "grpcs://b.example:443"}, {"targets", {"x"}}},
  };
  std::vector<std::vector<std::string>> expected;
  for (const auto& s : specs) expected.push_back(Causes(*rules, s));
  REQUIRE(expected[0].empty());
  // kube omits the value of objects and arrays and quotes scalars (validation.go).
  REQUIRE(expected[1] == std::vector<std::string>{"spec: Invalid value: targets are unique",
                                                  "spec: Invalid value: targets too long: abcdefgh,abcdefgh",
                                                  "spec.allowFrom: Invalid value: IPv4 CIDRs",
                                                  "spec.endpoint: Invalid value: \"http://a.example\": secure URL",
                                                  "spec.size: Invalid value: \"2Ti\": size at most 1Ti, not 2Ti"});
  REQUIRE(expected[2] == std::vector<std::string>{"spec.allowFrom: Invalid value: IPv4 CIDRs",
                                                  "spec.size: Invalid value: \"lots\": size at most 1Ti, not lots"});

  constexpr int kThreads = 4;
  constexpr int kRounds = 300;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kRounds; ++i) {
        const size_t k = static_cast<size_t>(t + i) % specs.size();
        if (Causes(*rules, specs[k]) != expected[k]) mismatches.fetch_add(1);
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(mismatches.load() == 0);
}

}  // namespace
}  // namespace kube::apiextensions
