// A fleet operator's tests with an in-process API server: one server for the whole suite,
// started with the operator's CRDs and resources, reset to that state before every test case
// (milliseconds, instead of a new kube-apiserver + etcd per test).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "kube_apiserver_lite/server.h"

namespace {

// The suite's server, started on first use.
kube_apiserver_lite::Server& Cluster() {
  static kube_apiserver_lite::Server* server = [] {
    kube_apiserver_lite::Options options;  // plain HTTP on a free loopback port, in memory
    options.manifests = {FLEET_TESTDATA_DIR "/crds", FLEET_TESTDATA_DIR "/resources"};
    auto* s = new kube_apiserver_lite::Server(options);
    if (auto status = s->Start(); !status.ok()) {
      FAIL("cannot start kube-apiserver-lite: " << status.ToString());
    }
    return s;
  }();
  return *server;
}

httplib::Client Client() {
  const std::string url = Cluster().url();  // http://127.0.0.1:PORT
  const size_t colon = url.rfind(':');
  return httplib::Client(url.substr(7, colon - 7), std::stoi(url.substr(colon + 1)));
}

// Every test case starts from the state right after Start().
struct Fresh {
  Fresh() {
    auto s = Cluster().Reset();
    REQUIRE_MESSAGE(s.ok(), s.ToString());
  }
};

const char kRoute[] = R"({"apiVersion":"net.fleet.example.com/v1","kind":"Route",
  "metadata":{"name":"checkout","namespace":"fleet-demo"},
  "spec":{"hostname":"checkout.acme.example","port":443,"backends":[{"name":"checkout-v1","port":8080}]}})";
const char kRoutes[] = "/apis/net.fleet.example.com/v1/namespaces/fleet-demo/routes";

TEST_CASE_FIXTURE(Fresh, "the preloaded operator manifests are there") {
  auto client = Client();
  auto tenant = client.Get("/apis/fleet.example.com/v1/tenants/acme");
  REQUIRE(tenant);
  CHECK(tenant->status == 200);
  auto routes = client.Get(kRoutes);
  REQUIRE(routes);
  CHECK(routes->status == 200);
  CHECK(routes->body.find("\"name\":\"api\"") != std::string::npos);
}

TEST_CASE_FIXTURE(Fresh, "a created Route gets the CRD's defaults") {
  auto client = Client();
  auto created = client.Post(kRoutes, kRoute, "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
  auto got = client.Get(std::string(kRoutes) + "/checkout");
  REQUIRE(got);
  CHECK(got->status == 200);
  CHECK(got->body.find("\"tier\":\"internal\"") != std::string::npos);
}

TEST_CASE_FIXTURE(Fresh, "Reset removed the previous test's Route, so it can be created again") {
  auto client = Client();
  CHECK(client.Get(std::string(kRoutes) + "/checkout")->status == 404);
  auto created = client.Post(kRoutes, kRoute, "application/json");
  REQUIRE(created);
  CHECK(created->status == 201);
}

TEST_CASE_FIXTURE(Fresh, "a watch sees the Route being created") {
  // A watch without a resourceVersion starts with the existing Routes (synthetic ADDED events),
  // then follows changes.
  std::mutex mu;
  std::condition_variable cv;
  std::string events;
  std::atomic<bool> done{false};
  std::thread watcher([&] {
    auto client = Client();
    client.set_read_timeout(std::chrono::seconds(10));
    client.Get(std::string(kRoutes) + "?watch=true",
               [&](const char* data, size_t n) {
                 std::lock_guard<std::mutex> lock(mu);
                 events.append(data, n);
                 cv.notify_all();
                 return !done.load();
               });
  });
  {
    // The existing Routes first: the watch is open.
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, std::chrono::seconds(10), [&] { return events.find("\"name\":\"api\"") != std::string::npos; });
    CHECK(events.find("\"name\":\"api\"") != std::string::npos);
  }
  auto created = Client().Post(kRoutes, kRoute, "application/json");
  CHECK((created && created->status == 201));
  {
    std::unique_lock<std::mutex> lock(mu);
    cv.wait_for(lock, std::chrono::seconds(10),
                [&] { return events.find("\"name\":\"checkout\"") != std::string::npos; });
    CHECK(events.find("{\"type\":\"ADDED\"") != std::string::npos);
    CHECK(events.find("\"name\":\"checkout\"") != std::string::npos);
  }
  done = true;
  // One more event makes the receiver return false and the watch end.
  Client().Delete(std::string(kRoutes) + "/checkout");
  watcher.join();
}

}  // namespace
