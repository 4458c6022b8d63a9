// The HTTP server against raw sockets: how request bodies are framed and bounded, and when a
// connection is reused. Every read of an answer gives up after a few seconds, so a server that
// waits for a body nobody sends fails here instead of hanging.
#include "server/http_server.h"

#include <arpa/inet.h>
#include <doctest/doctest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <string>

namespace kube::server {

namespace {

constexpr size_t kLimit = 4096;  // max_request_body_bytes of the server under test

// A server whose handler answers "<method> <body size>" and counts the requests it saw.
struct TestServer {
  TestServer()
      : http(ServerOptions{.port = 0, .max_request_body_bytes = kLimit},
             [this](const endpoints::HttpRequest& r) {
               ++handled;
               endpoints::HttpResponse out;
               out.content_type = "text/plain";
               out.body = r.method + " " + std::to_string(r.body.size());
               return out;
             }) {
    auto p = http.Start();
    REQUIRE(p.ok());
    port = *p;
  }
  ~TestServer() { http.Stop(); }

  std::atomic<int> handled{0};
  HttpServer http;
  int port = 0;
};

class Client {
 public:
  explicit Client(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    REQUIRE(::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  }
  ~Client() { ::close(fd_); }

  // False once the server stopped reading and reset or closed the connection.
  bool Send(const std::string& data) {
    size_t sent = 0;
    while (sent < data.size()) {
      const ssize_t n = ::send(fd_, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
      if (n <= 0) return false;
      sent += static_cast<size_t>(n);
    }
    return true;
  }
  void CloseWrite() { ::shutdown(fd_, SHUT_WR); }

  // One response: the head and a Content-Length body. Empty if nothing complete arrives within
  // `timeout`.
  std::string ReadResponse(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (true) {
      const size_t head_end = buffer_.find("\r\n\r\n");
      if (head_end != std::string::npos) {
        size_t length = 0;
        const size_t cl = buffer_.find("Content-Length: ");
        if (cl != std::string::npos && cl < head_end) length = std::stoul(buffer_.substr(cl + 16));
        if (buffer_.size() >= head_end + 4 + length) {
          std::string response = buffer_.substr(0, head_end + 4 + length);
          buffer_.erase(0, response.size());
          return response;
        }
      }
      if (!Fill(deadline)) return "";
    }
  }

  // True if the server closes the connection (end of file) within `timeout`, with nothing more
  // to read.
  bool ClosedByServer(std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const size_t before = buffer_.size();
    while (Fill(deadline)) {
    }
    return eof_ && buffer_.size() == before;
  }

 private:
  bool Fill(std::chrono::steady_clock::time_point deadline) {
    if (eof_) return false;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fd_, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) return false;
    char buf[65536];
    const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0) {
      eof_ = true;
      return false;
    }
    buffer_.append(buf, static_cast<size_t>(n));
    return true;
  }

  int fd_ = -1;
  std::string buffer_;
  bool eof_ = false;
};

std::string Body(const std::string& response) { return response.substr(response.find("\r\n\r\n") + 4); }

}  // namespace

TEST_CASE("http: a POST without Content-Length has an empty body and is answered at once") {
  TestServer s;
  Client c(s.port);
  // What `curl -X POST URL` sends.
  REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\n\r\n"));
  std::string r = c.ReadResponse();
  REQUIRE_FALSE(r.empty());
  CHECK(Body(r) == "POST 0");
  // The connection stays usable.
  REQUIRE(c.Send("PUT /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nabc"));
  CHECK(Body(c.ReadResponse()) == "PUT 3");
  // Leading zeros are still a number, as net/http reads it.
  REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 0000000000000000000002\r\n\r\nab"));
  CHECK(Body(c.ReadResponse()) == "POST 2");
  // An empty Content-Length means no body too.
  REQUIRE(c.Send("PATCH /x HTTP/1.1\r\nHost: h\r\nContent-Length:\r\n\r\n"));
  CHECK(Body(c.ReadResponse()) == "PATCH 0");
}

TEST_CASE("http: every answer carries an Audit-Id, the client's own when it sent one") {
  TestServer s;
  Client c(s.port);
  auto audit_id = [](const std::string& r) {
    const size_t at = r.find("\r\nAudit-Id: ");
    if (at == std::string::npos || at > r.find("\r\n\r\n")) return std::string();
    return r.substr(at + 12, r.find("\r\n", at + 2) - at - 12);
  };
  REQUIRE(c.Send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n"));
  const std::string first = audit_id(c.ReadResponse());
  CHECK(first.size() == 36);
  REQUIRE(c.Send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n"));
  const std::string second = audit_id(c.ReadResponse());
  CHECK(second.size() == 36);
  CHECK(first != second);
  REQUIRE(c.Send("GET /x HTTP/1.1\r\nHost: h\r\nAudit-ID: my-trace-1\r\n\r\n"));
  CHECK(audit_id(c.ReadResponse()) == "my-trace-1");
  // A body refused for its size is the handler chain's answer too.
  REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000000\r\n\r\n"));
  CHECK(audit_id(c.ReadResponse()).size() == 36);
}

TEST_CASE("http: an unusable Content-Length is 400 at once, and the connection closes") {
  for (const char* value : {"-1", "+3", "0x10", "1 2", "9223372036854775808"}) {
    TestServer s;
    Client c(s.port);
    REQUIRE(c.Send(std::string("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: ") + value + "\r\n\r\n"));
    std::string r = c.ReadResponse();
    CHECK_MESSAGE(r.rfind("HTTP/1.1 400 ", 0) == 0, value);
    CHECK(Body(r) == "400 Bad Request");
    CHECK(c.ClosedByServer());
    CHECK(s.handled == 0);
  }
  TestServer s;
  Client c(s.port);
  REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"));
  CHECK(c.ReadResponse().rfind("HTTP/1.1 400 ", 0) == 0);
  Client d(s.port);
  REQUIRE(d.Send("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n"));
  CHECK(d.ReadResponse().rfind("HTTP/1.1 400 ", 0) == 0);
}

TEST_CASE("http: a Content-Length over the limit is 413 before the body is read") {
  TestServer s;
  Client c(s.port);
  // Far more than will ever be sent: the answer must not wait for it.
  REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 1000000000\r\n\r\npartial"));
  std::string r = c.ReadResponse();
  REQUIRE(r.rfind("HTTP/1.1 413 ", 0) == 0);
  CHECK(Body(r).find(R"("message":"Request entity too large: limit is 4096")") != std::string::npos);
  CHECK(Body(r).find(R"("reason":"RequestEntityTooLarge")") != std::string::npos);
  CHECK(c.ClosedByServer());
  CHECK(s.handled == 0);
}

TEST_CASE("http: a chunked body is refused with 413 as soon as it passes the limit") {
  TestServer s;
  {
    Client c(s.port);
    REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"));
    const std::string chunk = "400\r\n" + std::string(1024, 'a') + "\r\n";
    for (size_t sent = 0; sent <= kLimit; sent += 1024) REQUIRE(c.Send(chunk));
    // The body has not ended, yet the answer comes.
    std::string r = c.ReadResponse();
    REQUIRE(r.rfind("HTTP/1.1 413 ", 0) == 0);
    CHECK(Body(r).find("Request entity too large: limit is 4096") != std::string::npos);
    CHECK(c.ClosedByServer());
  }
  {
    // Within the limit, chunked bodies are read whole, and the connection is reused.
    Client c(s.port);
    REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
    CHECK(Body(c.ReadResponse()) == "POST 5");
    // A DELETE's chunked body is read too (httplib skips DELETE bodies without a Content-Length).
    REQUIRE(c.Send("DELETE /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n"));
    CHECK(Body(c.ReadResponse()) == "DELETE 2");
    REQUIRE(c.Send("GET /x HTTP/1.1\r\nHost: h\r\n\r\n"));
    CHECK(Body(c.ReadResponse()) == "GET 0");
  }
  CHECK(s.handled == 3);
}

TEST_CASE("http: a body nobody reads is not taken for the next request") {
  TestServer s;
  Client c(s.port);
  // httplib never reads a GET body; "GET /y" inside it must not be served as a request.
  const std::string smuggled = "GET /y HTTP/1.1\r\nHost: h\r\n\r\n";
  REQUIRE(c.Send("GET /x HTTP/1.1\r\nHost: h\r\nContent-Length: " + std::to_string(smuggled.size()) + "\r\n\r\n" +
                 smuggled));
  CHECK(Body(c.ReadResponse()) == "GET 0");
  CHECK(c.ClosedByServer());
  CHECK(s.handled == 1);
}

TEST_CASE("http: a request head over 1 MiB is 431, as net/http answers it") {
  TestServer s;
  Client c(s.port);
  std::string head = "GET /x HTTP/1.1\r\nHost: h\r\n";
  while (head.size() < (1u << 20) + 8192) head += "X-Filler: " + std::string(4000, 'f') + "\r\n";
  c.Send(head + "\r\n");  // the server may stop reading before all of it is sent
  std::string r = c.ReadResponse();
  CHECK(r.rfind("HTTP/1.1 431 Request Header Fields Too Large", 0) == 0);
  CHECK(c.ClosedByServer());
  CHECK(s.handled == 0);
}

TEST_CASE("http: a client that half-closes after its request still gets the answer") {
  TestServer s;
  Client c(s.port);
  REQUIRE(c.Send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nab"));
  c.CloseWrite();
  CHECK(Body(c.ReadResponse()) == "POST 2");
  // A body cut short by the client's close is a 400, not a wait for the read timeout.
  Client d(s.port);
  REQUIRE(d.Send("POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\nab"));
  d.CloseWrite();
  CHECK(d.ReadResponse().rfind("HTTP/1.1 400 ", 0) == 0);
}

}  // namespace kube::server
