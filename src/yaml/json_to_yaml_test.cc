// JsonToYaml: layout, quoting, key order and folding as go-yaml v2 emits them.

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "yaml/yaml.h"

namespace kube::yaml {
namespace {

using Json = nlohmann::json;

// The YAML must also read back as the same JSON.
std::string RoundTrip(const Json& j) {
  std::string yaml = JsonToYaml(j);
  Result<Json> back = YamlToJson(yaml);
  INFO(yaml);
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(*back == j);
  return yaml;
}

std::string Value(const Json& v) {
  return RoundTrip(Json{{"v", v}});
}

TEST_CASE("layout of a Pod") {
  Json pod = Json::parse(R"({"apiVersion":"v1","kind":"Pod",
    "metadata":{"name":"p","labels":{"app":"web"},"annotations":{}},
    "spec":{"containers":[{"name":"c","image":"nginx","args":["sh","-c","echo hi"],
      "ports":[{"containerPort":80}]}],"nodeSelector":null,"tolerations":[]}})");
  CHECK(RoundTrip(pod) ==
        "apiVersion: v1\n"
        "kind: Pod\n"
        "metadata:\n"
        "  annotations: {}\n"
        "  labels:\n"
        "    app: web\n"
        "  name: p\n"
        "spec:\n"
        "  containers:\n"
        "  - args:\n"
        "    - sh\n"
        "    - -c\n"
        "    - echo hi\n"
        "    image: nginx\n"
        "    name: c\n"
        "    ports:\n"
        "    - containerPort: 80\n"
        "  nodeSelector: null\n"
        "  tolerations: []\n");
}

TEST_CASE("nested collections") {
  CHECK(RoundTrip(Json::parse(R"([[1,2],[],{"a":1},{"a":1,"b":{"c":[1]}},["x\ny"]])")) ==
        "- - 1\n"
        "  - 2\n"
        "- []\n"
        "- a: 1\n"
        "- a: 1\n"
        "  b:\n"
        "    c:\n"
        "    - 1\n"
        "- - |-\n"
        "    x\n"
        "    y\n");
  CHECK(RoundTrip(Json::object()) == "{}\n");
  CHECK(RoundTrip(Json::array()) == "[]\n");
  CHECK(RoundTrip(nullptr) == "null\n");
  CHECK(RoundTrip("abc") == "abc\n");
  CHECK(RoundTrip(5) == "5\n");
  CHECK(RoundTrip("a\nb") == "|-\n  a\n  b\n");
  CHECK(RoundTrip(Json{{"a", {{"b", "x\n"}}}}) == "a:\n  b: |\n    x\n");
}

TEST_CASE("collections nested past the block limit are written in flow style") {
  // 70 levels of mappings: the first 64 indented, the rest as JSON flow (which is YAML).
  Json deep = 1;
  for (int i = 0; i < 70; ++i) deep = Json{{"a", deep}};
  const std::string yaml = RoundTrip(deep);
  CHECK(yaml.find(std::string(2 * 63, ' ') + "a: {\"a\":{\"a\":") != std::string::npos);
  // Output stays linear in the input: 2,000 levels would otherwise indent ~4 MB of spaces.
  std::string text;
  for (int i = 0; i < 2000; ++i) text += "{\"k\":";
  text += "[]" + std::string(2000, '}');
  CHECK(JsonToYaml(Json::parse(text)).size() < 40000);
}

TEST_CASE("strings are quoted only when needed") {
  struct Case {
    const char* in;
    const char* out;
  };
  const Case cases[] = {
      {"hello world", "v: hello world\n"},
      {"true", "v: \"true\"\n"},
      {"yes", "v: \"yes\"\n"},
      {"y", "v: \"y\"\n"},
      {"on", "v: \"on\"\n"},
      {"null", "v: \"null\"\n"},
      {"~", "v: \"~\"\n"},
      {"", "v: \"\"\n"},
      {"123", "v: \"123\"\n"},
      {"1.5", "v: \"1.5\"\n"},
      {"0x1F", "v: \"0x1F\"\n"},
      {"1e3", "v: \"1e3\"\n"},
      {"09", "v: \"09\"\n"},
      {"1_000", "v: \"1_000\"\n"},
      {"2024-01-01", "v: \"2024-01-01\"\n"},
      {"2024-01-01T10:00:00Z", "v: \"2024-01-01T10:00:00Z\"\n"},
      {"1:20", "v: \"1:20\"\n"},
      {"12:30", "v: \"12:30\"\n"},
      {"1.2.3", "v: 1.2.3\n"},
      {"a: b", "v: 'a: b'\n"},
      {"key:", "v: 'key:'\n"},
      {"http://x:80/p", "v: http://x:80/p\n"},
      {"#comment", "v: '#comment'\n"},
      {"a #b", "v: 'a #b'\n"},
      {"a#b", "v: a#b\n"},
      {" lead", "v: ' lead'\n"},
      {"trail ", "v: 'trail '\n"},
      {"it's", "v: it's\n"},
      {"'quoted'", "v: '''quoted'''\n"},
      {"-", "v: '-'\n"},
      {"- x", "v: '- x'\n"},
      {"-x", "v: -x\n"},
      {"?", "v: '?'\n"},
      {"---", "v: '---'\n"},
      {"*star", "v: '*star'\n"},
      {"<<", "v: <<\n"},
      {"back\\slash", "v: back\\slash\n"},
      {"tab\there", "v: \"tab\\there\"\n"},
      {"bell\a", "v: \"bell\\a\"\n"},
      {"caf\xc3\xa9", "v: caf\xc3\xa9\n"},
      {"\xf0\x9f\x98\x80", "v: \"\\U0001F600\"\n"},
      {"multi\nline\n", "v: |\n  multi\n  line\n"},
      {"no newline\nat end", "v: |-\n  no newline\n  at end\n"},
      {"two\n\n", "v: |+\n  two\n\n"},
      {" leading\nx", "v: |2-\n   leading\n  x\n"},
      {"space \nbreak", "v: \"space \\nbreak\"\n"},
      {"cr\r\nlf", "v: \"cr\\r\\nlf\"\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.in);
    CHECK(Value(c.in) == c.out);
  }
}

TEST_CASE("numbers, booleans and null") {
  CHECK(Value(1e21) == "v: 1e+21\n");
  CHECK(Value(1234567.5) == "v: 1.2345675e+06\n");
  CHECK(Value(0.5) == "v: 0.5\n");
  CHECK(Value(0.00001) == "v: 1e-05\n");
  CHECK(Value(123456789.0) == "v: 123456789\n");
  CHECK(JsonToYaml(Json{{"v", -0.0}}) == "v: 0\n");
  CHECK(Value(-9223372036854775807LL - 1) == "v: -9223372036854775808\n");
  CHECK(Value(18446744073709551615ULL) == "v: 18446744073709551615\n");
  CHECK(Value(true) == "v: true\n");
  CHECK(Value(nullptr) == "v: null\n");
}

TEST_CASE("keys: go-yaml's order and quoting") {
  Json j = {{"a10", 1}, {"a2", 2}, {"B", 3},    {"b", 4}, {"_x", 5},
            {"1", 6},   {"-", 7},  {"true", 8}, {"", 9},  {"a b", 10}};
  CHECK(RoundTrip(j) ==
        "\"\": 9\n"
        "'-': 7\n"
        "_x: 5\n"
        "\"1\": 6\n"
        "B: 3\n"
        "a b: 10\n"
        "a2: 2\n"
        "a10: 1\n"
        "b: 4\n"
        "\"true\": 8\n");
  // go-yaml would write a plain <<, which reads back as a merge key.
  CHECK(RoundTrip(Json{{"<<", 1}}) == "\"<<\": 1\n");
  // Multi-line keys cannot be simple keys.
  CHECK(RoundTrip(Json{{"x\ny", 1}}) == "? |-\n  x\n  y\n: 1\n");
  const std::string long_key(130, 'k');
  CHECK(RoundTrip(Json{{long_key, {{"a", 1}}}}) == "? " + long_key + "\n: a: 1\n");
}

TEST_CASE("long strings are folded at 80 columns") {
  std::string words;
  for (int i = 0; i < 12; ++i) words += (i ? " " : "") + std::string("abcdefghi");
  CHECK(RoundTrip(Json{{"k", words}}) ==
        "k: abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi\n"
        "  abcdefghi abcdefghi abcdefghi abcdefghi\n");
  const std::string quoted = "#" + words;
  CHECK(RoundTrip(Json{{"k", quoted}}) ==
        "k: '#abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi abcdefghi\n"
        "  abcdefghi abcdefghi abcdefghi abcdefghi'\n");
  // A single long word cannot be folded.
  const std::string word(100, 'w');
  CHECK(RoundTrip(Json{{"k", word}}) == "k: " + word + "\n");
}

TEST_CASE("invalid UTF-8 is replaced") {
  CHECK(JsonToYaml(Json{{"v", std::string("a\xff"
                                          "b")}}) ==
        "v: a\xef\xbf\xbd"
        "b\n");
}

}  // namespace
}  // namespace kube::yaml
