// Unit tests of the endpoints layer's parsing: request info, query parameters, negotiation,
// option validation, Status rendering, field pruning and discovery.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <sys/resource.h>

#include "endpoints/discovery.h"
#include "endpoints/encoded_objects.h"
#include "endpoints/field_validation.h"
#include "endpoints/negotiation.h"
#include "endpoints/query.h"
#include "endpoints/request_info.h"
#include "endpoints/request_options.h"
#include "endpoints/responses.h"
#include "endpoints/scale.h"
#include "endpoints/warnings.h"
#include "protobuf/protobuf_test_util.h"
#include "registry/errors.h"
#include "util/json_depth.h"

namespace kube::endpoints {

namespace {

long PeakRssKib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

}  // namespace

using nlohmann::json;

TEST_CASE("request info: kube's path layout and verbs") {
  auto i = ParseRequestInfo("GET", "/api/v1/namespaces/default/pods/p1", false);
  CHECK(i.is_resource_request);
  CHECK(i.api_group == "");
  CHECK(i.api_version == "v1");
  CHECK(i.namespace_ == "default");
  CHECK(i.resource == "pods");
  CHECK(i.name == "p1");
  CHECK(i.verb == "get");

  i = ParseRequestInfo("GET", "/apis/apps/v1/namespaces/ns/deployments/d1/scale", false);
  CHECK(i.api_group == "apps");
  CHECK(i.resource == "deployments");
  CHECK(i.subresource == "scale");

  CHECK(ParseRequestInfo("GET", "/api/v1/pods", false).verb == "list");
  CHECK(ParseRequestInfo("GET", "/api/v1/pods", true).verb == "watch");
  CHECK(ParseRequestInfo("POST", "/api/v1/namespaces/ns/configmaps", false).verb == "create");
  CHECK(ParseRequestInfo("DELETE", "/api/v1/namespaces/ns/configmaps", false).verb == "deletecollection");
  CHECK(ParseRequestInfo("DELETE", "/api/v1/namespaces/ns/configmaps/c", false).verb == "delete");
  CHECK(ParseRequestInfo("PATCH", "/api/v1/namespaces/ns/configmaps/c", false).verb == "patch");
  CHECK(ParseRequestInfo("PUT", "/api/v1/namespaces/ns/configmaps/c", false).verb == "update");

  // The namespace object and its own subresources.
  i = ParseRequestInfo("GET", "/api/v1/namespaces/team", false);
  CHECK(i.resource == "namespaces");
  CHECK(i.name == "team");
  i = ParseRequestInfo("PUT", "/api/v1/namespaces/team/finalize", false);
  CHECK(i.resource == "namespaces");
  CHECK(i.subresource == "finalize");

  // Legacy watch paths.
  i = ParseRequestInfo("GET", "/api/v1/watch/namespaces/ns/pods/p", false);
  CHECK(i.verb == "watch");
  CHECK(i.legacy_watch);
  CHECK(i.name == "p");

  // Discovery and other paths are not resource requests.
  CHECK_FALSE(ParseRequestInfo("GET", "/api", false).is_resource_request);
  CHECK_FALSE(ParseRequestInfo("GET", "/apis/apps", false).is_resource_request);
  CHECK_FALSE(ParseRequestInfo("GET", "/apis/apps/v1", false).is_resource_request);
  CHECK_FALSE(ParseRequestInfo("GET", "/healthz", false).is_resource_request);
  CHECK_FALSE(ParseRequestInfo("GET", "//", false).is_resource_request);
}

TEST_CASE("query: raw parsing keeps '=' in values and follows Go booleans") {
  Query q = Query::Parse("labelSelector=app%3Dweb,tier=db&watch=True&limit=5&x&dryRun=All&dryRun=All");
  CHECK(q.Get("labelSelector") == "app=web,tier=db");
  CHECK(q.Bool("watch"));
  CHECK(q.Bool("x"));  // present without a value means true
  CHECK_FALSE(q.Bool("missing"));
  CHECK_FALSE(Query::Parse("watch=false").Bool("watch"));
  CHECK_FALSE(Query::Parse("watch=0").Bool("watch"));
  CHECK(**q.Int("limit") == 5);
  CHECK(q.GetAll("dryRun").size() == 2);
  CHECK(Query::Parse("limit=abc").Int("limit").status().code() == StatusCode::kBadRequest);
  CHECK(PercentDecode("a%2Fb+c%zz") == "a/b c%zz");
}

TEST_CASE("negotiation: Table, PartialObjectMetadata, discovery, JSON fallbacks") {
  auto table = Negotiate("application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json");
  REQUIRE(table.ok());
  CHECK(table->as == Representation::As::kTable);
  CHECK(table->version == "v1");
  auto pom = Negotiate("application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json");
  CHECK(pom->as == Representation::As::kPartialObjectMetadata);
  CHECK(Negotiate("application/vnd.kubernetes.protobuf,application/json")->as == Representation::As::kObject);
  CHECK(Negotiate("")->as == Representation::As::kObject);
  CHECK(Negotiate("*/*")->as == Representation::As::kObject);
  auto disco = Negotiate("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json", true);
  CHECK(disco->as == Representation::As::kDiscovery);
  CHECK(Negotiate("application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json", false)->as ==
        Representation::As::kObject);
  CHECK(Negotiate("application/xml").status().code() == StatusCode::kNotAcceptable);
  CHECK(ParseContentType("application/merge-patch+json; charset=utf-8") == BodyType::kMergePatch);
  CHECK(ParseContentType("application/apply-patch+yaml") == BodyType::kApplyPatch);
  CHECK(ParseContentType("application/vnd.kubernetes.protobuf") == BodyType::kProtobuf);
}

TEST_CASE("list options: kube's 422 validation") {
  auto bad = ParseListOptions(Query::Parse("resourceVersionMatch=Exact"), false);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().code() == StatusCode::kInvalid);
  CHECK(bad.status().message() ==
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided");
  CHECK_FALSE(ParseListOptions(Query::Parse("resourceVersion=0&resourceVersionMatch=Exact"), false).ok());
  CHECK_FALSE(ParseListOptions(Query::Parse("sendInitialEvents=true"), false).ok());
  CHECK_FALSE(ParseListOptions(Query::Parse("sendInitialEvents=true"), true).ok());
  auto wl = ParseListOptions(Query::Parse("sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true"), true);
  REQUIRE(wl.ok());
  CHECK(*wl->send_initial_events);
  CHECK(wl->predicate.allow_watch_bookmarks);
  auto sel = ParseListOptions(Query::Parse("labelSelector=a%20in%20"), false);
  REQUIRE_FALSE(sel.ok());
  CHECK(sel.status().code() == StatusCode::kBadRequest);
}

namespace {

HttpRequest Body(std::string content_type, std::string body) {
  HttpRequest r;
  r.method = "DELETE";
  if (!content_type.empty()) r.headers.emplace("Content-Type", std::move(content_type));
  r.body = std::move(body);
  return r;
}
HttpRequest JsonBody(std::string body) { return Body("application/json", std::move(body)); }

}  // namespace

TEST_CASE("delete options: the body wins over the query") {
  auto from_body = ReadDeleteOptions(JsonBody(R"({"propagationPolicy":"Background","gracePeriodSeconds":0})"),
                                     Query::Parse("gracePeriodSeconds=5"));
  REQUIRE(from_body.ok());
  CHECK(*from_body->grace_period_seconds == 0);
  CHECK(from_body->propagation_policy == "Background");
  auto from_query = ReadDeleteOptions(JsonBody(""), Query::Parse("gracePeriodSeconds=5&dryRun=All"));
  REQUIRE(from_query.ok());
  CHECK(*from_query->grace_period_seconds == 5);
  CHECK(from_query->dry_run);
  CHECK(ReadDeleteOptions(JsonBody(R"({"preconditions":{"uid":"u1"}})"), Query::Parse(""))->preconditions.uid == "u1");
  CHECK(ReadDeleteOptions(JsonBody("{not json"), Query::Parse("")).status().code() == StatusCode::kBadRequest);
  CHECK(ReadDeleteOptions(JsonBody("[1]"), Query::Parse("")).status().code() == StatusCode::kBadRequest);
  CHECK(ReadDeleteOptions(JsonBody(R"({"orphanDependents":true,"propagationPolicy":"Orphan"})"), Query::Parse(""))
            .status()
            .code() == StatusCode::kInvalid);
  // A present but empty policy is a set pointer in Go, and not one of the supported values.
  auto empty_policy = ReadDeleteOptions(JsonBody(R"({"propagationPolicy":""})"), Query::Parse(""));
  CHECK(empty_policy.status().message() ==
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"\": supported values: "
        "\"Foreground\", \"Background\", \"Orphan\", \"nil\"");
  // YAML is one of the encodings kube accepts for options too; other media types are 415.
  CHECK(ReadDeleteOptions(Body("application/yaml", "propagationPolicy: Orphan\n"), Query::Parse(""))
            ->propagation_policy == "Orphan");
  CHECK(ReadDeleteOptions(Body("text/plain", "{}"), Query::Parse("")).status().code() ==
        StatusCode::kUnsupportedMediaType);
  // The body must hold DeleteOptions (of any group version), not another kind.
  CHECK(ReadDeleteOptions(JsonBody(R"({"kind":"DeleteOptions","apiVersion":"apps/v1","dryRun":["All"]})"),
                          Query::Parse(""))
            ->dry_run);
  auto wrong_kind = ReadDeleteOptions(JsonBody(R"({"kind":"ConfigMap","apiVersion":"v1"})"), Query::Parse(""));
  CHECK(wrong_kind.status().code() == StatusCode::kBadRequest);
  CHECK(wrong_kind.status().message() ==
        "no kind \"ConfigMap\" is registered for version \"v1\" in scheme "
        "\"k8s.io/apimachinery/pkg/apis/meta/internalversion/scheme/register.go:27\"");
}

TEST_CASE("delete options: protobuf bodies as client-go's typed clients send them") {
  using protobuf::testing::Envelope;
  using protobuf::testing::LenField;
  const std::string pb = "application/vnd.kubernetes.protobuf";
  // Empty DeleteOptions: the envelope without raw, with an empty raw, in any group version.
  const std::string no_raw = std::string("k8s\0", 4) + LenField(1, LenField(1, "v1") + LenField(2, "DeleteOptions"));
  for (const std::string& body : {no_raw, Envelope("v1", "DeleteOptions", ""), Envelope("apps/v1", "DeleteOptions", ""),
                                  Envelope("meta.k8s.io/v1", "DeleteOptions", "")}) {
    auto o = ReadDeleteOptions(Body(pb, body), Query::Parse("gracePeriodSeconds=7"));
    REQUIRE_MESSAGE(o.ok(), o.status().ToString());
    CHECK_FALSE(o->grace_period_seconds.has_value());  // the body wins over the query
    CHECK(o->propagation_policy.empty());
    CHECK_FALSE(o->dry_run);
  }
  // Every field.
  const std::string populated = std::string("\x08\x00", 2) +                      // gracePeriodSeconds 0
                                LenField(2, LenField(1, "u-1") + LenField(2, "42")) +  // preconditions
                                LenField(4, "Foreground") + LenField(5, "All");
  auto full = ReadDeleteOptions(Body(pb, Envelope("v1", "DeleteOptions", populated)), Query::Parse(""));
  REQUIRE_MESSAGE(full.ok(), full.status().ToString());
  CHECK(*full->grace_period_seconds == 0);
  CHECK(full->preconditions.uid == "u-1");
  CHECK(full->preconditions.resource_version == "42");
  CHECK(full->propagation_policy == "Foreground");
  CHECK(full->dry_run);
  // The same validation as for JSON: orphanDependents (even false) with a policy is 422.
  auto both = ReadDeleteOptions(
      Body(pb, Envelope("v1", "DeleteOptions", std::string("\x18\x00", 2) + LenField(4, "Orphan"))), Query::Parse(""));
  CHECK(both.status().code() == StatusCode::kInvalid);
  auto bad_dry_run = ReadDeleteOptions(Body(pb, Envelope("v1", "DeleteOptions", LenField(5, "Some"))), Query::Parse(""));
  CHECK(bad_dry_run.status().code() == StatusCode::kInvalid);
  // Malformed bodies are 400.
  CHECK(ReadDeleteOptions(Body(pb, std::string("k8s\0", 4)), Query::Parse("")).status().message() == "empty body");
  auto truncated = ReadDeleteOptions(Body(pb, Envelope("v1", "DeleteOptions", "\x08")), Query::Parse(""));
  CHECK(truncated.status().code() == StatusCode::kBadRequest);
  CHECK(ReadDeleteOptions(Body(pb, "k8s"), Query::Parse("")).status().code() == StatusCode::kBadRequest);
  CHECK(ReadDeleteOptions(Body(pb, Envelope("v1", "ConfigMap", "")), Query::Parse("")).status().code() ==
        StatusCode::kBadRequest);
}

TEST_CASE("write params") {
  CHECK(ParseWriteParams(Query::Parse("fieldValidation=Loose"), "CreateOptions").status().code() == StatusCode::kInvalid);
  CHECK(ParseWriteParams(Query::Parse(""), "CreateOptions")->field_validation == "Warn");
}

TEST_CASE("status rendering: details, causes and Retry-After") {
  Status s = registry::NotFoundError("apps", "deployments", "web");
  json j = StatusObject(s);
  CHECK(j["message"] == "deployments.apps \"web\" not found");
  CHECK(j["reason"] == "NotFound");
  CHECK(j["code"] == 404);
  CHECK(j["details"]["name"] == "web");
  CHECK(j["details"]["kind"] == "deployments");
  auto r = ErrorResponse(Status::TooLargeResourceVersion("Timeout: Too large resource version: 9, current: 3", 1));
  CHECK(r.status == 504);
  CHECK(r.headers.find("Retry-After")->second == "1");
  json large = json::parse(r.body);
  CHECK(large["details"]["causes"][0]["reason"] == "ResourceVersionTooLarge");
  CHECK(large["details"]["retryAfterSeconds"] == 1);
  Status invalid = registry::InvalidError("", "ConfigMap", "Bad_Name",
                                          {registry::FieldError{registry::FieldError::Type::kInvalid, "metadata.name",
                                                                registry::GoQuote("Bad_Name"), "bad"}});
  CHECK(invalid.message() == "ConfigMap \"Bad_Name\" is invalid: metadata.name: Invalid value: \"Bad_Name\": bad");
  CHECK(StatusObject(invalid)["details"]["causes"][0]["reason"] == "FieldValueInvalid");
  CHECK(StatusObject(invalid)["details"]["kind"] == "ConfigMap");
}

TEST_CASE("status rendering: details always present, as kube's error constructors set them") {
  // What kube's constructors know goes in; {} where they know nothing (clients such as kubectl
  // debug read details without a nil check).
  CHECK(StatusObject(Status::BadRequest("bad"))["details"] == json::object());
  CHECK(StatusObject(Status::Expired("too old resource version: 1 (5)"))["details"] == json::object());
  CHECK(StatusObject(Status(StatusCode::kGone, "gone"))["details"] == json::object());
  CHECK(StatusObject(Status::NotFound("the server could not find the requested resource"))["details"] ==
        json::object());
  CHECK(StatusObject(registry::NotFoundError("", "secrets", "s"))["details"] == json{{"name", "s"}, {"kind", "secrets"}});
  CHECK(StatusObject(registry::ConflictError("apps", "deployments", "d", registry::kObjectModified))["details"] ==
        json{{"name", "d"}, {"group", "apps"}, {"kind", "deployments"}});
  CHECK(StatusObject(registry::AlreadyExistsError("", "configmaps", "c"))["details"] ==
        json{{"name", "c"}, {"kind", "configmaps"}});
  CHECK(StatusObject(registry::MethodNotSupportedError("apps", "deployments", "create"))["details"] ==
        json{{"group", "apps"}, {"kind", "deployments"}});
  CHECK(StatusObject(Status::TooManyRequests("slow down", 2))["details"] == json{{"retryAfterSeconds", 2}});
  // Watch ERROR events carry the same Status object.
  CHECK(StatusObject(Status::Expired("too old"))["code"] == 410);
}

TEST_CASE("field validation: unknown fields are pruned and reported with their paths") {
  const auto& cat = catalogue::Catalogue::BuiltIn();
  json pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}, {"bogus", 1}}},
              {"spec", {{"containers", {{{"name", "c"}, {"image", "x"}, {"colour", "red"}}}}, {"foo", true}}}};
  auto decoded = DecodeTyped(cat.KindSchema("", "v1", "Pod"), &pod);
  CHECK(decoded.unknown_fields == std::vector<std::string>{"metadata.bogus", "spec.containers[0].colour", "spec.foo"});
  CHECK(decoded.type_error.empty());
  CHECK_FALSE(pod["spec"].contains("foo"));
  CHECK(pod["spec"]["containers"][0]["image"] == "x");
  json cm = {{"data", {{"any-key", "v"}}}, {"metadata", {{"labels", {{"a", "b"}}}}}};
  decoded = DecodeTyped(cat.KindSchema("", "v1", "ConfigMap"), &cm);
  CHECK(decoded.unknown_fields.empty());
  CHECK(decoded.type_error.empty());
  json bad = {{"data", {{"a", 5}}}};
  CHECK(DecodeTyped(cat.KindSchema("", "v1", "ConfigMap"), &bad).type_error ==
        "json: cannot unmarshal number into Go struct field .data[a] of type string");
  json dep = {{"spec", {{"replicas", "3"}}}};
  CHECK(DecodeTyped(cat.KindSchema("apps", "v1", "Deployment"), &dep).type_error.find("of type int64") !=
        std::string::npos);
  json svc = {{"spec", {{"ports", {{{"port", 80}, {"targetPort", "http"}}}}}}};
  CHECK(DecodeTyped(cat.KindSchema("", "v1", "Service"), &svc).type_error.empty());
}

TEST_CASE("typed decoding: null is the Go zero value, and omitempty empties are left out") {
  const auto& cat = catalogue::Catalogue::BuiltIn();
  // A field set to null is absent, wherever it is and whatever its type.
  json pod = {{"metadata", {{"name", nullptr}, {"namespace", nullptr}, {"generateName", nullptr},
                            {"labels", {{"a", nullptr}, {"b", "x"}}}, {"annotations", json::object()}}},
              {"spec", {{"hostname", nullptr},
                        {"containers", {{{"name", "c"}, {"ports", nullptr}, {"args", {"x", nullptr}}}}},
                        {"nodeSelector", json::object()}, {"tolerations", json::array()},
                        {"overhead", {{"cpu", nullptr}}}, {"nodeName", ""}, {"hostNetwork", false},
                        {"terminationGracePeriodSeconds", 0}}},
              {"status", nullptr}};
  auto decoded = DecodeTyped(cat.KindSchema("", "v1", "Pod"), &pod);
  CHECK(decoded.type_error.empty());
  CHECK(decoded.unknown_fields.empty());
  const json want = {{"metadata", {{"labels", {{"a", ""}, {"b", "x"}}}}},
                     {"spec", {{"containers", {{{"name", "c"}, {"args", {"x", ""}}}}},
                               {"overhead", {{"cpu", "0"}}},
                               // a pointer (*int64): its zero is a value, not empty
                               {"terminationGracePeriodSeconds", 0}}}};
  CHECK(pod == want);
  // Lists and maps without omitempty keep their empty value (PodSpec.containers), as Go does.
  json empty_containers = {{"spec", {{"containers", json::array()}}}};
  DecodeTyped(cat.KindSchema("", "v1", "Pod"), &empty_containers);
  CHECK(empty_containers == json{{"spec", {{"containers", json::array()}}}});
  // Endpoints.subsets is omitempty; a list item decoded from null is a zero struct.
  json ep = {{"subsets", json::array()}};
  DecodeTyped(cat.KindSchema("", "v1", "Endpoints"), &ep);
  CHECK(ep == json::object());
  json ep2 = {{"subsets", {nullptr}}};
  DecodeTyped(cat.KindSchema("", "v1", "Endpoints"), &ep2);
  CHECK(ep2 == json{{"subsets", {json::object()}}});
}

TEST_CASE("field validation: duplicate keys are found with their paths") {
  CHECK(DuplicateFields(R"({"a":1,"b":{"c":1,"c":2},"l":[{"x":1,"x":2}],"a":3})") ==
        std::vector<std::string>{"b.c", "l[0].x", "a"});
  CHECK(DuplicateFields(R"({"a":1})").empty());
  CHECK(DuplicateFields("{broken").empty());
  CHECK(DuplicateFields(R"([[{"k":[0,{"d":1,"d":2}]}]])") == std::vector<std::string>{"[0][0].k[1].d"});
}

TEST_CASE("nesting depth of a decoded value, measured without recursion") {
  CHECK_FALSE(NestedDeeperThan(json(1), 0));
  CHECK_FALSE(NestedDeeperThan(json::parse("[[1],{\"a\":[]}]"), 3));
  CHECK(NestedDeeperThan(json::parse("[[1],{\"a\":[]}]"), 2));
  const json deep = json::parse(std::string(kube::kMaxJsonDepth + 1, '[') + std::string(kube::kMaxJsonDepth + 1, ']'));
  CHECK(NestedDeeperThan(deep, kube::kMaxJsonDepth));
  CHECK_FALSE(NestedDeeperThan(deep, kube::kMaxJsonDepth + 1));
}

TEST_CASE("field validation: deep nesting costs linear memory, reports are capped") {
  // 10,000 levels of arrays: a path per open level would hold ~150 MB of path text at once.
  const std::string deep = std::string(kube::kMaxJsonDepth, '[') + std::string(kube::kMaxJsonDepth, ']');
  const long before_kib = PeakRssKib();
  CHECK(DuplicateFields(deep).empty());
  CHECK(PeakRssKib() - before_kib < 32 * 1024);
  // A duplicate at the bottom of a deep nest is still found, with its path.
  std::string nested;
  for (int i = 0; i < 2000; ++i) nested += "{\"a\":";
  nested += "{\"d\":1,\"d\":2}";
  nested += std::string(2000, '}');
  auto dups = DuplicateFields(nested);
  REQUIRE(dups.size() == 1);
  CHECK(dups[0].size() == 2000 * 2 + 1);
  // Thousands of long duplicate paths stop at the cap.
  std::string many = "{\"" + std::string(1000, 'k') + "\":{";
  for (int i = 0; i < 5000; ++i) many += std::string(i ? "," : "") + "\"x\":1";
  many += "}}";
  size_t total = 0;
  for (const auto& d : DuplicateFields(many)) total += d.size() + 1;
  CHECK(total >= kMaxReportedPathBytes);
  CHECK(total < kMaxReportedPathBytes + 2000);
}

TEST_CASE("pretty JSON: Go's indentation, capped for deep values") {
  const json obj = {{"a", 1}, {"b", {1, json::object(), json::array(), {{"c", "x\"y"}}}}, {"e", json::object()}};
  CHECK(Dump(obj, true) == obj.dump(2));
  CHECK(Dump(obj, false) == obj.dump());
  // 2,000 levels: indenting every level would write ~4 MB of spaces.
  const json deep = json::parse(std::string(2000, '[') + std::string(2000, ']'));
  const std::string text = Dump(deep, true);
  CHECK(text.size() < 20000);
  CHECK(json::parse(text) == deep);
}

TEST_CASE("warnings: kube's recorder — deduplicated, escaped, bounded") {
  CHECK(WarningHeaders({"a \"b\" c\\d", "x", "a \"b\" c\\d"}) ==
        std::vector<std::string>{R"(299 - "a \"b\" c\\d")", R"(299 - "x")"});
  // Control characters and invalid UTF-8 make net.NewWarningHeader refuse the text.
  CHECK(WarningHeaders({"line\nbreak", "bad \xff", "ok \u00e9"}) == std::vector<std::string>{"299 - \"ok \u00e9\""});
  // Past 4096 runes in total every warning is cut to 256 runes, and the headers stop growing.
  std::vector<std::string> many;
  for (int i = 0; i < 5000; ++i) many.push_back("unknown field \"spec." + std::string(300, 'x') + std::to_string(i) + "\"");
  auto headers = WarningHeaders(many);
  size_t total = 0;
  for (const auto& h : headers) {
    CHECK(h.size() <= 256 + 12);
    total += h.size();
  }
  CHECK(headers.size() == 16);
  CHECK(total < 5000);
  // YAML strict errors are one warning per line, as kube's parseYAMLWarnings splits them.
  CHECK(SplitYamlWarnings("error converting YAML to JSON: yaml: unmarshal errors:\n  line 2: key \"a\" already set "
                          "in map\n  line 3: key \"b\" already set in map") ==
        std::vector<std::string>{"line 2: key \"a\" already set in map", "line 3: key \"b\" already set in map"});
  CHECK(SplitYamlWarnings("unknown field \"x\"") == std::vector<std::string>{"unknown field \"x\""});
}

TEST_CASE("discovery: legacy and aggregated documents from the catalogue") {
  const auto& cat = catalogue::Catalogue::BuiltIn();
  Discovery d(cat, [](const catalogue::ResourceInfo& info) { return !info.storage_prefix.empty(); });
  const json* core = d.ResourceList("", "v1");
  REQUIRE(core != nullptr);
  bool pods = false, pods_status = false, pods_exec = false;
  for (const auto& r : (*core)["resources"]) {
    if (r["name"] == "pods") {
      pods = true;
      CHECK(r["shortNames"] == json::array({"po"}));
      CHECK(r["namespaced"] == true);
    }
    if (r["name"] == "pods/status") pods_status = true;
    if (r["name"] == "pods/exec") pods_exec = true;  // answered without a kubelet
  }
  CHECK(pods);
  CHECK(pods_exec);
  CHECK(pods_status);
  const json* apps = d.Group("apps");
  REQUIRE(apps != nullptr);
  CHECK((*apps)["preferredVersion"]["groupVersion"] == "apps/v1");
  json agg = d.Aggregated(false, "v2");
  CHECK(agg["apiVersion"] == "apidiscovery.k8s.io/v2");
  bool scale = false;
  for (const auto& g : agg["items"]) {
    if (g["metadata"]["name"] != "apps") continue;
    for (const auto& r : g["versions"][0]["resources"]) {
      if (r["resource"] != "deployments") continue;
      for (const auto& s : r["subresources"]) {
        if (s["subresource"] == "scale") scale = s["responseKind"]["kind"] == "Scale";
      }
    }
  }
  CHECK(scale);
  CHECK(d.Aggregated(true, "v2")["items"].size() == 1);
}

TEST_CASE("encoded objects: one encoding per shared object, bounded") {
  EncodedObjects cache(2);
  auto a = std::make_shared<const json>(json{{"kind", "A"}});
  auto b = std::make_shared<const json>(json{{"kind", "B"}});
  auto c = std::make_shared<const json>(json{{"kind", "C"}});
  auto first = cache.Get(a);
  CHECK(*first == R"({"kind":"A"})");
  CHECK(cache.Get(a).get() == first.get());  // the same text, not encoded again
  cache.Get(b);
  cache.Get(c);                               // evicts a, the least recently used
  auto again = cache.Get(a);
  CHECK(*again == *first);
  CHECK(again.get() != first.get());
}

TEST_CASE("scale: view and write-back") {
  json d = {{"metadata", {{"name", "web"}, {"namespace", "ns"}, {"resourceVersion", "7"}}},
            {"spec", {{"replicas", 3}, {"selector", {{"matchLabels", {{"app", "web"}}}}}}},
            {"status", {{"replicas", 2}}}};
  json s = ScaleOf(d);
  CHECK(s["kind"] == "Scale");
  CHECK(s["spec"]["replicas"] == 3);
  CHECK(s["status"]["selector"] == "app=web");
  CHECK(WithReplicas(d, json{{"spec", {{"replicas", 5}}}})["spec"]["replicas"] == 5);
}

}  // namespace kube::endpoints
