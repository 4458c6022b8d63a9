#include "cel/type_checker.h"

#include <doctest/doctest.h>

#include "cel/cel.h"

namespace kube::cel {
namespace {

// An object type like the one kube builds for `spec: {replicas: int, name: string, tags: [string],
// labels: {string: string}, when: date-time}`.
TypeRef SpecType() {
  return Type::Object("selfType.spec", {{"replicas", Type::Int()},
                                        {"name", Type::String()},
                                        {"ratio", Type::Double()},
                                        {"tags", Type::List(Type::String())},
                                        {"labels", Type::Map(Type::String(), Type::String())},
                                        {"when", Type::Timestamp()},
                                        {"any", Type::Dyn()}});
}

Environment TypedEnv() {
  Environment env;
  RegisterKubernetesLibraries(env.functions());
  env.DeclareVariable("self", SpecType());
  env.DeclareVariable("oldSelf", SpecType());
  return env;
}

std::string TypeOf(const std::string& expr) {
  auto p = TypedEnv().Compile(expr);
  if (!p.ok()) return "error: " + p.status().message();
  return FormatType(*(*p)->output_type());
}

std::string ErrorOf(const std::string& expr) {
  auto p = TypedEnv().Compile(expr);
  if (p.ok()) return "ok: " + FormatType(*(*p)->output_type());
  return p.status().message();
}

TEST_CASE("type notation parses and formats as cel-go names types") {
  CHECK(FormatType(*ParseTypeNotation("map(string, list(A))")) == "map(string, list(A))");
  CHECK(FormatType(*ParseTypeNotation("timestamp")) == "google.protobuf.Timestamp");
  CHECK(FormatType(*ParseTypeNotation("optional_type(int)")) == "optional_type(int)");
  CHECK(FormatType(*ParseTypeNotation("net.IP")) == "net.IP");
  CHECK(ParseTypeNotation("list(") == nullptr);
  CHECK(ParseTypeNotation("") == nullptr);
  FunctionDecls d;
  CHECK(d.Add("f", "string.(int, list(A)) -> A"));
  REQUIRE(d.Find("f") != nullptr);
  CHECK(d.Find("f")->front().receiver);
  CHECK(d.Find("f")->front().params.size() == 3);
  CHECK_FALSE(d.Add("g", "(int"));
}

TEST_CASE("types are inferred from variables, fields, literals and overloads") {
  CHECK(TypeOf("self.replicas") == "int");
  CHECK(TypeOf("self.replicas + 1") == "int");
  CHECK(TypeOf("self.tags") == "list(string)");
  CHECK(TypeOf("self.tags[0]") == "string");
  CHECK(TypeOf("self.labels['a']") == "string");
  CHECK(TypeOf("self.labels.a") == "string");
  CHECK(TypeOf("self.tags.map(t, t.size())") == "list(int)");
  CHECK(TypeOf("self.tags.filter(t, t != '')") == "list(string)");
  CHECK(TypeOf("self.tags.all(t, t.startsWith('a'))") == "bool");
  CHECK(TypeOf("self.tags.exists_one(t, t == 'x')") == "bool");
  CHECK(TypeOf("[1, 2, 3]") == "list(int)");
  CHECK(TypeOf("[]") == "list(dyn)");
  CHECK(TypeOf("{'a': 1}") == "map(string, int)");
  CHECK(TypeOf("self.when + duration('1h')") == "google.protobuf.Timestamp");
  CHECK(TypeOf("self.when - self.when") == "google.protobuf.Duration");
  CHECK(TypeOf("self.any.foo") == "dyn");
  CHECK(TypeOf("self.any + 1") == "int");
  CHECK(TypeOf("has(self.name)") == "bool");
  CHECK(TypeOf("self.?name") == "optional_type(string)");
  CHECK(TypeOf("self.?name.orValue('x')") == "string");
  CHECK(TypeOf("self.replicas > 1 ? 'big' : 'small'") == "string");
  CHECK(TypeOf("type(self.name) == string") == "bool");
  CHECK(TypeOf("self.name.split(',')") == "list(string)");
  CHECK(TypeOf("self.tags.join(',')") == "string");
  CHECK(TypeOf("[1, 2].sum()") == "int");
  CHECK(TypeOf("cel.bind(x, self.replicas, x * 2)") == "int");
  CHECK(TypeOf("self.replicas < self.ratio") == "bool");  // cross-type numeric comparison
  CHECK(TypeOf("self.tags.all(i, t, i < 3 && t != '')") == "bool");
  CHECK(TypeOf("self.labels.transformMap(k, v, v + k)") == "map(string, string)");
}

TEST_CASE("type errors are reported as cel-go reports them") {
  CHECK(ErrorOf("self.nope == 1").find("undefined field 'nope'") != std::string::npos);
  CHECK(ErrorOf("self.replicas + 'a'").find("found no matching overload for '_+_' applied to '(int, string)'") !=
        std::string::npos);
  CHECK(ErrorOf("self.ratio == 0").find("found no matching overload for '_==_' applied to '(double, int)'") !=
        std::string::npos);
  CHECK(ErrorOf("self.name.startsWith(1)").find("found no matching overload for 'startsWith' applied to "
                                                 "'string.(int)'") != std::string::npos);
  CHECK(ErrorOf("self.replicas.foo").find("type 'int' does not support field selection") != std::string::npos);
  CHECK(ErrorOf("[1, 'a']").find("expected type 'int' but found 'string'") != std::string::npos);
  CHECK(ErrorOf("self.replicas.all(x, x > 0)").find("cannot be range of a comprehension") != std::string::npos);
  CHECK(ErrorOf("self.replicas && true").find("expected type 'bool' but found 'int'") != std::string::npos);
  // Rendered with the source line and caret, like every compile error.
  CHECK(ErrorOf("self.nope == 1").find("ERROR: <input>:1:5: undefined field 'nope'\n | self.nope == 1\n | ....^") !=
        std::string::npos);
}

TEST_CASE("aggregate literals take the more general element type, as cel-go's mostGeneral") {
  // Mixed literals outside kube's homogeneity check (string.format's arguments, cel-spec's tests).
  auto type_of = [](const std::string& expr) {
    Environment env({.homogeneous_literals = false});
    RegisterKubernetesLibraries(env.functions());
    auto p = env.Compile(expr);
    return p.ok() ? FormatType(*(*p)->output_type()) : "error: " + p.status().message();
  };
  CHECK(type_of("[optional.of(1), optional.of(dyn(1))]") == "list(optional_type(dyn))");
  CHECK(type_of("[optional.of(dyn(1)), optional.of(1)]") == "list(optional_type(dyn))");
  CHECK(type_of("[optional.none(), optional.of(1)]") == "list(optional_type(int))");
  CHECK(type_of("[[], [1]]") == "list(list(int))");
  CHECK(type_of("[1, dyn(2)]") == "list(dyn)");
  CHECK(type_of("[1, 'a']") == "list(dyn)");
  // optional_type is nullable (an opaque type to cel-go), and null wins the join.
  CHECK(type_of("[optional.of(1), null][0]") == "null_type");
  CHECK(type_of("optional.of(1) == null") == "bool");
}

TEST_CASE("what cel-go accepts is accepted") {
  for (const char* ok : {"self.name == oldSelf.name", "self == oldSelf", "self.when == null || true",
                         "self.any == 1 || self.any == 'a'", "self.tags.size() <= 10 && size(self.labels) < 3",
                         "!has(self.labels) || self.labels.all(k, k.size() < 63)", "dyn(self.ratio) == 0",
                         "self.replicas in [1, 2, 3]", "'a' in self.labels", "self.tags + ['x'] == ['x']",
                         "int(self.ratio) == self.replicas", "optional.none().orValue(1) == 1",
                         "[self.?name, optional.of('x')].size() == 2", "self.name.matches('^a') && 'b'.matches('b')"}) {
    CAPTURE(ok);
    CHECK(ErrorOf(ok).rfind("ok: ", 0) == 0);
  }
}

TEST_CASE("the Kubernetes libraries are typed: opaque results, kube's overload errors") {
  CHECK(TypeOf("quantity('1Gi').isGreaterThan(quantity('1Mi'))") == "bool");
  CHECK(TypeOf("quantity('1Gi')") == "kubernetes.Quantity");
  CHECK(TypeOf("ip('10.0.0.1').family()") == "int");
  CHECK(TypeOf("cidr('10.0.0.0/8').containsIP(ip('10.1.2.3'))") == "bool");
  CHECK(TypeOf("url('https://x').getHost()") == "string");
  CHECK(TypeOf("format.dns1123Label().validate('x')") == "optional_type(list(string))");
  CHECK(TypeOf("self.name.findAll('[a-z]+')") == "list(string)");
  CHECK(TypeOf("'%s has %d'.format([self.name, self.replicas])") == "string");  // format's list may mix
  CHECK(ErrorOf("quantity('1').isGreaterThan(1)").find("found no matching overload for 'isGreaterThan' applied to "
                                                        "'kubernetes.Quantity.(int)'") != std::string::npos);
  CHECK(ErrorOf("ip('10.0.0.1').family() == 'v4'").find("'_==_' applied to '(int, string)'") != std::string::npos);
}

TEST_CASE("qualified type names are types, in the checker and at run time") {
  Environment env;
  RegisterKubernetesLibraries(env.functions());
  for (const char* expr : {"type(ip('10.0.0.1')) == net.IP", "type(quantity('1')) == kubernetes.Quantity",
                           "type(timestamp('2024-01-01T00:00:00Z')) == google.protobuf.Timestamp",
                           "type(duration('1s')) == google.protobuf.Duration", "type(1) != net.IP"}) {
    CAPTURE(expr);
    auto p = env.Compile(expr);
    REQUIRE_MESSAGE(p.ok(), p.status().message());
    CHECK(FormatType(*(*p)->output_type()) == "bool");
    const Value v = (*p)->Evaluate(Activation{}).value;
    CHECK(DebugString(v) == "true");
  }
}

TEST_CASE("literal arguments that cannot work are compile errors (kube's literal validators)") {
  CHECK(ErrorOf("duration('1x') > duration('1s')").find("ERROR: <input>:1:10: invalid duration argument") !=
        std::string::npos);
  CHECK(ErrorOf("timestamp('yesterday') < timestamp('2024-01-01T00:00:00Z')").find("invalid timestamp argument") !=
        std::string::npos);
  CHECK(ErrorOf("self.name.matches('(')").find("invalid matches argument") != std::string::npos);
  CHECK(ErrorOf("self.name.matches('^[a-z]+$') && duration('1h') > duration('1s')").rfind("ok: ", 0) == 0);
  Environment lenient({.validate_literals = false});
  CHECK(lenient.Compile("duration('1x') > duration('1s')").ok());
}

TEST_CASE("cel.bind is a macro unless turned off, as kube's rule environment has it") {
  Environment with;
  CHECK(with.Compile("cel.bind(x, 2, x * x) == 4").ok());
  Environment without({.parse = {.bind_macro = false}});
  CHECK_FALSE(without.Compile("cel.bind(x, 2, x * x) == 4").ok());
}

TEST_CASE("an untyped environment checks literals and leaves variables dynamic") {
  Environment env;
  env.DeclareVariable("x");
  CHECK(env.Compile("x.foo.bar + 1 == 2").ok());
  CHECK_FALSE(env.Compile("1 + 'a'").ok());
  auto p = env.Compile("x.size()");
  REQUIRE(p.ok());
  CHECK(FormatType(*(*p)->output_type()) == "int");
}

}  // namespace
}  // namespace kube::cel
