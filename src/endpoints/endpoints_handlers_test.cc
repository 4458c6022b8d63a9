// Tests of the endpoints layer's handlers over an in-memory registry: request bodies in every
// encoding kube accepts (protobuf DeleteOptions and subresource bodies, as client-go's typed
// clients send them) and the details every error Status carries.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "endpoints/api_server.h"
#include "protobuf/protobuf.h"
#include "protobuf/protobuf_test_util.h"
#include "registry/api_registry.h"

namespace kube::endpoints {
namespace {

using nlohmann::json;
using protobuf::testing::Envelope;
using protobuf::testing::LenField;

constexpr std::string_view kProtobuf = "application/vnd.kubernetes.protobuf";

// An ApiServer over an in-memory registry of every built-in resource.
struct Server {
  explicit Server(registry::RegistryOptions options = {}) {
    auto opened = registry::ApiRegistry::Open(options, catalogue::Catalogue::BuiltIn());
    REQUIRE_MESSAGE(opened.ok(), opened.status().ToString());
    registry = std::move(*opened);
    api = std::make_unique<ApiServer>(registry.get(), ApiServerOptions{});
  }
  std::unique_ptr<registry::ApiRegistry> registry;
  std::unique_ptr<ApiServer> api;

  HttpResponse Call(std::string method, std::string target, std::string body = "",
                    std::string_view content_type = "application/json", std::string_view accept = "") {
    HttpRequest r;
    r.method = std::move(method);
    const size_t q = target.find('?');
    r.path = target.substr(0, q);
    if (q != std::string::npos) r.raw_query = target.substr(q + 1);
    if (!body.empty()) r.headers.emplace("Content-Type", std::string(content_type));
    if (!accept.empty()) r.headers.emplace("Accept", std::string(accept));
    r.body = std::move(body);
    return api->Handle(r);
  }
  // The response body as JSON (decoding protobuf answers).
  static json Body(const HttpResponse& r) {
    if (r.content_type == kProtobuf) {
      auto decoded = protobuf::DecodeObject(r.body);
      REQUIRE_MESSAGE(decoded.ok(), decoded.status().ToString());
      return *decoded;
    }
    return json::parse(r.body);
  }
  void Create(const std::string& collection, const json& obj) {
    HttpResponse r = Call("POST", collection, obj.dump());
    REQUIRE_MESSAGE(r.status == 201, r.body);
  }
  int Get(const std::string& path) { return Call("GET", path).status; }
};

std::string DeleteOptionsBody(std::string_view api_version, std::string_view raw) {
  return Envelope(api_version, "DeleteOptions", raw);
}

const char* kSecrets = "/api/v1/namespaces/default/secrets";

}  // namespace

TEST_CASE("DELETE with protobuf DeleteOptions deletes, in any group version's envelope") {
  Server s;
  const std::string no_raw =
      std::string("k8s\0", 4) + LenField(1, LenField(1, "v1") + LenField(2, "DeleteOptions"));
  int n = 0;
  for (const std::string& body : {no_raw, DeleteOptionsBody("v1", ""), DeleteOptionsBody("meta.k8s.io/v1", ""),
                                  DeleteOptionsBody("apps/v1", "")}) {
    const std::string name = "s" + std::to_string(n++);
    s.Create(kSecrets, {{"metadata", {{"name", name}}}});
    HttpResponse r = s.Call("DELETE", std::string(kSecrets) + "/" + name, body, kProtobuf);
    CHECK_MESSAGE(r.status == 200, r.body);
    json status = Server::Body(r);
    CHECK(status["status"] == "Success");
    CHECK(status["details"]["name"] == name);
    CHECK(s.Get(std::string(kSecrets) + "/" + name) == 404);
  }
}

TEST_CASE("protobuf DeleteOptions fields take effect as their JSON form does") {
  Server s;
  s.Create(kSecrets, {{"metadata", {{"name", "keep"}}}});
  // dryRun: answered as a delete, nothing removed.
  HttpResponse dry = s.Call("DELETE", std::string(kSecrets) + "/keep", DeleteOptionsBody("v1", LenField(5, "All")), kProtobuf);
  CHECK_MESSAGE(dry.status == 200, dry.body);
  CHECK(s.Get(std::string(kSecrets) + "/keep") == 200);
  // preconditions: a stale uid or resourceVersion is 409 naming the object.
  for (const std::string& pre : {LenField(1, "not-the-uid"), LenField(2, "1")}) {
    HttpResponse stale = s.Call("DELETE", std::string(kSecrets) + "/keep", DeleteOptionsBody("v1", LenField(2, pre)),
                                kProtobuf);
    CHECK_MESSAGE(stale.status == 409, stale.body);
    json status = Server::Body(stale);
    CHECK(status["reason"] == "Conflict");
    CHECK(status["details"]["name"] == "keep");
    CHECK(s.Get(std::string(kSecrets) + "/keep") == 200);
  }
  // orphanDependents with propagationPolicy: 422 DeleteOptions, as for JSON.
  HttpResponse both = s.Call("DELETE", std::string(kSecrets) + "/keep",
                             DeleteOptionsBody("v1", std::string("\x18\x01", 2) + LenField(4, "Orphan")), kProtobuf);
  CHECK_MESSAGE(both.status == 422, both.body);
  CHECK(Server::Body(both)["details"]["kind"] == "DeleteOptions");
  // gracePeriodSeconds: a pod on a node waits its grace period unless 0 is asked for.
  const char* pods = "/api/v1/namespaces/default/pods";
  for (const char* name : {"p-json", "p-pb"}) {
    s.Create(pods, {{"metadata", {{"name", name}}},
                    {"spec", {{"nodeName", "n1"}, {"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}});
  }
  HttpResponse graceful = s.Call("DELETE", std::string(pods) + "/p-pb", DeleteOptionsBody("v1", ""), kProtobuf);
  CHECK(graceful.status == 200);
  CHECK(Server::Body(graceful)["metadata"]["deletionGracePeriodSeconds"] == 30);
  HttpResponse now_pb = s.Call("DELETE", std::string(pods) + "/p-pb", DeleteOptionsBody("v1", std::string("\x08\x00", 2)),
                               kProtobuf);
  HttpResponse now_json = s.Call("DELETE", std::string(pods) + "/p-json", R"({"gracePeriodSeconds":0})");
  CHECK(now_pb.status == 200);
  CHECK(now_json.status == 200);
  CHECK(s.Get(std::string(pods) + "/p-pb") == 404);
  CHECK(s.Get(std::string(pods) + "/p-json") == 404);
  // A malformed body is 400 and changes nothing.
  HttpResponse bad = s.Call("DELETE", std::string(kSecrets) + "/keep", DeleteOptionsBody("v1", "\x12\x05"), kProtobuf);
  CHECK(bad.status == 400);
  CHECK(Server::Body(bad)["reason"] == "BadRequest");
  CHECK(s.Call("DELETE", std::string(kSecrets) + "/keep", "{}", "text/plain").status == 415);
  CHECK(s.Get(std::string(kSecrets) + "/keep") == 200);
}

TEST_CASE("DELETECOLLECTION takes DeleteOptions from a protobuf body, else from the query") {
  Server s;
  for (const char* name : {"a", "b"}) s.Create(kSecrets, {{"metadata", {{"name", name}}}});
  HttpResponse dry = s.Call("DELETE", kSecrets, DeleteOptionsBody("v1", LenField(5, "All")), kProtobuf);
  CHECK_MESSAGE(dry.status == 200, dry.body);
  CHECK(s.Get(std::string(kSecrets) + "/a") == 200);
  HttpResponse dry_query = s.Call("DELETE", std::string(kSecrets) + "?dryRun=All");
  CHECK_MESSAGE(dry_query.status == 200, dry_query.body);
  CHECK(s.Get(std::string(kSecrets) + "/a") == 200);
  HttpResponse all = s.Call("DELETE", kSecrets, DeleteOptionsBody("v1", ""), kProtobuf);
  CHECK_MESSAGE(all.status == 200, all.body);
  CHECK(Server::Body(all)["items"].size() == 2);
  CHECK(s.Get(std::string(kSecrets) + "/a") == 404);
  CHECK(s.Get(std::string(kSecrets) + "/b") == 404);
}

TEST_CASE("subresource bodies in protobuf: scale, status and namespace finalize") {
  Server s;
  const char* deploys = "/apis/apps/v1/namespaces/default/deployments";
  s.Create(deploys, json::parse(R"({"metadata": {"name": "web"}, "spec": {"replicas": 1,
      "selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}},
      "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}})"));
  // autoscaling/v1 Scale {metadata {name}, spec {replicas: 4}}.
  const std::string scale = Envelope("autoscaling/v1", "Scale", LenField(1, LenField(1, "web")) + LenField(2, "\x08\x04"));
  HttpResponse scaled = s.Call("PUT", std::string(deploys) + "/web/scale", scale, kProtobuf);
  CHECK_MESSAGE(scaled.status == 200, scaled.body);
  CHECK(Server::Body(scaled)["spec"]["replicas"] == 4);
  CHECK(Server::Body(s.Call("GET", std::string(deploys) + "/web"))["spec"]["replicas"] == 4);
  // An envelope without type meta takes the kind the endpoint expects, as kube's decoder does.
  const std::string untyped = std::string("k8s\0", 4) + LenField(2, LenField(1, LenField(1, "web")) + LenField(2, "\x08\x02"));
  HttpResponse defaulted = s.Call("PUT", std::string(deploys) + "/web/scale", untyped, kProtobuf);
  CHECK_MESSAGE(defaulted.status == 200, defaulted.body);
  CHECK(Server::Body(defaulted)["spec"]["replicas"] == 2);

  // Pod status: Pod {metadata {name}, status {phase: Running}}.
  const char* pods = "/api/v1/namespaces/default/pods";
  s.Create(pods, {{"metadata", {{"name", "p"}}}, {"spec", {{"containers", {{{"name", "c"}, {"image", "nginx"}}}}}}});
  const std::string pod_status = Envelope("v1", "Pod", LenField(1, LenField(1, "p")) + LenField(3, LenField(1, "Running")));
  HttpResponse status = s.Call("PUT", std::string(pods) + "/p/status", pod_status, kProtobuf);
  CHECK_MESSAGE(status.status == 200, status.body);
  CHECK(Server::Body(s.Call("GET", std::string(pods) + "/p"))["status"]["phase"] == "Running");

  // Namespace finalize: Namespace {metadata {name}, spec {}} empties spec.finalizers.
  s.Create("/api/v1/namespaces", {{"metadata", {{"name", "team"}}}});
  const std::string ns = Envelope("v1", "Namespace", LenField(1, LenField(1, "team")) + LenField(2, ""));
  HttpResponse finalized = s.Call("PUT", "/api/v1/namespaces/team/finalize", ns, kProtobuf);
  CHECK_MESSAGE(finalized.status == 200, finalized.body);
  const json spec = Server::Body(finalized)["spec"];
  CHECK(spec.value("finalizers", json::array()).empty());
  // The same as the JSON body does.
  s.Create("/api/v1/namespaces", {{"metadata", {{"name", "team2"}}}});
  HttpResponse as_json = s.Call("PUT", "/api/v1/namespaces/team2/finalize", R"({"metadata":{"name":"team2"},"spec":{}})");
  CHECK(as_json.status == 200);
  CHECK(Server::Body(as_json)["spec"] == spec);
}

TEST_CASE("every error Status carries details: what is known, {} otherwise") {
  Server s;
  s.Create(kSecrets, {{"metadata", {{"name", "dup"}}}});
  struct Case {
    const char* what;
    HttpResponse response;
    int code;
    json details;
  };
  const Case cases[] = {
      {"404 of an object", s.Call("GET", std::string(kSecrets) + "/absent"), 404,
       {{"name", "absent"}, {"kind", "secrets"}}},
      {"404 of a group's object", s.Call("GET", "/apis/apps/v1/namespaces/default/deployments/absent"), 404,
       {{"name", "absent"}, {"group", "apps"}, {"kind", "deployments"}}},
      {"404 of an unknown resource", s.Call("GET", "/api/v1/namespaces/default/nopes"), 404, json::object()},
      {"409 AlreadyExists", s.Call("POST", kSecrets, R"({"metadata":{"name":"dup"}})"), 409,
       {{"name", "dup"}, {"kind", "secrets"}}},
      {"400 malformed body", s.Call("POST", kSecrets, "{bad"), 400, json::object()},
      {"405 create on a named path (no such route)", s.Call("POST", std::string(kSecrets) + "/dup", "{}"), 405,
       json::object()},
      {"406 unacceptable", s.Call("GET", std::string(kSecrets) + "/dup", "", "", "application/xml"), 406, json::object()},
      {"415 unknown media type", s.Call("POST", kSecrets, "x", "text/html"), 415, json::object()},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    CHECK_MESSAGE(c.response.status == c.code, c.response.body);
    json body = Server::Body(c.response);
    REQUIRE(body.contains("details"));
    CHECK(body["details"] == c.details);
  }
  // 422 names the kind and carries the causes.
  HttpResponse invalid = s.Call("POST", kSecrets, R"({"metadata":{"name":"Bad_Name"}})");
  CHECK(invalid.status == 422);
  json details = Server::Body(invalid)["details"];
  CHECK(details["name"] == "Bad_Name");
  CHECK(details["kind"] == "Secret");
  CHECK(details["causes"][0]["field"] == "metadata.name");
}

TEST_CASE("paths nothing serves: a Status under kube's web services, its plain-text 404 elsewhere") {
  Server s;
  s.Create(kSecrets, {{"metadata", {{"name", "exists"}}}});
  auto status = [](const HttpResponse& r) {
    REQUIRE(r.content_type == "application/json");
    return json::parse(r.body);
  };
  auto plain = [](const HttpResponse& r) {
    CHECK(r.status == 404);
    CHECK(r.content_type == "text/plain; charset=utf-8");
    CHECK(r.body == "404 page not found\n");
  };
  // A method the path has no route for: go-restful's 405, without details.
  for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
           {"PUT", kSecrets},
           {"PATCH", kSecrets},
           {"POST", std::string(kSecrets) + "/exists"},
           {"DELETE", "/api/v1/componentstatuses/etcd-0"},
           {"POST", "/api/v1/namespaces/default/pods/p/status"}}) {
    CAPTURE(method);
    CAPTURE(path);
    HttpResponse r = s.Call(method, path, "{}");
    CHECK(r.status == 405);
    json body = status(r);
    CHECK(body["reason"] == "MethodNotAllowed");
    CHECK(body["message"] == "the server does not allow this method on the requested resource");
    CHECK(body["details"] == json::object());
  }
  // An unknown version of a built-in group, or of the core API: go-restful's 404 Status.
  for (const char* path : {"/apis/apps/v9", "/apis/apps/v9/deployments", "/api/v9"}) {
    CAPTURE(path);
    HttpResponse r = s.Call("GET", path);
    CHECK(r.status == 404);
    json body = status(r);
    CHECK(body["reason"] == "NotFound");
    CHECK(body["message"] == "the server could not find the requested resource");
  }
  // Groups kube has no web service for, and paths outside the API.
  plain(s.Call("GET", "/apis/nothing.example.com"));
  plain(s.Call("GET", "/apis/nothing.example.com/v1/things"));
  plain(s.Call("GET", "/nothing"));
  plain(s.Call("GET", "/healthz/nothing"));
  plain(s.Call("GET", "/readyz/nothing"));
  // Each health check has its own path.
  for (const char* path : {"/healthz/etcd", "/livez/ping", "/readyz/informer-sync"}) {
    CAPTURE(path);
    HttpResponse r = s.Call("GET", path);
    CHECK(r.status == 200);
    CHECK(r.body == "ok");
  }
  // kube-openapi's v3 handler: a bare 404 for a group version it has no document for.
  HttpResponse openapi = s.Call("GET", "/openapi/v3/apis/nothing.example.com/v1");
  CHECK(openapi.status == 404);
  CHECK(openapi.content_type.empty());
  CHECK(openapi.body.empty());
  // The namespace object's status subresource is served like any other.
  HttpResponse ns_status = s.Call("GET", "/api/v1/namespaces/default/status");
  CHECK(ns_status.status == 200);
  CHECK(json::parse(ns_status.body)["metadata"]["name"] == "default");
}

TEST_CASE("a watch ERROR event's Status carries details too (410 for a resourceVersion too old)") {
  // A watch cache that keeps only the last 10 events, so the first ones fall out of its window.
  registry::RegistryOptions options;
  options.cacher.min_event_capacity = options.cacher.max_event_capacity = 10;
  options.cacher.events_history_window = std::chrono::milliseconds(0);
  Server s(options);
  const char* cms = "/api/v1/namespaces/default/configmaps";
  for (int i = 0; i < 30; ++i) s.Create(cms, {{"metadata", {{"name", "cm" + std::to_string(i)}}}});
  // A consistent list waits until the cache has seen every write.
  REQUIRE(s.Call("GET", cms).status == 200);
  HttpResponse watch = s.Call("GET", std::string(cms) + "?watch=1&resourceVersion=2&timeoutSeconds=5");
  json event;
  if (watch.stream) {
    std::string chunk;
    for (int i = 0; i < 20 && chunk.empty(); ++i) {
      if (watch.stream->Next(&chunk) == ResponseStream::Step::kEnd) break;
    }
    watch.stream->Close();
    REQUIRE_FALSE(chunk.empty());
    event = json::parse(chunk);
  } else {
    event = {{"type", "ERROR"}, {"object", Server::Body(watch)}};
  }
  CHECK(event["type"] == "ERROR");
  CHECK(event["object"]["code"] == 410);
  CHECK(event["object"]["reason"] == "Expired");
  REQUIRE(event["object"].contains("details"));
  CHECK(event["object"]["details"] == json::object());
}

TEST_CASE("a protobuf error Status keeps its details, empty or not") {
  Server s;
  HttpResponse absent = s.Call("GET", std::string(kSecrets) + "/absent", "", "", kProtobuf);
  REQUIRE(absent.content_type == kProtobuf);
  CHECK(Server::Body(absent)["details"] == json{{"name", "absent"}, {"kind", "secrets"}});
  HttpResponse unknown = s.Call("GET", "/api/v1/namespaces/default/nopes", "", "", kProtobuf);
  REQUIRE(unknown.content_type == kProtobuf);
  json body = Server::Body(unknown);
  REQUIRE(body.contains("details"));  // an empty StatusDetails message: Go's pointer is non-nil
  CHECK(body["details"] == json::object());
}

}  // namespace kube::endpoints
