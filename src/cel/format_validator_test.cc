#include "cel/format_validator.h"

#include <doctest/doctest.h>

#include "cel/cel.h"

namespace kube::cel {
namespace {

// `self` as kube types a CRD's spec: fields of known types, and one that may hold anything.
TypeRef SpecType() {
  return Type::Object("selfType.spec", {{"replicas", Type::Int()},
                                        {"name", Type::String()},
                                        {"tags", Type::List(Type::String())},
                                        {"labels", Type::Map(Type::String(), Type::String())},
                                        {"when", Type::Timestamp()},
                                        {"any", Type::Dyn()}});
}

std::string Compile(const std::string& expr, EnvironmentOptions options = {}) {
  Environment env(std::move(options));
  RegisterKubernetesLibraries(env.functions());
  env.DeclareVariable("self", SpecType());
  auto p = env.Compile(expr);
  return p.ok() ? "ok" : p.status().message();
}

// The first line of the error: "ERROR: <input>:1:12: <message>".
std::string FirstLine(const std::string& expr) {
  const std::string m = Compile(expr);
  return m.substr(0, m.find('\n'));
}

TEST_CASE("string.format: malformed clauses and argument counts are refused at the call") {
  CHECK(Compile("'%j'.format([1])") ==
        "ERROR: <input>:1:12: could not parse formatting clause: unrecognized formatting clause \"j\"\n"
        " | '%j'.format([1])\n"
        " | ...........^");
  CHECK(FirstLine("'double is %E'.format([0.5])") ==
        "ERROR: <input>:1:22: could not parse formatting clause: unrecognized formatting clause \"E\"");
  CHECK(FirstLine("'%s %s'.format(['abc'])") == "ERROR: <input>:1:15: index 1 out of range");
  CHECK(FirstLine("'%s %s'.format(['abc', 'def', 'ghi'])") ==
        "ERROR: <input>:1:15: too many arguments supplied to string.format (expected 2, got 3)");
  CHECK(FirstLine("'no clause'.format([1])") ==
        "ERROR: <input>:1:19: too many arguments supplied to string.format (expected 0, got 1)");
  // A trailing '%' is reported before the missing argument (the run time does the reverse).
  CHECK(FirstLine("'filler %'.format([])") == "ERROR: <input>:1:18: unexpected end of string");
  CHECK(FirstLine("'double is %.34'.format([5.0])") ==
        "ERROR: <input>:1:24: could not parse formatting clause: error while parsing precision: could not find end "
        "of precision specifier");
  CHECK(FirstLine("'%.f'.format([5.0])") ==
        "ERROR: <input>:1:13: could not parse formatting clause: error while parsing precision: error while "
        "converting precision to integer: strconv.Atoi: parsing \"\": invalid syntax");
  CHECK(FirstLine("'%.99999999999999999999f'.format([5.0])") ==
        "ERROR: <input>:1:33: could not parse formatting clause: error while parsing precision: error while "
        "converting precision to integer: strconv.Atoi: parsing \"99999999999999999999\": value out of range");
  // The first problem of a call is its only one.
  CHECK(Compile("'%d %j'.format(['a'])") ==
        "ERROR: <input>:1:17: error during formatting: decimal clause can only be used on integers, was given string\n"
        " | '%d %j'.format(['a'])\n"
        " | ................^");
}

TEST_CASE("string.format: arguments a clause cannot format are refused where they stand") {
  CHECK(FirstLine("'int is %d'.format([5.2])") ==
        "ERROR: <input>:1:21: error during formatting: decimal clause can only be used on integers, was given double");
  CHECK(FirstLine("'%f'.format([true])") ==
        "ERROR: <input>:1:14: error during formatting: fixed-point clause can only be used on doubles, was given bool");
  CHECK(FirstLine("'%e'.format([1])") ==
        "ERROR: <input>:1:14: error during formatting: scientific clause can only be used on doubles, was given int");
  CHECK(FirstLine("'%b'.format(['a string'])") ==
        "ERROR: <input>:1:14: error during formatting: only integers and bools can be formatted as binary, was given "
        "string");
  CHECK(FirstLine("'%X is a double'.format([2.5])") ==
        "ERROR: <input>:1:26: error during formatting: only integers, byte buffers, and strings can be formatted as "
        "hex, was given double");
  CHECK(FirstLine("'an octal: %o'.format([3.14])") ==
        "ERROR: <input>:1:24: error during formatting: octal clause can only be used on integers, was given double");
  // Types are named as cel-go names their runtime class: no parameters for lists and maps.
  const std::string decimal = "error during formatting: decimal clause can only be used on integers, was given ";
  CHECK(FirstLine("'%d'.format([self.tags])") == "ERROR: <input>:1:18: " + decimal + "list");
  CHECK(FirstLine("'%d'.format([self.labels])") == "ERROR: <input>:1:18: " + decimal + "map");
  CHECK(FirstLine("'%d'.format([self.when])") == "ERROR: <input>:1:18: " + decimal + "google.protobuf.Timestamp");
  CHECK(FirstLine("'%d'.format([duration('1s')])") == "ERROR: <input>:1:22: " + decimal + "google.protobuf.Duration");
  CHECK(FirstLine("'%d'.format([null])") == "ERROR: <input>:1:14: " + decimal + "null_type");
  CHECK(FirstLine("'%d'.format([optional.of(1)])") == "ERROR: <input>:1:25: " + decimal + "optional_type");
  CHECK(FirstLine("'%d'.format([ip('1.2.3.4')])") == "ERROR: <input>:1:16: " + decimal + "net.IP");
  CHECK(FirstLine("'%d'.format([int])") == "ERROR: <input>:1:14: " + decimal + "type");
  // %s: objects and library values cannot be printed, inside list and map literals either.
  const std::string string_clause =
      "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, "
      "types, durations, and timestamps, was given ";
  CHECK(FirstLine("'%s'.format([self])") == "ERROR: <input>:1:14: " + string_clause + "selfType.spec");
  CHECK(FirstLine("'%s'.format([[1, 2, self]])") == "ERROR: <input>:1:21: " + string_clause + "selfType.spec");
  CHECK(FirstLine("'%s'.format([{'a': quantity('1')}])") == "ERROR: <input>:1:28: " + string_clause +
                                                                 "kubernetes.Quantity");
  CHECK(FirstLine("'%s'.format([{ip('1.2.3.4'): 1}])") == "ERROR: <input>:1:17: " + string_clause + "net.IP");
}

TEST_CASE("string.format: what cel-go accepts compiles") {
  for (const char* ok : {
           "'%s %d %f %e %b %x %X %o'.format(['a', 1, 1.5, 2.5, true, 'ff', b'x', 8u]) != ''",
           "'%% and %%%s%%'.format(['x']) == '% and %x%'",
           "'%.3f %.0e'.format([1.0, 2.0]) != ''",
           "'%f %e'.format(['NaN', '-Infinity']) != ''",  // the strings of the double specials
           "'%d %s'.format([self.any, self.any]) != ''",  // dyn: the run time decides
           "'%d'.format([dyn('a')]) != '' || true",
           "'%s %s %s %s'.format([self.tags, self.labels, self.when, [1, 'a', {'k': null}]]) != ''",
           "'%s'.format([type(1)]) == 'int'",
           "self.name.format([1, 2]) != ''",              // a format string that is not a literal
           "'%d %d'.format(self.tags) != '' || true",     // an argument list that is not a literal
           "'%.2000f'.format([1.0]) != '' || true",       // version 2 sets no largest precision
           "'%d'.format([1]).size() == 1",
       }) {
    CAPTURE(ok);
    CHECK(Compile(ok) == "ok");
  }
}

TEST_CASE("string.format: errors are listed by position with the other validators'") {
  // Each call is checked; kube's literal and homogeneity validators report alongside.
  CHECK(Compile("'%d'.format(['a']) == '%x'.format([1.5]) && [1, 'b'].size() == 2 && duration('x') > duration('1s')") ==
        "ERROR: <input>:1:14: error during formatting: decimal clause can only be used on integers, was given string\n"
        " | '%d'.format(['a']) == '%x'.format([1.5]) && [1, 'b'].size() == 2 && duration('x') > duration('1s')\n"
        " | .............^\n"
        "ERROR: <input>:1:36: error during formatting: only integers, byte buffers, and strings can be formatted as "
        "hex, was given double\n"
        " | '%d'.format(['a']) == '%x'.format([1.5]) && [1, 'b'].size() == 2 && duration('x') > duration('1s')\n"
        " | ...................................^\n"
        "ERROR: <input>:1:49: expected type 'int' but found 'string'\n"
        " | '%d'.format(['a']) == '%x'.format([1.5]) && [1, 'b'].size() == 2 && duration('x') > duration('1s')\n"
        " | ................................................^\n"
        "ERROR: <input>:1:78: invalid duration argument\n"
        " | '%d'.format(['a']) == '%x'.format([1.5]) && [1, 'b'].size() == 2 && duration('x') > duration('1s')\n"
        " | .............................................................................^");
  // Type errors come first, alone: cel-go validates only what type-checked.
  CHECK(FirstLine("'%d'.format(['a']) == 1") ==
        "ERROR: <input>:1:20: found no matching overload for '_==_' applied to '(string, int)'");
}

TEST_CASE("string.format: literals anywhere below a format call may mix types") {
  // cel-go exempts the receiver's literals too, not only the argument list's.
  CHECK(Compile("(string([1, 'a'].size()) + ' %d').format([1]) == '2 1'") == "ok");
  CHECK(FirstLine("string([1, 'a'].size()) + ' %d' == '2'") ==
        "ERROR: <input>:1:12: expected type 'int' but found 'string'");
}

TEST_CASE("string.format: the validator is part of the literal validators") {
  CHECK(Compile("'%d'.format(['a']) != ''", {.validate_literals = false}) == "ok");
  CHECK(Compile("'%d'.format(['a']) != ''", {.check_types = false}) == "ok");
}

}  // namespace
}  // namespace kube::cel
