#include "cel/cost_estimator.h"

#include <doctest/doctest.h>

#include "cel/cel.h"

namespace kube::cel {
namespace {

CostEstimate Estimate(const std::string& expr, TypeRef self = Type::Dyn()) {
  Environment env;
  RegisterKubernetesLibraries(env.functions());
  env.DeclareVariable("self", self);
  auto p = env.Compile(expr);
  REQUIRE_MESSAGE(p.ok(), p.status().message());
  return EstimateCost((*p)->expr(), (*p)->checked(), self);
}

TEST_CASE("cost estimates of literals and calls follow cel-go's rules") {
  CHECK(Estimate("true").max == 0);
  CHECK(Estimate("1 + 2").max == 1);
  // Regular expressions: (size + 1) / 10 of the string times a quarter of the pattern.
  CHECK(Estimate("''.matches('(((((((((())))))))))[0-9]')").max == 7);
  // A comprehension: its range's size times the loop's condition and step.
  CHECK(Estimate("[1, 2, 3].all(x, true)").max == 20);
  // && and || cost their operands without a call of their own.
  CHECK(Estimate("true && false").max == 0);
}

TEST_CASE("sizes come from the types' bounds; unbounded ones make loops expensive") {
  const TypeRef bounded = Type::WithBounds(Type::List(Type::WithBounds(Type::Int(), 0, 1)), 10, 2);
  const TypeRef unbounded = Type::List(Type::Int());
  CHECK(Estimate("self.all(x, true)", bounded).max == 32);
  CHECK(Estimate("self.all(x, self.all(y, true))", bounded).max == 352);
  CHECK(Estimate("self.all(x, true)", unbounded).max == UINT64_MAX);
  const TypeRef text = Type::WithBounds(Type::String(), 40, 2);
  CHECK(Estimate("self.contains('test')", text).max == 5);
  CHECK(Estimate("self.startsWith('test')", text).max == 2);
}

}  // namespace
}  // namespace kube::cel
