// Hostile strings through every Kubernetes library function that reads one: no crash, no
// exception, the is*() predicates always answer a bool that agrees with the parsing function,
// and format strings never fail other than with an error value.
#include <doctest/doctest.h>

#include <random>

#include "cel/cel.h"
#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

std::vector<std::string> HostileStrings() {
  std::vector<std::string> out = {"",
                                  "\xff",
                                  "\xc3",
                                  "\xe2\x82",
                                  std::string("\0", 1),
                                  "%",
                                  "%%",
                                  "%.",
                                  "%.9999999999999999999999f",
                                  "[",
                                  "]",
                                  "::",
                                  ":::",
                                  "1.2.3.4/",
                                  "/",
                                  "//",
                                  "http://[",
                                  "http://[::1%25",
                                  "http://[::1%25%zz]/",
                                  "http://a@b@c/",
                                  "?",
                                  "#",
                                  "*",
                                  ".",
                                  "-",
                                  "+",
                                  "e",
                                  "1e2147483647",
                                  "1e-2147483648",
                                  "1.5e-2147483648",
                                  "9223372036854775807Ei",
                                  "-0.0000000000000000000000000001",
                                  "v",
                                  "v.",
                                  "0.0.0-",
                                  "1.2.3-+",
                                  std::string(100000, '9'),
                                  std::string(100000, '.'),
                                  std::string(100000, ':'),
                                  std::string(20000, '%') + "d",
                                  "1." + std::string(5000, '0') + "1"};
  std::mt19937 rng(42);
  const std::string alphabets[] = {"0123456789.+-eEinumkKMGTP", "0123456789abcdef:./%[]", "abc:/?#@[]%25.-_~!$&'()*+,;=",
                                   "0123456789.-+vabc", std::string("\x00\x7f\x80\xbf\xc0\xff%s.d", 10)};
  for (const auto& alphabet : alphabets) {
    std::uniform_int_distribution<size_t> pick(0, alphabet.size() - 1), len(0, 24);
    for (int i = 0; i < 300; ++i) {
      std::string s;
      for (size_t n = len(rng); n > 0; --n) s += alphabet[pick(rng)];
      out.push_back(std::move(s));
    }
  }
  return out;
}

struct Fixture {
  Fixture() {
    RegisterKubernetesLibraries(env.functions());
    env.DeclareVariable("s");
  }
  const Program& Compile(std::string_view src) {
    auto p = env.Compile(src);
    REQUIRE_MESSAGE(p.ok(), std::string(src));
    programs.push_back(*p);
    return *programs.back();
  }
  Value Run(const Program& p, const std::string& s) {
    Activation vars;
    vars.Bind("s", Value::String(s));
    return p.Evaluate(vars).value;
  }
  // Unchecked: some probes build mixed lists, which kube's checker refuses.
  Environment env{{.check_types = false}};
  std::vector<std::shared_ptr<const Program>> programs;
};

TEST_CASE("robustness: predicates agree with their parsing functions on hostile strings") {
  Fixture f;
  const std::pair<const char*, const char*> pairs[] = {{"isIP(s)", "ip(s)"},
                                                        {"isCIDR(s)", "cidr(s)"},
                                                        {"isQuantity(s)", "quantity(s)"},
                                                        {"isSemver(s)", "semver(s)"},
                                                        {"isSemver(s, true)", "semver(s, true)"},
                                                        {"isURL(s)", "url(s)"}};
  for (const auto& [pred, parse] : pairs) {
    const Program& p = f.Compile(pred);
    const Program& q = f.Compile(parse);
    for (const auto& s : HostileStrings()) {
      const Value a = f.Run(p, s), b = f.Run(q, s);
      REQUIRE(a.kind() == Kind::kBool);
      CHECK_MESSAGE(a.AsBool() == !b.IsError(), pred, " on ", s);
    }
  }
}

// A predicate and its parsing function in one evaluation share the parse (CallContext's last
// conversion): each still answers as it does alone, in either order, on every string.
TEST_CASE("robustness: a predicate and its parsing function in one evaluation answer as apart") {
  Fixture f;
  const std::pair<const char*, const char*> pairs[] = {{"isIP(s)", "ip(s)"},
                                                        {"isCIDR(s)", "cidr(s)"},
                                                        {"isQuantity(s)", "quantity(s)"},
                                                        {"isURL(s)", "url(s)"}};
  std::vector<std::string> strings = HostileStrings();
  for (const char* extra : {"10.0.0.0/8", "10.0.0.1", "1Gi", "https://a.example/x?q=1", "http://a/b#c", "//host/p"}) {
    strings.push_back(extra);
  }
  auto render = [](const Value& v) { return v.IsError() ? "error: " + v.ErrorMessage() : DebugString(v); };
  for (const auto& [pred, parse] : pairs) {
    const Program& p = f.Compile(pred);
    const Program& q = f.Compile(parse);
    const Program& both = f.Compile(std::string("[") + pred + ", " + parse + ", " + pred + "]");
    const Program& reversed = f.Compile(std::string("[") + parse + ", " + pred + ", " + parse + "]");
    for (const auto& s : strings) {
      const std::string alone_pred = render(f.Run(p, s)), alone_parse = render(f.Run(q, s));
      const Value b = f.Run(both, s), r = f.Run(reversed, s);
      // A list literal with an error element is that error: compare element by element when not.
      if (b.kind() == Kind::kList) {
        CHECK_MESSAGE(render(b.AsList()[0]) == alone_pred, pred, " on ", s);
        CHECK_MESSAGE(render(b.AsList()[1]) == alone_parse, parse, " on ", s);
        CHECK_MESSAGE(render(b.AsList()[2]) == alone_pred, pred, " on ", s);
      } else {
        CHECK_MESSAGE(render(b) == alone_parse, parse, " on ", s);
      }
      if (r.kind() == Kind::kList) {
        CHECK_MESSAGE(render(r.AsList()[1]) == alone_pred, pred, " on ", s);
      } else {
        CHECK_MESSAGE(render(r) == alone_parse, parse, " on ", s);
      }
    }
  }
  // Different strings are converted apart.
  using testing::Eval;
  CHECK(Eval("isCIDR('10.0.0.0/8') && cidr('192.168.0.0/16').prefixLength() == 16") == "true");
  CHECK(Eval("isQuantity('1Gi') && quantity('2Gi').compareTo(quantity('1Gi')) == 1") == "true");
  CHECK(Eval("isURL('https://a/') ? url('http://b/').getHost() : ''") == "\"b\"");
}

TEST_CASE("robustness: every string-reading function returns a value or an error") {
  Fixture f;
  // Each expression with the kind of its value when it is not an error.
  const std::pair<const char*, Kind> exprs[] = {
      {"ip.isCanonical(s)", Kind::kBool},
      {"isIP(s) ? [string(ip(s)), ip(s).family(), ip(s).isGlobalUnicast()] : []", Kind::kList},
      {"isCIDR(s) ? [string(cidr(s).masked()), cidr(s).containsIP(s), cidr(s).containsCIDR(s)] : []", Kind::kList},
      {"cidr('0.0.0.0/0').containsIP(s)", Kind::kBool},
      {"isQuantity(s) ? [quantity(s).isInteger(), quantity(s).asApproximateFloat(), sign(quantity(s))] : []", Kind::kList},
      {"isQuantity(s) ? quantity(s).add(quantity(s)).sub(1).compareTo(quantity('1')) : 0", Kind::kInt},
      {"isSemver(s, true) ? semver(s, true).compareTo(semver('1.0.0')) : 0", Kind::kInt},
      {"isURL(s) ? [url(s).getHost(), url(s).getHostname(), url(s).getPort(), url(s).getEscapedPath()] : []",
       Kind::kList},
      {"isURL(s) ? url(s).getQuery() : {}", Kind::kMap},
      {"s.find('[a-z]*')", Kind::kString},
      {"s.findAll('.?', 5)", Kind::kList},
      {"'abc'.find(s)", Kind::kString},
      {"s.format([1, 2.5, 'x', [s], {'k': s}, b'\\xff', null, duration('1s')])", Kind::kString},
      {"'%s|%d|%f|%e|%x|%X|%o|%b'.format([s, 1, 1.5, 2.5, s, 7, 8, true])", Kind::kString},
      {"['dns1123Label', 'dns1123Subdomain', 'dns1035Label', 'qualifiedName', 'dns1123LabelPrefix', "
       "'dns1123SubdomainPrefix', 'dns1035LabelPrefix', 'labelValue', 'uri', 'uuid', 'byte', 'date', "
       "'datetime'].map(n, format.named(n).value().validate(s))",
       Kind::kList}};
  for (const auto& [src, kind] : exprs) {
    const Program& p = f.Compile(src);
    for (const auto& s : HostileStrings()) {
      const Value v = f.Run(p, s);
      if (v.IsError()) {
        CHECK_MESSAGE(!v.ErrorMessage().empty(), src, " on ", s);
      } else {
        CHECK_MESSAGE(v.kind() == kind, src, " on ", s);
      }
    }
  }
}

}  // namespace
}  // namespace kube::cel
