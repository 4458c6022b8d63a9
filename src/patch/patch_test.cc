// JSON patch and JSON merge patch, plus the robustness (fuzz) checks of all three patch types.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "patch/json_patch.h"
#include "patch/merge_patch.h"
#include "patch/strategic_merge_patch.h"
#include "patch/test_schema.h"

namespace kube::patch {
namespace {

using nlohmann::json;

const json kDoc = json::parse(R"({
  "metadata": {"name": "web", "labels": {"app": "web", "tier": "front"}},
  "spec": {"replicas": 2, "ports": [80, 443], "a/b": 1, "m~n": 2, "nothing": null}
})");

json MustJsonPatch(const json& doc, std::string_view body) {
  Result<json> r = ApplyJsonPatch(doc, body);
  REQUIRE_MESSAGE(r.ok(), r.status().ToString());
  return *r;
}

void CheckStatus(const Result<json>& r, StatusCode code, std::string_view message_prefix = "") {
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == code);
  CHECK_MESSAGE(r.status().message().rfind(message_prefix, 0) == 0, r.status().message());
}

constexpr std::string_view k422 = "the server rejected our request due to an error in our request";

TEST_CASE("json patch: add") {
  json out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/metadata/labels/env","value":"prod"}])");
  CHECK(out["metadata"]["labels"]["env"] == "prod");
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/0","value":8080}])");
  CHECK(out["spec"]["ports"] == json({8080, 80, 443}));
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/-","value":9}])");
  CHECK(out["spec"]["ports"] == json({80, 443, 9}));
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/2","value":9}])");
  CHECK(out["spec"]["ports"] == json({80, 443, 9}));
  // Negative indices count from the end; for add, -1 appends.
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/-1","value":9}])");
  CHECK(out["spec"]["ports"] == json({80, 443, 9}));
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/-3","value":9}])");
  CHECK(out["spec"]["ports"] == json({9, 80, 443}));
  // Replaces an existing member; a missing value means null.
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/replicas"}])");
  CHECK(out["spec"]["replicas"].is_null());
  // ~1 and ~0 escape '/' and '~'.
  out = MustJsonPatch(kDoc, R"([{"op":"add","path":"/spec/a~1b","value":5},
                                {"op":"add","path":"/spec/m~0n","value":6}])");
  CHECK(out["spec"]["a/b"] == 5);
  CHECK(out["spec"]["m~n"] == 6);
  CHECK(kDoc["spec"]["a/b"] == 1);  // the input is never modified

  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"/missing/x","value":1}])"),
              StatusCode::kInvalid, k422);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/3","value":1}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/-4","value":1}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"/spec/ports/x","value":1}])"),
              StatusCode::kInvalid);
  // Through a null or a scalar.
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"/spec/nothing/x","value":1}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"/spec/replicas/x","value":1}])"),
              StatusCode::kInvalid);
  // The library cannot add at the root.
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":"","value":{}}])"),
              StatusCode::kInvalid);
}

TEST_CASE("json patch: remove") {
  json out = MustJsonPatch(kDoc, R"([{"op":"remove","path":"/metadata/labels/tier"}])");
  CHECK(out["metadata"]["labels"] == json({{"app", "web"}}));
  out = MustJsonPatch(kDoc, R"([{"op":"remove","path":"/spec/ports/-1"}])");
  CHECK(out["spec"]["ports"] == json({80}));
  out = MustJsonPatch(kDoc, R"([{"op":"remove","path":"/spec/nothing"}])");
  CHECK_FALSE(out["spec"].contains("nothing"));
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"remove","path":"/metadata/labels/nope"}])"),
              StatusCode::kInvalid, k422);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"remove","path":"/spec/ports/2"}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"remove","path":"/spec/ports/-"}])"),
              StatusCode::kInvalid);
}

TEST_CASE("json patch: replace") {
  json out = MustJsonPatch(kDoc, R"([{"op":"replace","path":"/spec/replicas","value":5}])");
  CHECK(out["spec"]["replicas"] == 5);
  out = MustJsonPatch(kDoc, R"([{"op":"replace","path":"/spec/ports/-2","value":1}])");
  CHECK(out["spec"]["ports"] == json({1, 443}));
  // evanphx/json-patch v4 (and so kube) adds a missing object member instead of failing.
  out = MustJsonPatch(kDoc, R"([{"op":"replace","path":"/spec/paused","value":true}])");
  CHECK(out["spec"]["paused"] == true);
  out = MustJsonPatch(kDoc, R"([{"op":"replace","path":"","value":{"x":1}}])");
  CHECK(out == json({{"x", 1}}));
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"replace","path":"/spec/ports/2","value":1}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"replace","path":"","value":5}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"replace","path":"/nope/x","value":5}])"),
              StatusCode::kInvalid);
  // An array where the object was: kube cannot decode it into the kind.
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"replace","path":"","value":[1]}])"),
              StatusCode::kInvalid, " \"\" is invalid: patch");
}

TEST_CASE("json patch: move and copy") {
  json out = MustJsonPatch(kDoc, R"([{"op":"move","from":"/metadata/labels/tier",)"
                                 R"("path":"/spec/tier"}])");
  CHECK(out["spec"]["tier"] == "front");
  CHECK_FALSE(out["metadata"]["labels"].contains("tier"));
  out = MustJsonPatch(kDoc, R"([{"op":"move","from":"/spec/ports/0","path":"/spec/ports/-"}])");
  CHECK(out["spec"]["ports"] == json({443, 80}));
  out = MustJsonPatch(kDoc, R"([{"op":"copy","from":"/metadata/labels","path":"/spec/labels"}])");
  CHECK(out["spec"]["labels"] == kDoc["metadata"]["labels"]);
  CHECK(out["metadata"]["labels"] == kDoc["metadata"]["labels"]);
  // Copying a missing member copies null (library quirk).
  out = MustJsonPatch(kDoc, R"([{"op":"copy","from":"/spec/nope","path":"/spec/copied"}])");
  CHECK(out["spec"].contains("copied"));
  CHECK(out["spec"]["copied"].is_null());

  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"move","from":"/spec/nope","path":"/spec/x"}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"move","path":"/spec/x"}])"), StatusCode::kInvalid);
  // Into its own child: the source is gone by then.
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"move","from":"/spec","path":"/spec/inner"}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"copy","from":"/spec/ports/7","path":"/spec/x"}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"copy","from":"/spec","path":"/nope/x"}])"),
              StatusCode::kInvalid);
}

TEST_CASE("json patch: copy size limit") {
  // Each copy doubles the array; kube stops at 3 MiB of copied bytes.
  json doc = {{"a", json::array()}};
  doc["a"].push_back(std::string(1000, 'x'));
  std::string body = "[";
  for (int i = 0; i < 15; ++i) {
    body += std::string(i ? "," : "") + R"({"op":"copy","from":"/a","path":"/b"},)" +
            R"({"op":"move","from":"/b","path":"/a/-"},)" +
            R"({"op":"test","path":"/a/0","value":")" + std::string(1000, 'x') + "\"}";
  }
  body += "]";
  CheckStatus(ApplyJsonPatch(doc, body), StatusCode::kInvalid, k422);
}

TEST_CASE("json patch: test") {
  MustJsonPatch(kDoc, R"([{"op":"test","path":"/spec/replicas","value":2}])");
  MustJsonPatch(kDoc, R"([{"op":"test","path":"/metadata/labels","value":{"tier":"front",)"
                      R"("app":"web"}}])");
  MustJsonPatch(kDoc, R"([{"op":"test","path":"/spec/ports/-1","value":443}])");
  // Missing and null members pass against null or an absent value.
  MustJsonPatch(kDoc, R"([{"op":"test","path":"/spec/nope","value":null}])");
  MustJsonPatch(kDoc, R"([{"op":"test","path":"/spec/nothing"}])");
  MustJsonPatch(kDoc, R"([{"op":"test","path":"","value":)" + kDoc.dump() + "}]");

  Result<json> r = ApplyJsonPatch(kDoc, R"([{"op":"replace","path":"/spec/replicas","value":3},
                                            {"op":"test","path":"/spec/replicas","value":2}])");
  CheckStatus(r, StatusCode::kInvalid, k422);
  CHECK(r.status().HttpCode() == 422);
  CHECK(r.status().Reason() == "Invalid");
  CHECK(r.status().message() == k422);
  // The library compares scalars by their text.
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"test","path":"/spec/replicas","value":2.0}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"test","path":"/spec/replicas","value":"2"}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"test","path":"/spec/replicas"}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"test","path":"/spec/nope","value":1}])"),
              StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"test","path":"/metadata/labels",)"
                                   R"("value":{"app":"web"}}])"),
              StatusCode::kInvalid);
}

TEST_CASE("json patch: malformed bodies and bad operations") {
  CheckStatus(ApplyJsonPatch(kDoc, "not json"), StatusCode::kBadRequest, "invalid JSON patch");
  CheckStatus(ApplyJsonPatch(kDoc, ""), StatusCode::kBadRequest, "invalid JSON patch");
  CheckStatus(ApplyJsonPatch(kDoc, "[{}] x"), StatusCode::kBadRequest, "invalid JSON patch");
  CheckStatus(ApplyJsonPatch(kDoc, R"({"op":"add"})"), StatusCode::kBadRequest,
              "error decoding patch: json: cannot unmarshal object into Go value of type "
              "[]handlers.jsonPatchOp");
  CheckStatus(ApplyJsonPatch(kDoc, "[1]"), StatusCode::kBadRequest,
              "error decoding patch: json: cannot unmarshal number into Go value of type "
              "handlers.jsonPatchOp");
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","path":5}])"), StatusCode::kBadRequest,
              "error decoding patch: json: cannot unmarshal number into Go struct field "
              "jsonPatchOp.path of type string");
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":["add"],"path":"/x"}])"), StatusCode::kBadRequest);
  // Well-formed but unappliable: 422.
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"frobnicate","path":"/x"}])"), StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"path":"/x","value":1}])"), StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"add","value":1}])"), StatusCode::kInvalid);
  CheckStatus(ApplyJsonPatch(kDoc, R"([null])"), StatusCode::kInvalid);
  // Inputs on which evanphx/json-patch dereferences nil (kube answers 500).
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"replace","path":""}])"), StatusCode::kInternalError);
  CheckStatus(ApplyJsonPatch(kDoc, R"([{"op":"test","path":""}])"), StatusCode::kInternalError);
  CheckStatus(ApplyJsonPatch(json::parse(R"({"a":[null]})"), R"([{"op":"test","path":"/a","value":[null]}])"),
              StatusCode::kInternalError);
  // "null" and [] change nothing.
  CHECK(MustJsonPatch(kDoc, "null") == kDoc);
  CHECK(MustJsonPatch(kDoc, "[]") == kDoc);

  std::string many = "[";
  for (int i = 0; i <= 10000; ++i) many += std::string(i ? "," : "") + R"({"op":"test","path":"/x"})";
  many += "]";
  Result<json> r = ApplyJsonPatch(kDoc, many);
  CheckStatus(r, StatusCode::kRequestEntityTooLarge,
              "The allowed maximum operations in a JSON patch is 10000, got 10001");
  CHECK(r.status().HttpCode() == 413);

  // Absurd nesting is refused up front instead of exhausting the stack.
  std::string deep = "[{\"op\":\"add\",\"path\":\"/x\",\"value\":" + std::string(5000, '[') +
                     std::string(5000, ']') + "}]";
  CheckStatus(ApplyJsonPatch(kDoc, deep), StatusCode::kBadRequest, "invalid JSON patch");
}

TEST_CASE("merge patch: merges objects, null deletes, arrays replace") {
  auto apply = [](std::string_view body) {
    Result<json> r = ApplyMergePatch(kDoc, body);
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    return *r;
  };
  json out = apply(R"({"metadata":{"labels":{"tier":null,"env":"prod"}},"spec":{"replicas":3}})");
  CHECK(out["metadata"]["labels"] == json({{"app", "web"}, {"env", "prod"}}));
  CHECK(out["metadata"]["name"] == "web");
  CHECK(out["spec"]["replicas"] == 3);
  out = apply(R"({"spec":{"ports":[8080]}})");
  CHECK(out["spec"]["ports"] == json({8080}));
  out = apply(R"({"spec":null})");
  CHECK_FALSE(out.contains("spec"));
  // New subtrees lose their nulls, also inside arrays of objects; null items stay.
  out = apply(R"({"status":{"a":null,"b":{"c":null,"d":1},"list":[{"x":null,"y":2},null]}})");
  CHECK(out["status"] == json::parse(R"({"b":{"d":1},"list":[{"y":2},null]})"));
  // A scalar replaced by an object gets the pruned object.
  out = apply(R"({"spec":{"replicas":{"n":null,"m":1}}})");
  CHECK(out["spec"]["replicas"] == json({{"m", 1}}));
  // An object replaced by an array keeps the array as sent (library quirk).
  out = apply(R"({"metadata":{"labels":[{"k":null}]}})");
  CHECK(out["metadata"]["labels"] == json::parse(R"([{"k":null}])"));
  // Deleting something absent is fine.
  out = apply(R"({"nope":null})");
  CHECK(out == kDoc);
}

TEST_CASE("merge patch: malformed bodies") {
  CheckStatus(ApplyMergePatch(kDoc, "{"), StatusCode::kBadRequest, "invalid JSON patch");
  CheckStatus(ApplyMergePatch(kDoc, "[1,2]"), StatusCode::kBadRequest,
              "error decoding patch: json: cannot unmarshal array into Go value of type "
              "map[string]interface {}");
  CheckStatus(ApplyMergePatch(kDoc, "\"x\""), StatusCode::kBadRequest,
              "error decoding patch: json: cannot unmarshal string into Go value of type");
  CheckStatus(ApplyMergePatch(kDoc, "7"), StatusCode::kBadRequest,
              "error decoding patch: json: cannot unmarshal number");
  CheckStatus(ApplyMergePatch(kDoc, "null"), StatusCode::kBadRequest, "Invalid JSON Patch");
}

// Deterministic fuzzing: random edits of valid patches must never throw or crash, and whatever
// is accepted must still be an object.
std::string Mutate(std::string s, std::mt19937& rng) {
  static const std::vector<std::string> kTokens = {
      "{", "}", "[", "]", ",", ":", "\"", "null", "0", "-1", "1e400", "\"$patch\"",
      "\"delete\"", "\"replace\"", "\"merge\"", "\"$retainKeys\"", "\"$setElementOrder/containers\"",
      "\"$deleteFromPrimitiveList/finalizers\"", "[[1]]", "{\"$patch\":\"delete\"}", "\"name\"",
      "\"/\"", "\"~1\"", "\"-\"", "true", "\"op\"", "\"path\"", "\\u0000", "\xff"};
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < edits && !s.empty(); ++i) {
    size_t pos = rng() % s.size();
    switch (rng() % 4) {
      case 0: s.erase(pos, 1 + rng() % 8); break;
      case 1: s.insert(pos, kTokens[rng() % kTokens.size()]); break;
      case 2: s[pos] = "{}[],:\"0an$/-"[rng() % 13]; break;
      default: {  // duplicate a slice of the body elsewhere
        size_t len = 1 + rng() % 30;
        s.insert(rng() % s.size(), s.substr(pos, len));
      }
    }
  }
  return s;
}

// Structural edits keep the body valid JSON so that the merge code itself gets exercised.
void MutateValue(json& v, std::mt19937& rng, int depth = 0) {
  static const std::vector<json> kValues = {
      nullptr, 0, -1, 1.5, "x", true, json::array(), json::object(), json::array({json::array({1})}),
      json::array({nullptr}), json::parse(R"({"$patch":"delete"})"), json::parse(R"({"$patch":"merge"})"),
      json::parse(R"([{"name":"nginx"},{"name":"x","$patch":"delete"}])"), json::parse(R"([1,"a",1.5])"),
      json::parse(R"({"$retainKeys":["name"],"name":"n"})"), json::parse(R"([{"$patch":"replace"}])"),
      json::parse(R"({"op":"add","path":"/-","value":1})"), "replace", "delete", "/spec/x", "-"};
  bool container = (v.is_object() || v.is_array()) && !v.empty();
  if (!container || depth > 6 || rng() % 4 == 0) {
    v = kValues[rng() % kValues.size()];
    return;
  }
  auto it = v.begin();
  std::advance(it, static_cast<long>(rng() % v.size()));
  switch (rng() % 5) {
    case 0:
      if (v.is_object()) v.erase(it.key()); else v.erase(v.begin() + (it - v.begin()));
      break;
    case 1:
      if (v.is_object()) v["$setElementOrder/" + it.key()] = kValues[rng() % kValues.size()];
      else v.push_back(*it);
      break;
    default:
      MutateValue(*it, rng, depth + 1);
  }
}

TEST_CASE("fuzz: random edits of valid patches never throw") {
  testing::FakeSchema deployment(testing::DeploymentDesc());
  json doc = json::parse(R"({
    "apiVersion":"apps/v1","kind":"Deployment",
    "metadata":{"name":"web","labels":{"app":"web"},"finalizers":["a","b"]},
    "spec":{"replicas":2,"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxSurge":1}},
      "template":{"spec":{"containers":[
        {"name":"nginx","image":"nginx:1.25","ports":[{"containerPort":80}],"env":[{"name":"A","value":"1"}]},
        {"name":"sidecar","image":"busybox","args":["sleep","1d"]}],
        "volumes":[{"name":"data","emptyDir":{}}],"tolerations":[{"key":"k","effect":"NoSchedule"}]}}}})");
  const std::vector<std::string> smp_seeds = {
      R"({"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"},)"
      R"({"name":"sidecar"}],"containers":[{"image":"nginx:1.26","name":"nginx"}]}}}})",
      R"({"spec":{"template":{"spec":{"containers":[{"name":"sidecar","$patch":"delete"},)"
      R"({"name":"new","env":[{"name":"B","value":"2"}]}]}}}})",
      R"({"metadata":{"$deleteFromPrimitiveList/finalizers":["a"],"finalizers":["c"],)"
      R"("labels":{"$patch":"replace","x":"y"}}})",
      R"({"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"},)"
      R"("template":{"spec":{"volumes":[{"name":"data","$retainKeys":["name","configMap"],)"
      R"("configMap":{"name":"cm"}}]}}}})",
      R"({"spec":{"template":{"spec":{"containers":[{"name":"nginx","ports":[{"containerPort":443},)"
      R"({"$patch":"replace"}]}],"tolerations":null}}}})"};
  const std::vector<std::string> json_seeds = {
      R"([{"op":"add","path":"/metadata/labels/x","value":"1"},{"op":"remove",)"
      R"("path":"/spec/replicas"}])",
      R"([{"op":"move","from":"/metadata/finalizers/0","path":"/metadata/finalizers/-"},)"
      R"({"op":"test","path":"/kind","value":"Deployment"}])",
      R"([{"op":"copy","from":"/spec/template","path":"/spec/t2"},{"op":"replace",)"
      R"("path":"/spec/t2/spec/containers/-1/name","value":"z"}])"};
  const std::vector<std::string> merge_seeds = {
      R"({"metadata":{"labels":{"app":null,"x":"y"}},)"
      R"("spec":{"template":{"spec":{"containers":[{"name":"only"}]}}}})"};

  std::mt19937 rng(20240611);
  int accepted = 0, rejected = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    for (const std::string& seed : smp_seeds) {
      std::string body;
      if (iter % 2 == 0) {
        body = Mutate(seed, rng);
      } else {
        json structured = json::parse(seed);
        for (int n = 1 + static_cast<int>(rng() % 3); n > 0; --n) MutateValue(structured, rng);
        body = structured.dump();
      }
      const catalogue::Schema* schemas[] = {&deployment, nullptr};
      for (const catalogue::Schema* schema : schemas) {
        Result<json> r = json();
        REQUIRE_NOTHROW(r = ApplyStrategicMergePatch(doc, body, schema));
        if (r.ok()) {
          ++accepted;
          CHECK(r->is_object());
        } else {
          ++rejected;
          CHECK(r.status().code() != StatusCode::kOk);
        }
      }
    }
    for (const std::string& seed : json_seeds) {
      json structured = json::parse(seed);
      MutateValue(structured, rng);
      std::string body = iter % 2 == 0 ? Mutate(seed, rng) : structured.dump();
      Result<json> r = json();
      REQUIRE_NOTHROW(r = ApplyJsonPatch(doc, body));
      r.ok() ? ++accepted : ++rejected;
    }
    for (const std::string& seed : merge_seeds) {
      Result<json> r = json();
      REQUIRE_NOTHROW(r = ApplyMergePatch(doc, Mutate(seed, rng)));
      r.ok() ? ++accepted : ++rejected;
    }
  }
  // Both outcomes must be exercised for the loop to mean anything.
  CHECK(accepted > 1000);
  CHECK(rejected > 1000);
}

}  // namespace
}  // namespace kube::patch
