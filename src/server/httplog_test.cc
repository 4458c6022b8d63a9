// kube's httplog request line: Go's duration format, the klog line, and the server writing one
// line per request at -v 2 (after the answer; for a watch when its stream ends), none below.
#include "server/httplog.h"

#include <doctest/doctest.h>
#include <httplib.h>

#include <mutex>
#include <regex>
#include <thread>

#include "server/http_server.h"

namespace kube::server {
namespace {

using namespace std::chrono_literals;

TEST_CASE("GoDuration is Go's time.Duration.String()") {
  CHECK(GoDuration(0ns) == "0s");
  CHECK(GoDuration(850ns) == "850ns");
  CHECK(GoDuration(1500ns) == "1.5\xc2\xb5s");
  CHECK(GoDuration(12000ns) == "12\xc2\xb5s");
  CHECK(GoDuration(1234567ns) == "1.234567ms");
  CHECK(GoDuration(2ms) == "2ms");
  CHECK(GoDuration(2500ms) == "2.5s");
  CHECK(GoDuration(90s) == "1m30s");
  CHECK(GoDuration(3723s) == "1h2m3s");
  CHECK(GoDuration(2h) == "2h0m0s");
  CHECK(GoDuration(-1500ms) == "-1.5s");
}

TEST_CASE("FormatHttpLog writes kube's klog line") {
  HttpLogEntry e{.verb = "LIST",
                 .uri = "/api/v1/pods?limit=500",
                 .user_agent = "kubectl/v1.36.0 (linux/amd64) kubernetes/abc",
                 .content_type = "",
                 .audit_id = "",
                 .src_ip = "127.0.0.1:53412",
                 .latency = 1234567ns,
                 .status = 200};
  const std::string line = FormatHttpLog(e, std::chrono::system_clock::now());
  const std::regex want(
      R"(I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ httplog\.go:\d+\] "HTTP" verb="LIST" URI="/api/v1/pods\?limit=500" )"
      R"(latency="1\.234567ms" userAgent="kubectl/v1\.36\.0 \(linux/amd64\) kubernetes/abc" contentType="" audit-ID="" )"
      R"(srcIP="127\.0\.0\.1:53412" resp=200\n)");
  CHECK_MESSAGE(std::regex_match(line, want), line);
  // Values are quoted as Go quotes them.
  e.uri = "/a\"b";
  CHECK(FormatHttpLog(e, std::chrono::system_clock::now()).find(R"(URI="/a\"b")") != std::string::npos);
}

// A stream that sends one chunk and ends.
class OneChunk final : public endpoints::ResponseStream {
 public:
  Step Next(std::string* out) override {
    if (sent_) return Step::kEnd;
    sent_ = true;
    *out = "{\"type\":\"ADDED\"}\n";
    return Step::kData;
  }
  void Close() override {}

 private:
  bool sent_ = false;
};

struct LoggingServer {
  explicit LoggingServer(int verbosity)
      : http(ListenerOptions{.port = 0,
                             .verbosity = verbosity,
                             .log = [this](const std::string& line) {
                               std::lock_guard lock(mu);
                               lines.push_back(line);
                             }},
             [](const endpoints::HttpRequest& r) {
               endpoints::HttpResponse out;
               if (r.raw_query.find("watch=true") != std::string::npos) {
                 out.stream = std::make_shared<OneChunk>();
               } else if (r.method == "POST") {
                 out.status = 201;
               }
               out.body = "{}";
               return out;
             }) {
    auto p = http.Start();
    REQUIRE(p.ok());
    port = *p;
  }
  std::vector<std::string> Lines(size_t want) {
    for (int i = 0; i < 200; ++i) {
      {
        std::lock_guard lock(mu);
        if (lines.size() >= want) return lines;
      }
      std::this_thread::sleep_for(10ms);
    }
    std::lock_guard lock(mu);
    return lines;
  }
  std::mutex mu;
  std::vector<std::string> lines;
  HttpServer http;
  int port = 0;
};

TEST_CASE("the server logs every request in kube's format at -v 2, with kube's verb") {
  LoggingServer s(2);
  httplib::Client client("127.0.0.1", s.port);
  client.set_default_headers({{"User-Agent", "kubectl/v1.36.0 (linux/amd64) kubernetes/test"}});
  REQUIRE(client.Get("/api/v1/namespaces/default/pods?limit=5"));
  REQUIRE(client.Get("/api/v1/namespaces/default/pods/p1"));
  REQUIRE(client.Post("/api/v1/namespaces/default/configmaps", "{}", "application/json"));
  REQUIRE(client.Patch("/api/v1/namespaces/default/configmaps/c", "{}", "application/apply-patch+yaml"));
  auto watch = client.Get("/api/v1/namespaces/default/pods?watch=true");
  REQUIRE(watch);
  CHECK(watch->body == "{\"type\":\"ADDED\"}\n");
  const auto lines = s.Lines(5);
  REQUIRE(lines.size() == 5);
  CHECK(lines[0].find(R"("HTTP" verb="LIST" URI="/api/v1/namespaces/default/pods?limit=5" latency=")") !=
        std::string::npos);
  // audit-ID is the Audit-Id the answer carried (a generated UUID: the client sent none).
  CHECK(std::regex_search(lines[0], std::regex(R"(userAgent="kubectl/v1\.36\.0 \(linux/amd64\) kubernetes/test" )"
                                               R"(contentType="" audit-ID="[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-)"
                                               R"([89ab][0-9a-f]{3}-[0-9a-f]{12}" srcIP="127\.0\.0\.1:)")));
  CHECK(lines[0].ends_with(" resp=200\n"));
  CHECK(lines[1].find(R"(verb="GET" URI="/api/v1/namespaces/default/pods/p1")") != std::string::npos);
  CHECK(lines[2].find(R"(verb="POST")") != std::string::npos);
  CHECK(lines[2].find(R"(contentType="application/json")") != std::string::npos);
  CHECK(lines[2].ends_with(" resp=201\n"));
  CHECK(lines[3].find(R"(verb="APPLY")") != std::string::npos);
  // The watch, logged when its stream ended.
  CHECK(lines[4].find(R"(verb="WATCH" URI="/api/v1/namespaces/default/pods?watch=true")") != std::string::npos);
  for (const auto& line : lines) CHECK(line.starts_with("I"));
}

TEST_CASE("below -v 2 there is no kube-format request log") {
  LoggingServer s(1);
  httplib::Client client("127.0.0.1", s.port);
  REQUIRE(client.Get("/api/v1/pods"));
  std::this_thread::sleep_for(50ms);
  CHECK(s.Lines(0).empty());
}

}  // namespace
}  // namespace kube::server
