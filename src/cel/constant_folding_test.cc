// Constant folding (EnvironmentOptions::fold_constants): the same values, errors and costs as
// evaluating the constant parts every time; only error-free constant calls and literals fold.
#include <doctest/doctest.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "cel/cel.h"

namespace kube::cel {
namespace {

struct Outcome {
  std::string value;
  uint64_t cost = 0;
};

Result<std::shared_ptr<const Program>> Compile(std::string_view src, bool fold) {
  Environment env({.fold_constants = fold});
  RegisterKubernetesLibraries(env.functions());
  env.DeclareVariable("self", Type::Dyn());
  return env.Compile(src);
}

Outcome Run(std::string_view src, bool fold, uint64_t limit = UINT64_MAX) {
  auto program = Compile(src, fold);
  if (!program.ok()) return {"compile: " + program.status().message(), 0};
  Activation vars;
  vars.Bind("self", FromJson(nlohmann::json::parse(R"({"size": "2Gi", "n": 3, "ip": "10.1.2.3"})")));
  EvalResult r = (*program)->Evaluate(vars, {.cost_limit = limit});
  return {r.value.IsError() ? "error: " + r.value.ErrorMessage() : DebugString(r.value), r.cost};
}

TEST_CASE("constant folding: values, errors and costs as without it") {
  for (const char* e :
       {"quantity(self.size).compareTo(quantity('1Gi')) > 0", "quantity('1Gi').isGreaterThan(quantity('1Mi'))",
        "self.n in [1, 2, 3]", "{'a': 1, 'b': 2}[self.ip == '' ? 'a' : 'b']", "cidr('10.0.0.0/8').containsIP(self.ip)",
        "duration('1h') + duration('30m') > duration('1h')", "timestamp('2026-01-01T00:00:00Z') < timestamp('2027-01-01T00:00:00Z')",
        "1 / 0 == 1 || self.n == 3", "[1, 2, 1 / 0].size()", "'abc'.matches('^a') && self.n > 1", "{'a': 1, 'a': 2}.size()",
        "['a', 'b'].exists(x, x == 'b')", "[1, 2].map(x, x * 2) == [2, 4]", "size('héllo') + self.n",
        "'%s-%d'.format(['a', 1])", "optional.of(1).orValue(2) + self.n", "lists.range(100000).size()"}) {
    INFO(std::string(e));
    const Outcome folded = Run(e, true), plain = Run(e, false);
    CHECK(folded.value == plain.value);
    CHECK(folded.cost == plain.cost);
    CHECK(folded.value.rfind("compile:", 0) == std::string::npos);
  }
  // A cost limit trips in both.
  for (uint64_t limit : {1, 2, 3, 5}) {
    CHECK(Run("quantity('1Gi').isGreaterThan(quantity('1Mi'))", true, limit).value ==
          Run("quantity('1Gi').isGreaterThan(quantity('1Mi'))", false, limit).value);
  }
}

TEST_CASE("constant folding: which nodes fold") {
  auto program = Compile("quantity(self.size).compareTo(quantity('1Gi')) > 0 && 1 / 0 == 1", true);
  REQUIRE(program.ok());
  const Expr& root = (*program)->expr();  // _&&_(_>_(compareTo(...), 0), _==_(_/_(1, 0), 1))
  const Expr& compare = *root.args[0]->args[0];
  CHECK(!compare.folded);                 // reads self
  CHECK(compare.args[0]->folded != nullptr);  // quantity('1Gi')
  CHECK(compare.args[0]->folded->kind() == Kind::kOpaque);
  CHECK(!root.args[1]->args[0]->folded);  // 1 / 0 is an error: left to run time
  // Costly constants are not evaluated when compiling.
  CHECK(Run("lists.range(1048576).size() > 0", true).value == "true");
}

}  // namespace
}  // namespace kube::cel
