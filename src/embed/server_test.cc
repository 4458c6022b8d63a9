// The embedding API as a test fixture uses it: start in-process, plain HTTP calls, kubeconfig,
// manifests, TLS, several servers, restart.
#include "kube_apiserver_lite/server.h"

#include <doctest/doctest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <mutex>
#include <thread>

namespace {

const std::string kTestdata = KUBE_TESTDATA_DIR;

struct Url {
  std::string host;
  int port = 0;
};
Url Parse(const std::string& url) {
  const size_t scheme = url.find("://") + 3;
  const size_t colon = url.rfind(':');
  return {url.substr(scheme, colon - scheme), std::stoi(url.substr(colon + 1))};
}

httplib::Result Get(const kube_apiserver_lite::Server& server, const std::string& path) {
  const Url u = Parse(server.url());
  httplib::Client client(u.host, u.port);
  return client.Get(path);
}

TEST_CASE("a default server serves plain HTTP on a free loopback port with no credentials") {
  kube_apiserver_lite::Server server;
  CHECK(!server.running());
  CHECK(server.url().empty());
  REQUIRE(server.Start().ok());
  CHECK(server.running());
  CHECK(server.url().starts_with("http://127.0.0.1:"));
  CHECK(Parse(server.url()).port > 0);
  auto ns = Get(server, "/api/v1/namespaces/default");
  REQUIRE(ns);
  CHECK(ns->status == 200);
  CHECK(ns->body.find("\"name\":\"default\"") != std::string::npos);
  CHECK(server.start_micros() > 0);
  CHECK(server.loaded_objects() == 0);

  const auto second_start = server.Start();
  CHECK(second_start.reason() == "Conflict");

  // The kubeconfig names the server; plain HTTP needs insecure-skip-tls-verify.
  const std::string kubeconfig = server.kubeconfig();
  CHECK(kubeconfig.find("server: " + server.url() + "\n") != std::string::npos);
  CHECK(kubeconfig.find("insecure-skip-tls-verify: true") != std::string::npos);
  const auto path = std::filesystem::temp_directory_path() / ("embed_test_kubeconfig." + std::to_string(::getpid()));
  REQUIRE(server.WriteKubeconfig(path.string()).ok());
  std::stringstream written;
  written << std::ifstream(path).rdbuf();
  CHECK(written.str() == kubeconfig);
  std::filesystem::remove(path);

  server.Stop();
  CHECK(!server.running());
  CHECK(server.url().empty());
  CHECK(server.WriteKubeconfig(path.string()).reason() == "BadRequest");
}

TEST_CASE("manifests are created before Start() returns, and LoadManifests adds more later") {
  kube_apiserver_lite::Options options;
  options.manifests = {kTestdata + "/crds", kTestdata + "/resources"};
  kube_apiserver_lite::Server server(options);
  REQUIRE(server.Start().ok());
  CHECK(server.loaded_objects() > 10);
  auto route = Get(server, "/apis/net.fleet.example.com/v1/namespaces/fleet-demo/routes/api");
  REQUIRE(route);
  CHECK(route->status == 200);

  kube_apiserver_lite::LoadResult result;
  REQUIRE(server.LoadManifests({kTestdata + "/preload/canary-bundle.yaml"}, &result).ok());
  CHECK(result.created == 5);
  CHECK(result.unchanged == 0);
  auto canary = Get(server, "/apis/deploy.fleet.example.com/v1alpha1/namespaces/fleet-canary/canaries/web");
  REQUIRE(canary);
  CHECK(canary->status == 200);
  CHECK(canary->body.find("\"steps\":[{\"weight\":100}]") != std::string::npos);

  const auto bad = server.LoadManifests({kTestdata + "/preload-invalid/bad-resource.yaml"}, &result);
  CHECK(bad.reason() == "Invalid");
  CHECK(bad.message().find("bad-resource.yaml\" (document 2)") != std::string::npos);
  // Document 1 went in before document 2 was refused.
  auto ns = Get(server, "/api/v1/namespaces/fleet-broken");
  REQUIRE(ns);
  CHECK(ns->status == 200);
}

TEST_CASE("Start() fails with kube's reason on a bad manifest or flag, and the port is not left open") {
  kube_apiserver_lite::Options options;
  options.manifests = {kTestdata + "/preload-invalid/unknown-kind.yaml"};
  kube_apiserver_lite::Server server(options);
  const auto s = server.Start();
  CHECK(s.reason() == "NotFound");
  CHECK(s.message().find("no matches for kind \"Gizmo\"") != std::string::npos);
  CHECK(!server.running());

  kube_apiserver_lite::Options flags;
  flags.extra_flags = {"--no-such-flag"};
  kube_apiserver_lite::Server unknown(flags);
  const auto f = unknown.Start();
  CHECK(f.reason() == "BadRequest");
  CHECK(f.message() == "unknown flag: --no-such-flag");
}

TEST_CASE("extra flags and authorization modes reach the server") {
  kube_apiserver_lite::Options options;
  options.extra_flags = {"--runtime-config=batch/v1=false"};
  kube_apiserver_lite::Server server(options);
  REQUIRE(server.Start().ok());
  auto jobs = Get(server, "/apis/batch/v1/jobs");
  REQUIRE(jobs);
  CHECK(jobs->status == 404);
}

TEST_CASE("TLS: an https URL, and a kubeconfig with the CA and an admin client certificate") {
  kube_apiserver_lite::Options options;
  options.tls = true;
  options.authorization_modes = {"RBAC"};
  kube_apiserver_lite::Server server(options);
  REQUIRE(server.Start().ok());
  CHECK(server.url().starts_with("https://127.0.0.1:"));
  const std::string kubeconfig = server.kubeconfig();
  CHECK(kubeconfig.find("certificate-authority-data: ") != std::string::npos);
  CHECK(kubeconfig.find("client-certificate-data: ") != std::string::npos);
  CHECK(kubeconfig.find("client-key-data: ") != std::string::npos);
  // Without credentials under RBAC: kube's 403 for system:anonymous.
  const Url u = Parse(server.url());
  httplib::SSLClient client(u.host, u.port);
  client.enable_server_certificate_verification(false);
  auto r = client.Get("/api/v1/namespaces");
  REQUIRE(r);
  CHECK(r->status == 403);
  CHECK(r->body.find("User \\\"system:anonymous\\\" cannot list resource \\\"namespaces\\\"") != std::string::npos);
}

TEST_CASE("several servers in one process, each with its own state, and a stopped server starts again fresh") {
  kube_apiserver_lite::Server a, b;
  REQUIRE(a.Start().ok());
  REQUIRE(b.Start().ok());
  CHECK(a.url() != b.url());
  const Url ua = Parse(a.url());
  httplib::Client client(ua.host, ua.port);
  auto created = client.Post("/api/v1/namespaces/default/configmaps",
                             R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"only-in-a"}})",
                             "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
  CHECK(Get(a, "/api/v1/namespaces/default/configmaps/only-in-a")->status == 200);
  CHECK(Get(b, "/api/v1/namespaces/default/configmaps/only-in-a")->status == 404);

  a.Stop();
  REQUIRE(a.Start().ok());
  CHECK(Get(a, "/api/v1/namespaces/default/configmaps/only-in-a")->status == 404);
}

}  // namespace

namespace {

int Post(const kube_apiserver_lite::Server& server, const std::string& path, const std::string& body) {
  const Url u = Parse(server.url());
  httplib::Client client(u.host, u.port);
  auto r = client.Post(path, body, "application/json");
  return r ? r->status : -1;
}

std::string ConfigMap(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("}})";
}

TEST_CASE("Reset returns to the state after Start() (preloaded manifests included), snapshots save and restore") {
  kube_apiserver_lite::Options options;
  options.manifests = {kTestdata + "/preload/canary-bundle.yaml"};
  kube_apiserver_lite::Server server(options);
  REQUIRE(server.Start().ok());
  const std::string cms = "/api/v1/namespaces/default/configmaps";
  CHECK(Post(server, cms, ConfigMap("before-save")) == 201);
  REQUIRE(server.SaveSnapshot("one").ok());
  CHECK(Post(server, cms, ConfigMap("after-save")) == 201);

  REQUIRE(server.RestoreSnapshot("one").ok());
  CHECK(Get(server, cms + "/before-save")->status == 200);
  CHECK(Get(server, cms + "/after-save")->status == 404);

  REQUIRE(server.Reset().ok());
  CHECK(Get(server, cms + "/before-save")->status == 404);
  // The preloaded CRD is still served and its objects are there.
  CHECK(Get(server, "/apis/deploy.fleet.example.com/v1alpha1/namespaces/fleet-canary/canaries/api")->status == 200);
  // A name used before the reset can be used again.
  CHECK(Post(server, cms, ConfigMap("after-save")) == 201);

  CHECK(server.RestoreSnapshot("never-saved").reason() == "NotFound");
  server.Stop();
  CHECK(server.Reset().reason() == "BadRequest");
}

TEST_CASE("a watch open across Reset ends with a 410 ERROR event, as after a compaction") {
  kube_apiserver_lite::Server server;
  REQUIRE(server.Start().ok());
  const Url u = Parse(server.url());
  std::mutex mu;
  std::string events;  // guarded by mu
  std::thread watcher([&] {
    httplib::Client client(u.host, u.port);
    client.set_read_timeout(std::chrono::seconds(20));
    client.Get("/api/v1/namespaces/default/configmaps?watch=true", [&](const char* data, size_t n) {
      std::lock_guard<std::mutex> lock(mu);
      events.append(data, n);
      return true;
    });
  });
  auto seen = [&](const std::string& what) {
    std::lock_guard<std::mutex> lock(mu);
    return events.find(what) != std::string::npos;
  };
  // The watch is open once it reports the object created after it started.
  for (int i = 0; i < 200 && !seen("first"); ++i) {
    if (i % 20 == 0) Post(server, "/api/v1/namespaces/default/configmaps", ConfigMap("first" + std::to_string(i)));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  REQUIRE(server.Reset().ok());
  watcher.join();  // the server ends the stream
  CHECK(events.find("{\"type\":\"ADDED\"") != std::string::npos);
  CHECK(events.find("{\"type\":\"ERROR\"") != std::string::npos);
  CHECK(events.find("\"code\":410") != std::string::npos);
}

}  // namespace
