#include "util/go_format.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

namespace kube {
namespace {

TEST_CASE("GoQuote matches strconv.Quote") {
  CHECK(GoQuote("") == R"("")");
  CHECK(GoQuote("plain") == R"("plain")");
  CHECK(GoQuote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(GoQuote("tab\tnl\ncr\r\a\b\f\v") == R"("tab\tnl\ncr\r\a\b\f\v")");
  CHECK(GoQuote(std::string("nul\0x", 5)) == R"("nul\x00x")");
  CHECK(GoQuote("\x7f") == R"("\x7f")");
  CHECK(GoQuote("h\xc3\xa9llo \xe2\x98\x83") == "\"h\xc3\xa9llo \xe2\x98\x83\"");  // printable runes stay
  CHECK(GoQuote("bad\xff") == R"("bad\xff")");
  CHECK(GoQuote("\xc2\x85") == R"("\u0085")");
  CHECK(GoQuote("\xe2\x80\xa8") == R"("\u2028")");
}

TEST_CASE("GoJsonMarshal matches encoding/json") {
  using nlohmann::json;
  CHECK(GoJsonMarshal(json::parse(R"({"b":1,"a":[true,null,"x"]})")) == R"({"a":[true,null,"x"],"b":1})");
  CHECK(GoJsonMarshal(json("<a&b>")) == R"("\u003ca\u0026b\u003e")");
  CHECK(GoJsonMarshal(json("\x01\b\f")) == R"("\u0001\b\f")");
  CHECK(GoJsonMarshal(json("bad\xff")) == R"("bad\ufffd")");
  CHECK(GoJsonMarshal(json("\xe2\x80\xa8")) == R"("\u2028")");
  CHECK(GoJsonMarshal(json(3.0)) == "3");
  CHECK(GoJsonMarshal(json(1.5)) == "1.5");
  CHECK(GoJsonMarshal(json(1e21)) == "1e+21");
  CHECK(GoJsonMarshal(json(1e20)) == "100000000000000000000");
  CHECK(GoJsonMarshal(json(0.000001)) == "0.000001");
  CHECK(GoJsonMarshal(json(1.5e-7)) == "1.5e-7");
  CHECK(GoJsonMarshal(json(-2)) == "-2");
  CHECK(GoJsonMarshal(json::array()) == "[]");
  CHECK(GoJsonMarshal(json::object()) == "{}");
}

TEST_CASE("GoFormatFloat matches fmt's %v") {
  CHECK(GoFormatFloat(3) == "3");
  CHECK(GoFormatFloat(1.5) == "1.5");
  CHECK(GoFormatFloat(123456) == "123456");
  CHECK(GoFormatFloat(1e6) == "1e+06");
  CHECK(GoFormatFloat(1234567) == "1.234567e+06");
  CHECK(GoFormatFloat(0.0001) == "0.0001");
  CHECK(GoFormatFloat(0.00001) == "1e-05");
  CHECK(GoFormatFloat(-0.5) == "-0.5");
  CHECK(GoFormatFloat(0) == "0");
}

}  // namespace
}  // namespace kube
