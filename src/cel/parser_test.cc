#include <doctest/doctest.h>

#include "cel/parser.h"

namespace kube::cel {
namespace {

// The tree as a compact string: calls as name(args), selections as a.b, comprehensions as
// __comprehension__(var, range, ...).
std::string Show(const Expr& e) {
  auto join = [](const std::vector<ExprPtr>& args) {
    std::string out;
    for (size_t i = 0; i < args.size(); ++i) out += (i ? ", " : "") + Show(*args[i]);
    return out;
  };
  switch (e.kind) {
    case ExprKind::kConst: return DebugString(e.constant);
    case ExprKind::kIdent: return e.name;
    case ExprKind::kSelect: return (e.test_only ? "has(" : "") + Show(*e.target) + "." + e.name + (e.test_only ? ")" : "");
    case ExprKind::kCall: return (e.target ? Show(*e.target) + "." : "") + e.name + "(" + join(e.args) + ")";
    case ExprKind::kList: return "[" + join(e.args) + "]";
    case ExprKind::kMap: {
      std::string out = "{";
      for (const auto& en : e.entries) out += (en.optional ? "?" : "") + Show(*en.key) + ": " + Show(*en.value) + ", ";
      return out + "}";
    }
    case ExprKind::kStruct: return e.name + "{...}";
    case ExprKind::kComprehension:
      return "__comprehension__(" + e.iter_var + (e.iter_var2.empty() ? "" : "," + e.iter_var2) + ", " +
             Show(*e.iter_range) + ", " + Show(*e.accu_init) + ", " + Show(*e.loop_condition) + ", " +
             Show(*e.loop_step) + ", " + Show(*e.result) + ")";
  }
  return "?";
}

std::string P(std::string_view src) {
  auto r = Parse(src);
  if (!r.errors.empty()) return "ERROR " + r.errors[0].message;
  return Show(*r.expr);
}

TEST_CASE("parser: precedence and associativity follow the grammar") {
  CHECK(P("1 + 2 * 3") == "_+_(1, _*_(2, 3))");
  CHECK(P("1 - 2 - 3") == "_-_(_-_(1, 2), 3)");
  CHECK(P("a || b && c") == "_||_(a, _&&_(b, c))");
  CHECK(P("a < b == c") == "_==_(_<_(a, b), c)");
  CHECK(P("x in [1, 2] && y") == "_&&_(@in(x, [1, 2]), y)");
  CHECK(P("a ? b : c ? d : e") == "_?_:_(a, b, _?_:_(c, d, e))");
  CHECK(P("!a.b") == "!_(a.b)");
  CHECK(P("!!a") == "a");
  CHECK(P("-(1)") == "-_(1)");
  CHECK(P("--x") == "x");
  CHECK(P("a.b[0].c(1, 2)") == "_[_](a.b, 0).c(1, 2)");
}

TEST_CASE("parser: literals of every form") {
  CHECK(P("-9223372036854775808") == "-9223372036854775808");
  CHECK(P("9223372036854775808").starts_with("ERROR invalid int literal"));
  CHECK(P("18446744073709551615u") == "18446744073709551615u");
  CHECK(P("0x1F") == "31");
  CHECK(P("0xFFu") == "255u");
  CHECK(P("1.5e3") == "1500");
  CHECK(P(".5") == "0.5");
  CHECK(P("1e-2") == "0.01");
  CHECK(P(R"("a\tb\x41\u00e9\101")") == "\"a\\x09bAéA\"");
  CHECK(P(R"(r"a\tb")") == R"("a\\tb")");
  CHECK(P(R"('''multi
line''')") == "\"multi\\nline\"");
  CHECK(P(R"(b"\xff\377")") == "b\"\xff\xff\"");
  CHECK(P(R"(b"\u00e9")").starts_with("ERROR Syntax error: token recognition error"));
  CHECK(P("true && null == false") == "_&&_(true, _==_(null, false))");
}

TEST_CASE("parser: macros expand to comprehensions") {
  CHECK(P("has(a.b)") == "has(a.b)");
  CHECK(P("has(a)") == "ERROR invalid argument to has() macro");
  CHECK(P("l.all(x, x > 0)") ==
        "__comprehension__(x, l, true, @not_strictly_false(@result), _&&_(@result, _>_(x, 0)), @result)");
  CHECK(P("l.exists(x, x > 0)") ==
        "__comprehension__(x, l, false, @not_strictly_false(!_(@result)), _||_(@result, _>_(x, 0)), @result)");
  CHECK(P("l.map(x, x * 2)") == "__comprehension__(x, l, [], true, _+_(@result, [_*_(x, 2)]), @result)");
  CHECK(P("l.filter(x, x > 1)") ==
        "__comprehension__(x, l, [], true, _?_:_(_>_(x, 1), _+_(@result, [x]), @result), @result)");
  CHECK(P("m.all(k, v, v > 0)").starts_with("__comprehension__(k,v, m, true"));
  CHECK(P("l.all(1, x)") == "ERROR argument must be a simple name");
  CHECK(P("l.all(x, x, true)") == "ERROR duplicate variable name: x");
  CHECK(P("cel.bind(x, 1, x + 1)") == "__comprehension__(#unused, [], 1, false, x, _+_(x, 1))");
  CHECK(P("f(a).size()") == "f(a).size()");
}

TEST_CASE("parser: the optional syntax") {
  CHECK(P("a.?b") == "_?._(a, \"b\")");
  CHECK(P("a[?0]") == "_[?_](a, 0)");
  CHECK(P("{?'k': v}") == "{?\"k\": v, }");
  auto r = Parse("[?a, b]");
  REQUIRE(r.errors.empty());
  CHECK(r.expr->optional_indices == std::vector<int32_t>{0});
}

TEST_CASE("parser: errors carry cel-go's words and positions") {
  auto r = Parse("self.x ==");
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message.starts_with("Syntax error: mismatched input '<EOF>' expecting {'[', '{', '('"));
  CHECK(FormatErrors("self.x ==", r.errors) ==
        "ERROR: <input>:1:10: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', "
        "'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.x ==\n | .........^");
  r = Parse("a b");
  REQUIRE(r.errors.size() == 1);
  CHECK(FormatErrors("a b", r.errors) == "ERROR: <input>:1:3: Syntax error: mismatched input 'b' expecting <EOF>\n | a b\n | ..^");
  CHECK(P("a #") == "ERROR Syntax error: token recognition error at: '#'");
  CHECK(P("for") == "ERROR reserved identifier: for");
  CHECK(P("f(1, 2") == "ERROR Syntax error: missing ')' at '<EOF>'");
  r = Parse("x &&\n  y +");
  CHECK(FormatErrors("x &&\n  y +", r.errors).starts_with("ERROR: <input>:2:6: "));
}

TEST_CASE("parser: input is bounded, never the stack") {
  std::string deep(5000, '(');
  deep += "1" + std::string(5000, ')');
  auto r = Parse(deep);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "expression recursion limit exceeded: 250");
  std::string brackets;
  for (int i = 0; i < 5000; ++i) brackets += "[";
  CHECK(!Parse(brackets).errors.empty());
  ParseOptions small;
  small.max_code_points = 10;
  CHECK(Parse("1 + 2 + 3 + 4 + 5", small).errors[0].message.starts_with("expression code point size exceeds limit"));
  CHECK(!Parse("'unterminated").errors.empty());
  CHECK(!Parse("\"\\q\"").errors.empty());
}

}  // namespace
}  // namespace kube::cel
