#include <doctest/doctest.h>

#include "cel/lib_test_helpers.h"

namespace kube::cel {
namespace {

using testing::Eval;

std::string F(std::string_view format, std::string_view args) {
  return Eval("'" + std::string(format) + "'.format([" + std::string(args) + "])");
}
std::string Str(std::string_view s) { return "\"" + std::string(s) + "\""; }

TEST_CASE("string format: substitutions and percent escapes") {
  CHECK(F("no substitution", "") == Str("no substitution"));
  CHECK(F("str is %s and some more", "'filler'") == Str("str is filler and some more"));
  CHECK(F("%% and also %%", "") == Str("% and also %"));
  CHECK(F("%%%s%%", "'text'") == Str("%text%"));
  CHECK(F("%d %d %d, %s %s %s", "1, 2, 3, 'A', 'B', 'C'") == Str("1 2 3, A B C"));
}

TEST_CASE("string format: numeric clauses") {
  CHECK(F("%.3f", "1.2345") == Str("1.234"));
  CHECK(F("%f", "2.71828") == Str("2.718280"));
  CHECK(F("%.1f", "1234567.25") == Str("1,234,567.2"));
  CHECK(F("%.0f", "-1234.5") == Str("-1,234"));
  CHECK(F("%f", "'NaN'") == Str("NaN"));
  CHECK(F("%f", "'Infinity'") == Str("∞"));
  CHECK(F("%f", "'-Infinity'") == Str("-∞"));
  CHECK(F("%e", "2.71828") == Str("2.718280\u202f×\u202f10⁰⁰"));
  CHECK(F("%.6e", "1052.032911275") == Str("1.052033\u202f×\u202f10⁰³"));
  CHECK(F("%.2e", "0.00012") == Str("1.20\u202f×\u202f10⁻⁰⁴"));
  CHECK(F("this is 5 in binary: %b", "5") == Str("this is 5 in binary: 101"));
  CHECK(F("%b", "-5") == Str("-101"));
  CHECK(F("%b", "uint(64)") == Str("1000000"));
  CHECK(F("%b", "true") == Str("1"));
  CHECK(F("%o", "11") == Str("13"));
  CHECK(F("%o", "-11") == Str("-13"));
  CHECK(F("%o", "uint(65535)") == Str("177777"));
  CHECK(F("%x is 30 in hexadecimal", "30") == Str("1e is 30 in hexadecimal"));
  CHECK(F("%X", "30") == Str("1E"));
  CHECK(F("%x", "-30") == Str("-1e"));
  CHECK(F("%X", "uint(6000)") == Str("1770"));
  CHECK(F("%x", "'Hello world!'") == Str("48656c6c6f20776f726c6421"));
  CHECK(F("%X", "b'byte string'") == Str("6279746520737472696E67"));
  CHECK(F("%x", "b'\\x00\\x00byte string\\x00'") == Str("00006279746520737472696e6700"));
  CHECK(F("%d", "uint(64)") == Str("64"));
  CHECK(F("%d", "-9223372036854775808") == Str("-9223372036854775808"));
}

TEST_CASE("string format: %s of every kind") {
  CHECK(F("%s", "2.71") == Str("2.71"));
  CHECK(F("%s", "0.000000002") == Str("2e-09"));
  CHECK(F("%s", "double('NaN')") == Str("NaN"));
  CHECK(F("%s", "double('-Inf')") == Str("-Inf"));
  CHECK(F("%s", "999999999999") == Str("999999999999"));
  CHECK(F("null: %s", "null") == Str("null: null"));
  CHECK(F("some bytes: %s", "b'xyz'") == Str("some bytes: xyz"));
  CHECK(F("type is %s", "type('test string')") == Str("type is string"));
  CHECK(F("%s", "timestamp('2023-02-03T23:31:20+00:00')") == Str("2023-02-03T23:31:20Z"));
  CHECK(F("%s", "duration('1h45m47s')") == Str("6347s"));
  CHECK(F("%s", "duration('2ns')") == Str("0.000000002s"));
  CHECK(F("true bool: %s, false bool: %s", "true, false") == Str("true bool: true, false bool: false"));
  CHECK(F("%s", "[2.71]") == Str("[2.710000]"));
  CHECK(F("%s", "[0.000000002]") == Str("[0.000000]"));
  CHECK(F("%s", "['abc', 3.14, null, [9, 8, 7, 6], timestamp('2023-02-03T23:31:20Z')]") ==
        Str("[\\\"abc\\\", 3.140000, null, [9, 8, 7, 6], timestamp(\\\"2023-02-03T23:31:20Z\\\")]"));
  CHECK(F("%s", "[double('NaN'), double('+Inf'), double('-Inf')]") == Str("[\\\"NaN\\\", \\\"+Inf\\\", \\\"-Inf\\\"]"));
  CHECK(F("%s", "{'key1': b'xyz', 'key5': null, 'key2': duration('2h'), 'key4': true, 'key3': 2.71828}") ==
        Str("{\\\"key1\\\":b\\\"xyz\\\", \\\"key2\\\":duration(\\\"7200s\\\"), \\\"key3\\\":2.718280, \\\"key4\\\":true, "
            "\\\"key5\\\":null}"));
  CHECK(F("%s", "{1: 'value1', uint(2): 'value2', true: double('NaN')}") ==
        Str("{1:\\\"value1\\\", 2:\\\"value2\\\", true:\\\"NaN\\\"}"));
}

TEST_CASE("string format: errors as cel-go words them") {
  CHECK(F("%a", "1") == "error: could not parse formatting clause: unrecognized formatting clause \"a\"");
  CHECK(F("%E", "0.5") == "error: could not parse formatting clause: unrecognized formatting clause \"E\"");
  CHECK(F("%d %d %d", "0, 1") == "error: index 2 out of range");
  CHECK(F("%s %s", "'abc'") == "error: index 1 out of range");
  CHECK(F("filler %", "1") == "error: unexpected end of string");
  CHECK(F("filler %", "") == "error: index 0 out of range");
  CHECK(F("%.34", "5.0") ==
        "error: could not parse formatting clause: error while parsing precision: could not find end of precision specifier");
  CHECK(F("%.f", "5.0") ==
        "error: could not parse formatting clause: error while parsing precision: error while converting precision to "
        "integer: strconv.Atoi: parsing \"\": invalid syntax");
  CHECK(F("string is %b", "'abc'") ==
        "error: error during formatting: only integers and bools can be formatted as binary, was given string");
  CHECK(F("%d", "duration('30m2s')") ==
        "error: error during formatting: decimal clause can only be used on integers, was given google.protobuf.Duration");
  CHECK(F("octal: %o", "'a string'") ==
        "error: error during formatting: octal clause can only be used on integers, was given string");
  CHECK(F("double is %x", "0.5") ==
        "error: error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given double");
  CHECK(F("null: %d", "null") ==
        "error: error during formatting: decimal clause can only be used on integers, was given null_type");
  CHECK(F("null: %e", "null") ==
        "error: error during formatting: scientific clause can only be used on doubles, was given null_type");
  CHECK(F("null: %f", "null") ==
        "error: error during formatting: fixed-point clause can only be used on doubles, was given null_type");
  CHECK(F("%s", "ip('1.2.3.4')") ==
        "error: error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, "
        "lists, types, durations, and timestamps, was given net.IP");
  CHECK(F("%s", "[ip('1.2.3.4')]") == "error: error during formatting: no formatting function for net.IP");
  CHECK(F("%s", "b'\\xff'") ==
        "error: error during formatting: could not convert argument \"invalid UTF-8 in bytes, cannot convert to "
        "string\" to string");
  CHECK(F("%.99999999999999999999f", "1.0").starts_with("error: could not parse formatting clause: "));
}

}  // namespace
}  // namespace kube::cel
