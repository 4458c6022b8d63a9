// The interpreter's own loops for the comprehension macros against the evaluation of their
// expansions: the same value or error, and the same cost, for every expression below, including
// errors and non-bool predicates (unchecked), short circuits, map ranges, two-variable forms and
// cost limits reached inside a loop (there both stop with the cost error).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "cel/cel.h"

namespace kube::cel {
namespace {

struct Outcome {
  std::string value;
  uint64_t cost = 0;
};

Outcome Run(std::string_view src, bool native, bool checked, const char* self_json, uint64_t limit) {
  Environment env({.check_types = checked, .native_macros = native});
  RegisterKubernetesLibraries(env.functions());
  env.DeclareVariable("self");
  auto program = env.Compile(src);
  if (!program.ok()) return {"compile: " + program.status().message(), 0};
  Activation vars;
  if (self_json) vars.Bind("self", FromJson(nlohmann::json::parse(self_json)));
  EvalResult r = (*program)->Evaluate(vars, {.cost_limit = limit});
  return {r.value.IsError() ? "error: " + r.value.ErrorMessage() : DebugString(r.value), r.cost};
}

void Same(std::string_view src, const char* self_json = nullptr, bool checked = false, uint64_t limit = UINT64_MAX) {
  const Outcome native = Run(src, true, checked, self_json, limit);
  const Outcome expanded = Run(src, false, checked, self_json, limit);
  INFO(src);
  CHECK(native.value == expanded.value);
  if (native.value == "error: operation cancelled: actual cost limit exceeded") {
    // Both stop once past the limit; what either counted after that point is not a cost.
    CHECK(native.cost > limit);
    CHECK(expanded.cost > limit);
  } else {
    CHECK(native.cost == expanded.cost);
  }
  CHECK(native.value.rfind("compile:", 0) == std::string::npos);
}

TEST_CASE("native macros: all and exists, with errors and short circuits") {
  for (const char* e : {"[1, 2, 3].all(x, x > 0)", "[1, 2, 3].all(x, x > 1)", "[].all(x, x > 1)",
                        "[3, 2, 1].all(x, x > 1)", "[1, 0, 2].all(x, 1 / x > 0)", "[0, -1].all(x, 1 / x > 0)",
                        "[-1, 0].all(x, 1 / x > 0)", "[1, 2].all(x, x)", "[true, 1, false].all(x, x)",
                        "[1 / 0 == 1, false].all(x, x)", "[0, 1].exists(x, 1 / x > 0)", "[0, 0].exists(x, 1 / x > 0)",
                        "[1, 2, 3].exists(x, x == 3)", "[1, 2, 3].exists(x, x == 1)", "[1, 'a'].exists(x, x)",
                        "[].exists(x, x)", "{'a': 1, 'b': 2}.all(k, k != 'c')", "{'a': 1, 'b': 2}.exists(k, k == 'a')",
                        "[1, 2, 3].all(x, [1, 2].exists(y, y == x))"}) {
    Same(e);
  }
}

TEST_CASE("native macros: exists_one keeps the expansion's error order") {
  for (const char* e : {"[1, 2, 3].exists_one(x, x == 2)", "[2, 2].exists_one(x, x == 2)", "[].exists_one(x, x)",
                        "[1, 0, 2].exists_one(x, 1 / x == 1)", "[0, 1, 'a'].exists_one(x, 1 / x == 1)",
                        "[1, 'a', 0].exists_one(x, x / 1 == 1)", "[1, 2].exists_one(x, x)", "[true, 1 / 0 == 0].exists_one(x, x)",
                        "{'a': 1}.exists_one(k, k == 'a')"}) {
    Same(e);
  }
}

TEST_CASE("native macros: map, filter and transformList build the expansion's list") {
  for (const char* e : {"[1, 2, 3].map(x, x * 2)", "[].map(x, x)", "[1, 0, 2].map(x, 10 / x)", "[0, 1].map(x, 10 / x)",
                        "[1, 2, 3, 4].map(x, x % 2 == 0, x * 10)", "[1, 0, 2].map(x, 10 / x > 1, x)",
                        "[1, 2, 3].map(x, x, x)", "[1, 2, 3].filter(x, x > 1)", "[1, 0, 2].filter(x, 1 / x > 0)",
                        "[1, 'a', 2].filter(x, x > 1)", "{'a': 1, 'b': 2}.map(k, k + k)",
                        "{'a': 1, 'b': 2}.filter(k, k == 'b')", "[10, 20].transformList(i, v, i + v)",
                        "[10, 20, 30].transformList(i, v, i > 0, v / i)", "{'a': 1}.transformList(k, v, k)",
                        "lists.range(30).map(x, x).size()", "[[1, 2], [3]].map(l, l.map(x, x + 1))",
                        "[1, 2, 3].map(x, x).sum()", "[1, 2].map(x, 1 / 0 == x, x)",
                        // an operand read in place while the next one runs a comprehension
                        "[1, 2].map(x, x + [1, 2, 3].map(y, y + x).size())", "[[1], [2]].all(l, l == l.map(y, y))"}) {
    Same(e);
  }
}

TEST_CASE("native macros: two-variable forms over lists and maps") {
  for (const char* e : {"[10, 20].all(i, v, v > i)", "[10, 20].exists(i, v, i == 1 && v == 20)",
                        "[10, 20].existsOne(i, v, v == 10)", "{'a': 1, 'b': 2}.all(k, v, v > 0)",
                        "{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)", "{'a': 1, 'b': 1}.existsOne(k, v, v == 1)"}) {
    Same(e);
  }
}

TEST_CASE("native macros: self, type-checked rules and cost limits inside loops") {
  const char* obj = R"({"targets":[{"name":"a","weight":60},{"name":"b"},{"name":"a","weight":1}]})";
  Same("self.targets.all(t, self.targets.exists_one(u, u.name == t.name))", obj);
  Same("self.targets.map(t, has(t.weight) ? t.weight : 1).sum() <= 100", obj);
  Same("self.targets.filter(t, t.name == 'a').map(t, t.weight)", obj);
  Same("self.targets.exists(t, t.weight > 50)", obj);
  Same("[1, 2, 3].all(x, x > 0)", nullptr, /*checked=*/true);
  Same("['a', 'b'].map(s, s + s)", nullptr, /*checked=*/true);
  for (uint64_t limit : {1, 5, 10, 20, 40, 80}) {
    Same("lists.range(20).map(x, x * 2).filter(x, x > 3).exists(x, x == 38)", nullptr, false, limit);
    Same("lists.range(10).all(x, lists.range(10).exists_one(y, y == x))", nullptr, false, limit);
  }
}

}  // namespace
}  // namespace kube::cel
