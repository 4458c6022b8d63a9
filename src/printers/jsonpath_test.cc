// client-go JSONPath: parsing errors and evaluation, in kubectl's -o jsonpath output form.

#include "printers/jsonpath.h"

#include <doctest/doctest.h>

#include <string>

namespace kube::printers {
namespace {

using Json = nlohmann::json;

const Json kStore = Json::parse(R"({
  "kind": "List",
  "Store": {
    "Book": [
      {"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
      {"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
      {"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99, "Pages": 635}
    ],
    "Bicycle": [{"Color": "red", "Price": 19.95, "IsNew": true, "Gears": 21},
                {"Color": "green", "Price": 20.01, "IsNew": false, "Gears": 3}],
    "Labels": {"engineer": 10, "web/html": 15, "k8s-app": 20, "a.b": "dotted"},
    "Empty": null,
    "Word": "hi"
  }
})");

std::string Run(const std::string& tmpl, const Json& data = kStore, bool allow_missing = false) {
  Result<JsonPath> p = JsonPath::Parse(tmpl);
  if (!p.ok()) return "parse error: " + p.status().message();
  Result<std::string> out = p->Execute(data, allow_missing);
  if (!out.ok()) return "error: " + out.status().message();
  return *out;
}

TEST_CASE("fields, text and printing") {
  struct Case {
    const char* tmpl;
    const char* want;
  };
  const Case cases[] = {
      {"plain text", "plain text"},
      {"{.kind}", "List"},
      {"{$.kind}", "List"},
      {"{@.kind}", "List"},
      {"kind is {.kind}.", "kind is List."},
      {"{.Store.Bicycle[0].Color}", "red"},
      {"{.Store.Bicycle[0].Price}", "19.95"},
      {"{.Store.Bicycle[0].IsNew}", "true"},
      {"{.Store.Book[2].Pages}", "635"},
      {"{.Store.Labels.k8s-app}", "20"},
      {"{.Store.Labels.web/html}", "15"},
      {R"({.Store.Labels.a\.b})", "dotted"},
      {"{['Store']['Labels']['k8s-app']}", "20"},
      {"{.Store.Empty}", "null"},
      {"{.Store.Book[0]}", R"({"Author":"Nigel Rees","Category":"reference","Price":8.95,"Title":"Sayings of the Centurey"})"},
      {"{.Store.Bicycle[*].Gears}", "21 3"},
      {R"({"text"})", "text"},
      {R"({'single \'quoted\''})", "single 'quoted'"},
      {R"({"tab\there\n"})", "tab\there\n"},
      {"{.kind}{.kind}", "ListList"},
      {"{.Store.Word.*}", "104 105"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.tmpl);
    CHECK(Run(c.tmpl) == c.want);
  }
}

TEST_CASE("arrays, slices, unions, wildcards and recursive descent") {
  struct Case {
    const char* tmpl;
    const char* want;
  };
  const Case cases[] = {
      {"{.Store.Book[*].Author}", "Nigel Rees Evelyn Waugh Herman Melville"},
      {"{.Store.Book[-1].Author}", "Herman Melville"},
      {"{.Store.Book[-1:].Author}", "Herman Melville"},
      {"{.Store.Book[0:2].Author}", "Nigel Rees Evelyn Waugh"},
      {"{.Store.Book[:2].Author}", "Nigel Rees Evelyn Waugh"},
      {"{.Store.Book[::2].Author}", "Nigel Rees Herman Melville"},
      {"{.Store.Book[1:1].Author}", ""},
      {"{.Store.Book[0,2].Title}", "Sayings of the Centurey Moby Dick"},
      {"{.Store.Bicycle[0]['Color','Gears']}", "red 21"},
      {"{.Store.Labels.*}", "dotted 10 20 15"},
      {"{.Store.Bicycle[*].*}", "red 21 true 19.95 green 3 false 20.01"},
      {"{..Author}", "Nigel Rees Evelyn Waugh Herman Melville"},
      {"{.Store..Color}", "red green"},
      {"{..Bicycle[1].Color}", "green"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.tmpl);
    CHECK(Run(c.tmpl) == c.want);
  }
}

TEST_CASE("filters") {
  struct Case {
    const char* tmpl;
    const char* want;
  };
  const Case cases[] = {
      {R"({.Store.Book[?(@.Category=="fiction")].Author})", "Evelyn Waugh Herman Melville"},
      {R"({.Store.Book[?(@.Category != 'fiction')].Author})", "Nigel Rees"},
      {"{.Store.Book[?(@.Price<10.0)].Title}", "Sayings of the Centurey Moby Dick"},
      {"{.Store.Book[?(@.Price>=12.99)].Title}", "Sword of Honour"},
      {"{.Store.Bicycle[?(@.Gears>3)].Color}", "red"},
      {"{.Store.Bicycle[?(@.Gears<=3)].Color}", "green"},
      {"{.Store.Bicycle[?(@.IsNew==true)].Color}", "red"},
      {"{.Store.Book[?(@.Pages)].Title}", "Moby Dick"},
      // Go compares only values of one basic kind: a float field with an int literal fails.
      {"{.Store.Book[?(@.Price<10)].Title}", "error: incompatible types for comparison"},
      {"{.Store.Bicycle[?(@.IsNew<true)].Color}", "error: invalid type for comparison"},
      {"{.Store.Labels[?(@.x)]}", R"(error: {"a.b":"dotted","engineer":10,"k8s-app":20,"web/html":15} is not array or slice and cannot be filtered)"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.tmpl);
    CHECK(Run(c.tmpl, kStore, true) == c.want);
  }
}

TEST_CASE("range blocks") {
  CHECK(Run(R"({range .Store.Book[*]}{.Title}{"\n"}{end})") == "Sayings of the Centurey\nSword of Honour\nMoby Dick\n");
  CHECK(Run(R"({range .Store.Bicycle[*]}[{.Color}:{range .Tags[*]}{@}{end}]{end}done)", kStore, true) ==
        "[red:][green:]done");
  CHECK(Run(R"(a{range .Store.Nothing[*]}{.x}{end}b)", kStore, true) == "ab");
  CHECK(Run("{end}") == "error: not in range, nothing to end");
  CHECK(Run("{foo}") == "error: unrecognized identifier foo");
}

TEST_CASE("evaluation errors and missing keys") {
  CHECK(Run("{.Store.Nope}") == "error: Nope is not found");
  CHECK(Run("{.Store.Nope}", kStore, true) == "");
  CHECK(Run("{.Store.Book[5]}") == "error: array index out of bounds: index 5, length 3");
  CHECK(Run("{.Store.Book[0:7]}") == "error: array index out of bounds: index 6, length 3");
  CHECK(Run("{.Store.Book[2:1]}") == "error: starting index 2 is greater than ending index 1");
  CHECK(Run("{.Store.Book[::0]}") == "error: step must be > 0");
  CHECK(Run("{.Store.Labels[0]}") == "error: map[string]interface {} is not array or slice");
  CHECK(Run("{.Store.Empty[0]}") == "");
  CHECK(Run("{.kind}", Json(nullptr), true) == "");
}

TEST_CASE("parse errors carry client-go's messages") {
  struct Case {
    const char* tmpl;
    const char* want;
  };
  const Case cases[] = {
      {"{.a", "unclosed action"},
      {"{.a\n}", "unclosed action"},
      {"{.a[0}", "unterminated array"},
      {"{#}", "unrecognized character in action: U+0023 '#'"},
      {"{.a[x]}", "invalid array index x"},
      {"{.a[1:2:3:4]}", "invalid array index 1:2:3:4"},
      {"{.a[-]}", "array index - is not a number"},
      {"{....a}", "invalid multiple recursive descent"},
      {"{1.2.3}", "cannot parse number 1.2.3"},
      {R"({"abc})", "unterminated quoted string"},
      {R"({"a\qb"})", R"(unquote string "a\qb" error invalid syntax)"},
      {"{.a[?(@.b}", "unterminated filter"},
      {"{.a[?(@.b)x}", "unclosed array expect ]"},
      {"{.a[?(@.b == 'x]}", "unterminated filter"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.tmpl);
    Result<JsonPath> p = JsonPath::Parse(c.tmpl);
    REQUIRE_FALSE(p.ok());
    CHECK(p.status().message() == c.want);
    CHECK(p.status().code() == StatusCode::kBadRequest);
  }
}

TEST_CASE("long and hostile templates neither crash nor recurse per token") {
  std::string long_path = "{";
  for (int i = 0; i < 100000; ++i) long_path += ".a";
  long_path += "}";
  Result<JsonPath> p = JsonPath::Parse(long_path);
  REQUIRE(p.ok());
  CHECK(p->Execute(kStore, true).value() == "");
  const std::string long_index = "{.a[" + std::string(200000, '1') + "]}";
  CHECK_FALSE(JsonPath::Parse(long_index).ok());
  const std::string long_key = "{['" + std::string(200000, 'k') + "']}";
  CHECK(JsonPath::Parse(long_key).ok());
}

}  // namespace
}  // namespace kube::printers
