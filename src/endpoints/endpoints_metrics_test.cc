// /metrics over an in-memory registry: after a known mix of requests every line of the scrape is
// valid text format (metrics/text_format_parser.h) and the request, long-running, watch-event
// and storage figures carry kube's names, labels and counts; /metrics is authorized as kube
// authorizes it (system:monitoring may, others may not).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "auth/rbac.h"
#include "auth/rbac_modes.h"
#include "endpoints/api_server.h"
#include "metrics/text_format_parser.h"
#include "registry/api_registry.h"

namespace kube::endpoints {
namespace {

using nlohmann::json;
using Labels = std::map<std::string, std::string>;

struct Server {
  explicit Server(ApiServerOptions options = {}) {
    auto opened = registry::ApiRegistry::Open({}, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    api = std::make_unique<ApiServer>(registry.get(), std::move(options));
  }
  HttpResponse Call(std::string method, std::string target, std::string body = "",
                    std::string content_type = "application/json", auth::UserInfo user = {}) {
    HttpRequest r;
    r.method = std::move(method);
    const size_t q = target.find('?');
    r.path = target.substr(0, q);
    if (q != std::string::npos) r.raw_query = target.substr(q + 1);
    if (!body.empty()) r.headers.emplace("Content-Type", content_type);
    r.body = std::move(body);
    r.user = std::move(user);
    return api->Handle(r);
  }
  metrics::testing::ParsedExposition Scrape() {
    HttpResponse r = Call("GET", "/metrics");
    REQUIRE(r.status == 200);
    CHECK(r.content_type.starts_with("text/plain; version=0.0.4"));
    std::string error;
    auto parsed = metrics::testing::Parse(r.body, &error);
    REQUIRE_MESSAGE(error.empty(), error);
    return parsed;
  }
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<ApiServer> api;
};

const char* kConfigMaps = "/api/v1/namespaces/default/configmaps";

Labels Request(std::string verb, std::string scope, std::string code, std::string resource = "configmaps") {
  return {{"verb", verb},   {"group", ""},       {"version", "v1"},        {"resource", resource},
          {"subresource", ""}, {"scope", scope}, {"component", "apiserver"}, {"code", code}, {"dry_run", ""}};
}

}  // namespace

TEST_CASE("/metrics after a known request mix: valid text format, kube's names, labels and counts") {
  Server s;
  for (int i = 0; i < 3; ++i) {
    HttpResponse r = s.Call("POST", kConfigMaps, json{{"metadata", {{"name", "cm" + std::to_string(i)}}}}.dump());
    REQUIRE(r.status == 201);
  }
  CHECK(s.Call("GET", std::string(kConfigMaps) + "/cm0").status == 200);
  CHECK(s.Call("GET", std::string(kConfigMaps) + "/cm1").status == 200);
  CHECK(s.Call("GET", std::string(kConfigMaps) + "/absent").status == 404);
  CHECK(s.Call("GET", kConfigMaps).status == 200);
  CHECK(s.Call("POST", std::string(kConfigMaps) + "?dryRun=All", json{{"metadata", {{"name", "dry"}}}}.dump()).status == 201);
  CHECK(s.Call("PATCH", std::string(kConfigMaps) + "/cm2?fieldManager=m",
               R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm2"},"data":{"a":"b"}})",
               "application/apply-patch+yaml")
            .status == 200);
  CHECK(s.Call("GET", "/healthz").status == 200);
  CHECK(s.Call("GET", "/apis").status == 200);

  // One watch: long-running while open, its events counted, recorded as a request when it ends.
  HttpResponse watch = s.Call("GET", std::string(kConfigMaps) + "?watch=true&resourceVersion=0");
  REQUIRE(watch.stream != nullptr);
  {
    auto open = s.Scrape();
    CHECK(open.Value("apiserver_longrunning_requests",
                     {{"verb", "WATCH"}, {"resource", "configmaps"}, {"scope", "namespace"}, {"component", "apiserver"}}) ==
          1);
    CHECK_FALSE(open.Value("apiserver_request_total", {{"verb", "WATCH"}}).has_value());
  }
  int events = 0;
  std::string chunk;
  for (int i = 0; i < 20 && events < 3; ++i) {
    if (watch.stream->Next(&chunk) == ResponseStream::Step::kData) ++events;
  }
  REQUIRE(events == 3);  // the three stored config maps, as ADDED events
  watch.stream->Close();

  auto m = s.Scrape();
  for (const char* family : {"apiserver_request_total", "apiserver_watch_events_total", "apiserver_storage_objects",
                             "apiserver_resource_objects", "process_cpu_seconds_total"}) {
    CHECK_MESSAGE(m.types.at(family) == (std::string_view(family) == "apiserver_storage_objects" ||
                                                 std::string_view(family) == "apiserver_resource_objects"
                                             ? "gauge"
                                             : "counter"),
                  family);
  }
  CHECK(m.types.at("apiserver_request_duration_seconds") == "histogram");
  CHECK(m.types.at("apiserver_longrunning_requests") == "gauge");
  CHECK(m.help.at("apiserver_request_total").starts_with("[STABLE] "));

  CHECK(m.Value("apiserver_request_total", Request("POST", "resource", "201")) == 3);
  CHECK(m.Value("apiserver_request_total", Request("GET", "resource", "200")) == 2);
  CHECK(m.Value("apiserver_request_total", Request("GET", "resource", "404")) == 1);
  CHECK(m.Value("apiserver_request_total", Request("LIST", "namespace", "200")) == 1);
  CHECK(m.Value("apiserver_request_total", Request("WATCH", "namespace", "200")) == 1);
  CHECK(m.Value("apiserver_request_total", Request("APPLY", "resource", "200")) == 1);
  auto dry = Request("POST", "resource", "201");
  dry["dry_run"] = "All";
  CHECK(m.Value("apiserver_request_total", dry) == 1);
  CHECK(m.Value("apiserver_request_total", {{"verb", "GET"}, {"subresource", "/healthz"}, {"component", ""}}) == 1);
  CHECK(m.Value("apiserver_request_total", {{"verb", "GET"}, {"subresource", "/apis"}, {"component", "apiserver"}}) == 1);
  // Every request of the mix has one series label set: 9 labels, the code among them.
  for (const auto& sample : m.samples) {
    if (sample.name == "apiserver_request_total") CHECK(sample.labels.size() == 9);
  }
  // Durations: one observation per counted request, under the same labels less the code.
  auto posts = Request("POST", "resource", "201");
  posts.erase("code");
  CHECK(m.Value("apiserver_request_duration_seconds_count", posts) == 3);
  posts["le"] = "60";
  CHECK(m.Value("apiserver_request_duration_seconds_bucket", posts) == 3);
  CHECK(m.Value("apiserver_request_duration_seconds_bucket", {{"verb", "LIST"}, {"le", "0.005"}}).has_value());
  CHECK(m.Value("apiserver_longrunning_requests", {{"verb", "WATCH"}}) == 0);
  CHECK(m.Value("apiserver_watch_events_total", {{"group", ""}, {"version", "v1"}, {"resource", "configmaps"}}) == 3);
  // Three stored config maps (the dry run stored nothing), besides kube-root-ca and the like.
  const double configmaps = *m.Value("apiserver_storage_objects", {{"resource", "configmaps"}});
  CHECK(configmaps >= 3);
  CHECK(m.Value("apiserver_resource_objects", {{"group", ""}, {"resource", "configmaps"}}) == configmaps);
  CHECK(m.Value("apiserver_storage_objects", {{"resource", "namespaces"}}).has_value());
  CHECK(m.Value("apiserver_storage_objects", {{"resource", "deployments.apps"}}) == 0);
  CHECK(m.Value("process_start_time_seconds").value_or(0) > 1.6e9);
  CHECK(m.Value("process_open_fds").value_or(0) > 0);
  // /metrics itself and paths nothing serves are not request metrics, as in kube.
  CHECK_FALSE(m.Value("apiserver_request_total", {{"subresource", "/metrics"}}).has_value());
}

TEST_CASE("request metrics: kube's verbs and scopes") {
  Server s;
  s.Call("POST", "/api/v1/namespaces", R"({"metadata":{"name":"team"}})");
  s.Call("GET", "/api/v1/namespaces");
  s.Call("GET", "/api/v1/configmaps");
  s.Call("PUT", "/api/v1/namespaces/team", R"({"metadata":{"name":"team"}})");
  s.Call("DELETE", std::string(kConfigMaps));
  s.Call("GET", "/api/v1/nonsense");  // no route: not counted
  auto m = s.Scrape();
  auto ns = [](std::string verb, std::string scope, std::string code) {
    return Request(std::move(verb), std::move(scope), std::move(code), "namespaces");
  };
  CHECK(m.Value("apiserver_request_total", ns("POST", "resource", "201")) == 1);
  CHECK(m.Value("apiserver_request_total", ns("LIST", "cluster", "200")) == 1);
  CHECK(m.Value("apiserver_request_total", ns("PUT", "resource", "200")) == 1);
  CHECK(m.Value("apiserver_request_total", Request("LIST", "cluster", "200")) == 1);
  // DELETE on a collection is reported as DELETE (kube's method-derived verb) with its scope.
  CHECK(m.Value("apiserver_request_total", Request("DELETE", "namespace", "200")) == 1);
  CHECK_FALSE(m.Value("apiserver_request_total", {{"resource", "nonsense"}}).has_value());
}

TEST_CASE("/metrics is authorized as the non-resource URL: system:monitoring may get it") {
  auto opened = registry::ApiRegistry::Open({}, catalogue::Catalogue::BuiltIn());
  REQUIRE(opened.ok());
  auto reg = std::move(*opened);
  auto rbac = auth::Rbac::Start(reg.get());
  REQUIRE(rbac.ok());
  auto authz = auth::NewAuthorizerForModes(std::vector<std::string>{"RBAC"}, **rbac);
  REQUIRE(authz.ok());
  ApiServerOptions options;
  options.authorizer = authz->authorizer;
  ApiServer api(reg.get(), options);
  auto scrape = [&](auth::UserInfo user) {
    HttpRequest r;
    r.method = "GET";
    r.path = "/metrics";
    r.user = std::move(user);
    return api.Handle(r);
  };
  HttpResponse denied = scrape(auth::UserInfo{"alice", "", {"system:authenticated"}, {}});
  CHECK(denied.status == 403);
  CHECK(json::parse(denied.body)["message"] == "forbidden: User \"alice\" cannot get path \"/metrics\"");
  HttpResponse allowed = scrape(auth::UserInfo{"prometheus", "", {"system:monitoring", "system:authenticated"}, {}});
  CHECK(allowed.status == 200);
  CHECK(allowed.body.find("# TYPE process_start_time_seconds gauge") != std::string::npos);
  // A refused request is not a request metric (kube counts only what reached its route).
  HttpResponse list = api.Handle(HttpRequest{.method = "GET", .path = "/api/v1/pods", .user = {"alice", "", {"system:authenticated"}, {}}});
  CHECK(list.status == 403);
  CHECK(scrape(auth::UserInfo{"prometheus", "", {"system:monitoring"}, {}}).body.find("resource=\"pods\",subresource") ==
        std::string::npos);
}

}  // namespace kube::endpoints
