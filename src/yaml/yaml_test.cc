// YamlToJson / YamlToJsonStrict: manifests, scalar typing, keys, anchors and merges, errors, and a
// deterministic fuzz loop. JsonToYaml is covered in json_to_yaml_test.cc.

#include "yaml/yaml.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace kube::yaml {
namespace {

using Json = nlohmann::json;

Json Ok(std::string_view yaml) {
  Result<Json> r = YamlToJson(yaml);
  INFO(yaml);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

std::string Err(std::string_view yaml, bool strict = false) {
  Result<Json> r = strict ? YamlToJsonStrict(yaml) : YamlToJson(yaml);
  INFO(yaml);
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kBadRequest);
  return r.status().message();
}

TEST_CASE("a Deployment manifest") {
  const char* yaml = R"y(
# a comment
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: {app: web, tier: "frontend"}
  annotations:
    deployment.kubernetes.io/revision: "3"
spec:
  replicas: 3
  paused: false
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.25
        args: ["--port", "8080"]
        ports:
        - containerPort: 80
          protocol: TCP
        resources:
          limits: {cpu: 500m, memory: 128Mi}
        env:
        - name: EMPTY
        - name: RATIO
          value: "0.5"
)y";
  CHECK(Ok(yaml) == Json::parse(R"j({
    "apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","labels":{"app":"web","tier":"frontend"},
                "annotations":{"deployment.kubernetes.io/revision":"3"}},
    "spec":{"replicas":3,"paused":false,"selector":{"matchLabels":{"app":"web"}},
      "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{
        "name":"nginx","image":"nginx:1.25","args":["--port","8080"],
        "ports":[{"containerPort":80,"protocol":"TCP"}],
        "resources":{"limits":{"cpu":"500m","memory":"128Mi"}},
        "env":[{"name":"EMPTY"},{"name":"RATIO","value":"0.5"}]}]}}}})j"));
  CHECK(Ok(yaml)["spec"]["replicas"].is_number_integer());
}

TEST_CASE("a ConfigMap with multi-line strings and quoted numbers") {
  const char* yaml =
      "apiVersion: v1\n"
      "kind: ConfigMap\n"
      "metadata:\n  name: cfg\n"
      "data:\n"
      "  port: \"8080\"\n"
      "  single: '007'\n"
      "  script: |\n    #!/bin/sh\n    echo hi\n\n    exit 0\n"
      "  stripped: |-\n    line1\n    line2\n"
      "  kept: |+\n    x\n\n"
      "  folded: >\n    a\n    b\n\n    c\n"
      "  indented: |2\n     lead\n    x\n";
  Json j = Ok(yaml);
  CHECK(j["data"]["port"] == "8080");
  CHECK(j["data"]["single"] == "007");
  CHECK(j["data"]["script"] == "#!/bin/sh\necho hi\n\nexit 0\n");
  CHECK(j["data"]["stripped"] == "line1\nline2");
  CHECK(j["data"]["kept"] == "x\n\n");
  CHECK(j["data"]["folded"] == "a b\nc\n");
  CHECK(j["data"]["indented"] == " lead\nx\n");
}

TEST_CASE("scalar typing follows go-yaml v2") {
  struct Case {
    const char* yaml;
    const char* json;
  };
  const Case cases[] = {
      {"true", "true"},
      {"True", "true"},
      {"TRUE", "true"},
      {"yes", "true"},
      {"Yes", "true"},
      {"YES", "true"},
      {"y", "true"},
      {"Y", "true"},
      {"on", "true"},
      {"ON", "true"},
      {"false", "false"},
      {"no", "false"},
      {"No", "false"},
      {"n", "false"},
      {"off", "false"},
      {"Off", "false"},
      {"tRue", "\"tRue\""},
      {"yEs", "\"yEs\""},
      {"null", "null"},
      {"Null", "null"},
      {"NULL", "null"},
      {"~", "null"},
      {"", "null"},
      {"nUll", "\"nUll\""},
      {"'null'", "\"null\""},
      {"0", "0"},
      {"123", "123"},
      {"-17", "-17"},
      {"+5", "5"},
      {"1_000", "1000"},
      {"0777", "511"},
      {"0o17", "15"},
      {"0x1F", "31"},
      {"-0x10", "-16"},
      {"0b101", "5"},
      {"09", "9"},
      {"0x", "\"0x\""},
      {"0b2", "\"0b2\""},
      {"_1", "\"_1\""},
      {"1.5", "1.5"},
      {"-2.25", "-2.25"},
      {".5", "0.5"},
      {"-.5", "-0.5"},
      {"+.5", "0.5"},
      {"1.", "1"},
      {"1.0", "1"},
      {"1e3", "1000"},
      {"6.02e23", "6.02e23"},
      {"1e-7", "1e-07"},
      {"1e400", "\"1e400\""},
      {"1e", "\"1e\""},
      {"1.2.3", "\"1.2.3\""},
      {"+", "\"+\""},
      {".", "\".\""},
      {"12:30", "\"12:30\""},
      {"2024-01-01", "\"2024-01-01\""},
      {"2024-01-01T10:00:00Z", "\"2024-01-01T10:00:00Z\""},
      {"1.2.3.4", "\"1.2.3.4\""},
      {"'true'", "\"true\""},
      {"\"123\"", "\"123\""},
      {"'01'", "\"01\""},
      {"!!str 123", "\"123\""},
      {"!!str", "\"\""},
      {"!!int \"42\"", "42"},
      {"!!float 1", "1"},
      {"!!float '2.5'", "2.5"},
      {"!!bool yes", "true"},
      {"!!null ~", "null"},
      {"!!timestamp 2001-12-14", "\"2001-12-14\""},
      {"!!binary aGVsbG8=", "\"hello\""},
      {"!custom value", "\"value\""},
      {"! 12", "\"12\""},
      {"9223372036854775807", "9223372036854775807"},
      {"-9223372036854775808", "-9223372036854775808"},
      {"9223372036854775808", "9223372036854775808"},
      {"18446744073709551615", "18446744073709551615"},
      {"18446744073709551616", "1.8446744073709552e19"},
      {"0xFFFFFFFFFFFFFFFFFF", "4.722366482869645e21"},
      {"[1, two, 3.5]", "[1,\"two\",3.5]"},
      {"{a: b}", "{\"a\":\"b\"}"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.yaml);
    CHECK(Ok(std::string("v: ") + c.yaml) == Json{{"v", Json::parse(c.json)}});
  }
  CHECK(Ok("v: !!binary |\n  aGVsbG8=\n")["v"] == "hello");
  CHECK(Ok("v: 123")["v"].is_number_integer());
  CHECK(Ok("v: 1e3")["v"].is_number_integer());
  CHECK(Ok("v: 9223372036854775808")["v"].is_number_unsigned());
  CHECK(Ok("v: 1.5")["v"].is_number_float());
}

TEST_CASE("scalar typing errors") {
  CHECK(Err("v: !!int abc") ==
        "error converting YAML to JSON: yaml: cannot decode !!str `abc` as a !!int");
  CHECK(Err("v: !!float x") ==
        "error converting YAML to JSON: yaml: cannot decode !!str `x` as a !!float");
  CHECK(Err("v: !!null 1") ==
        "error converting YAML to JSON: yaml: cannot decode !!int `1` as a !!null");
  CHECK(Err("v: !!bool 1.5") ==
        "error converting YAML to JSON: yaml: cannot decode !!float `1.5` as a !!bool");
  CHECK(Err("v: !!binary 'a*b='") ==
        "error converting YAML to JSON: yaml: !!binary value contains invalid base64 data");
  CHECK(Err("v: .nan") == "error converting YAML to JSON: json: unsupported value: NaN");
  CHECK(Err("v: [-.inf]") == "error converting YAML to JSON: json: unsupported value: -Inf");
  CHECK(Err("v: .Inf") == "error converting YAML to JSON: json: unsupported value: +Inf");
}

TEST_CASE("int64-sized numbers are preserved") {
  Json j =
      Ok("metadata:\n  resourceVersion: \"9007199254740993\"\n  generation: 9007199254740993\n"
         "spec:\n  values: [9223372036854775807, -9223372036854775807, 4611686018427387905]\n");
  CHECK(j["metadata"]["generation"].get<int64_t>() == 9007199254740993LL);
  CHECK(j["metadata"]["resourceVersion"] == "9007199254740993");
  CHECK(j["spec"]["values"][0].get<int64_t>() == 9223372036854775807LL);
  CHECK(j["spec"]["values"][1].get<int64_t>() == -9223372036854775807LL);
  CHECK(j["spec"]["values"][2].get<int64_t>() == 4611686018427387905LL);
  CHECK(j.dump() ==
        R"({"metadata":{"generation":9007199254740993,"resourceVersion":"9007199254740993"},)"
        R"("spec":{"values":[9223372036854775807,-9223372036854775807,4611686018427387905]}})");
  // JSON is YAML: a JSON body goes through unchanged.
  const std::string json = R"({"a":[1,2.5,"x",true,null,{"b":18446744073709551615}]})";
  CHECK(Ok(json) == Json::parse(json));
}

TEST_CASE("map keys become strings") {
  CHECK(Ok("1: a\ntrue: b\nyes: c\n1.5: d\n0.1: e\n-3: f\n0x10: g\n'k': h") == Json{{"1", "a"},
                                                                                    {"true", "c"},
                                                                                    {"1.5", "d"},
                                                                                    {"0.1", "e"},
                                                                                    {"-3", "f"},
                                                                                    {"16", "g"},
                                                                                    {"k", "h"}});
  CHECK(Ok("3.14159265358979: pi")["3.1415927"] == "pi");
  CHECK(Ok("1e20: x") == Json{{"1e+20", "x"}});
  // Float keys are formatted as float32: beyond its range they are infinities.
  CHECK(Ok("1e39: x\n-1e39: z") == Json{{".inf", "x"}, {"-.inf", "z"}});
  CHECK(Ok("3.4028235e38: x") == Json{{"3.4028235e+38", "x"}});
  CHECK(Err("~: x").find("error converting YAML to JSON: unsupported map key of type: "
                         "%!s(<nil>), key: <nil>, value: \"x\"") == 0);
  CHECK(Err("18446744073709551615: x")
            .find("unsupported map key of type: uint64, key: 0xffffffffffffffff") !=
        std::string::npos);
  CHECK(Err("? [a]\n: x") ==
        "error converting YAML to JSON: yaml: invalid map key: []interface {}{\"a\"}");
}

TEST_CASE("anchors, aliases and merge keys") {
  Json j = Ok(R"y(
base: &base
  image: nginx
  ports: [80]
copy: *base
override:
  <<: *base
  image: custom
multi:
  <<: [*base, {image: ignored, extra: 1}]
before:
  image: replaced
  <<: *base
list: &l [1, 2]
refs: [*l, *l]
scalar: &s hello
again: *s
)y");
  const Json base = {{"image", "nginx"}, {"ports", {80}}};
  CHECK(j["copy"] == base);
  CHECK(j["override"] == Json{{"image", "custom"}, {"ports", {80}}});
  CHECK(j["multi"] == Json{{"image", "nginx"}, {"ports", {80}}, {"extra", 1}});
  // go-yaml v2 merges in place, so the merge overrides keys set before it.
  CHECK(j["before"] == base);
  CHECK(j["refs"] == Json::parse("[[1,2],[1,2]]"));
  CHECK(j["again"] == "hello");
  CHECK(Ok("'<<': {a: 1}") == Json{{"<<", {{"a", 1}}}});
  CHECK(Ok("v: <<") == Json{{"v", "<<"}});
  CHECK(Err("v: -") ==
        "error converting YAML to JSON: yaml: line 1: block sequence entries are "
        "not allowed in this context");

  CHECK(Err("a: *nope") == "error converting YAML to JSON: yaml: unknown anchor 'nope' referenced");
  CHECK(Err("a: {<<: 1}") ==
        "error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the "
        "value");
  CHECK(Err("x: &x [1]\na: {<<: [*x]}") ==
        "error converting YAML to JSON: yaml: map merge requires map or sequence of maps as the "
        "value");
  CHECK(Err("a: &a [*a]") ==
        "error converting YAML to JSON: yaml: anchor 'a' value contains itself");
}

TEST_CASE("alias bombs are refused") {
  std::string yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i < 9; ++i) {
    yaml += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int k = 0; k < 10; ++k) yaml += (k ? ", *a" : "*a") + std::to_string(i - 1);
    yaml += "]\n";
  }
  CHECK(Err(yaml) == "error converting YAML to JSON: yaml: document contains excessive aliasing");
}

TEST_CASE("duplicate keys: last wins, strict mode errors") {
  CHECK(Ok("a: 1\nb: 2\na: 3") == Json{{"a", 3}, {"b", 2}});
  CHECK(Err("a: 1\nb: 2\na: 3\nb:\n  - x\n", /*strict=*/true) ==
        "error converting YAML to JSON: yaml: unmarshal errors:\n"
        "  line 3: key \"a\" already set in map\n"
        "  line 5: key \"b\" already set in map");
  CHECK(
      Err("m:\n  1: x\n  1: y\n", true) ==
      "error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key 1 already set in map");
  Result<Json> ok = YamlToJsonStrict("a: 1\nb: {a: 2}\n");
  REQUIRE(ok.ok());
  CHECK(*ok == Json{{"a", 1}, {"b", {{"a", 2}}}});
}

TEST_CASE("malformed YAML is a BadRequest") {
  const std::string prefix = "error converting YAML to JSON: yaml: ";
  CHECK(Err("a: b: c") == prefix + "line 1: mapping values are not allowed in this context");
  CHECK(Err("a: [1, 2") == prefix + "line 1: did not find expected ',' or ']'");
  CHECK(Err("a: {x: 1") == prefix + "line 1: did not find expected ',' or '}'");
  CHECK(Err("a: \"unterminated") == prefix + "line 1: found unexpected end of stream");
  CHECK(Err("a:\n  - b\n c: d").find(prefix + "line 3: ") == 0);
  CHECK(Err("a: \"\\q\"") ==
        prefix + "line 1: found unknown escape character while parsing a quoted scalar");
  CHECK(Err("a: \xff\xfe\n") == prefix + "invalid leading UTF-8 octet");
  CHECK(Err("a: \xc3\n") == prefix + "invalid trailing UTF-8 octet");
  CHECK(Err(std::string("a: b\x01")) == prefix + "control characters are not allowed");
  CHECK(Err(std::string("a: \0", 4)) == prefix + "control characters are not allowed");
  CHECK(Err("\ta: 1").find(prefix) == 0);
}

TEST_CASE("documents") {
  CHECK(Ok("").is_null());
  CHECK(Ok("# only a comment\n").is_null());
  CHECK(Ok("---\n").is_null());
  CHECK(Ok("---\na: 1\n...\n") == Json{{"a", 1}});
  CHECK(Ok("a: 1\n---\n") == Json{{"a", 1}});
  CHECK(Ok("- a\n- b") == Json::parse(R"(["a","b"])"));
  CHECK(Ok("just a string") == "just a string");
  CHECK(Err("a: 1\n---\nb: 2\n") ==
        "error converting YAML to JSON: yaml: line 3: expected a single document in the stream, "
        "found more");
}

// Deterministic mutations of valid YAML: no exception may escape, failures must be BadRequest,
// and whatever converts must survive JSON serialisation and a JsonToYaml round trip.
TEST_CASE("fuzz: mutated YAML never throws") {
  const std::vector<std::string> seeds = {
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {a: b}\nspec:\n  containers:\n"
      "  - name: c\n    image: \"busybox\"\n    args: [sh, -c, 'echo hi']\n",
      "a: &x {b: [1, 2.5, yes, ~]}\nc: *x\nd:\n  <<: *x\n  e: |\n    text\n    more\n",
      "- !!binary aGk=\n- !!int '3'\n- \"q\\tuote\"\n- >-\n  folded\n  text\n- 0x1F\n- "
      "2024-01-01\n",
      "{\"json\": [1, {\"n\": null}], \"big\": 18446744073709551615}",
      "k: v\n? complex\n: value\n'<<': 1\n\"x\": !custom y\n",
  };
  const std::string alphabet = ":-[]{}&*!|>'\"#%@`,?~<=\t\n \\0123456789abcxyz\xc3\xa9\xff";
  std::mt19937 rng(424242);
  int converted = 0;
  for (int iter = 0; iter < 6000; ++iter) {
    std::string s = seeds[rng() % seeds.size()];
    for (int m = 0, n = 1 + static_cast<int>(rng() % 6); m < n; ++m) {
      const size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 4) {
        case 0:
          s.insert(s.begin() + static_cast<long>(pos), c);
          break;
        case 1:
          if (pos < s.size()) s.erase(pos, 1 + rng() % 3);
          break;
        case 2:
          if (pos < s.size()) s[pos] = c;
          break;
        default:
          if (pos < s.size()) s.insert(pos, s.substr(pos, rng() % 20));
          break;
      }
    }
    CAPTURE(s);
    for (bool strict : {false, true}) {
      Result<Json> r = Status::Internal("unset");
      CHECK_NOTHROW(r = strict ? YamlToJsonStrict(s) : YamlToJson(s));
      if (!r.ok()) {
        CHECK(r.status().code() == StatusCode::kBadRequest);
        CHECK(r.status().message().rfind("error converting YAML to JSON: ", 0) == 0);
        continue;
      }
      ++converted;
      std::string dumped, yaml;
      CHECK_NOTHROW(dumped = r->dump());
      CHECK_NOTHROW(yaml = JsonToYaml(*r));
      Result<Json> back = YamlToJson(yaml);
      CAPTURE(yaml);
      REQUIRE(back.ok());
      CHECK(*back == *r);
    }
  }
  CHECK(converted > 1000);
}

}  // namespace
}  // namespace kube::yaml
