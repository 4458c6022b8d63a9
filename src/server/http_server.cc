#include "server/http_server.h"

#include <httplib.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <pthread.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <limits>
#include <cstdio>
#include <mutex>
#include <optional>
#include <vector>

#include "endpoints/instrumentation.h"
#include "server/connection.h"
#include "server/httplog.h"
#include "util/uuid.h"

namespace kube::server {

namespace {

// One thread per connection: a watch keeps its connection's thread for its whole life, so a
// fixed pool (8 threads by default) would stall every other client behind eight watches.
//
// The threads get large stacks (reserved, not committed): a request may carry values nested as
// deep as kube allows (10,000 levels), and copying or serialising them recurses once per level,
// which a sanitizer build's frames cannot fit into the default 8 MiB.
class ThreadPerConnection final : public httplib::TaskQueue {
 public:
  static constexpr size_t kStackBytes = 64u << 20;

  void enqueue(std::function<void()> fn) override {
    std::lock_guard lock(mu_);
    ReapFinishedLocked();
    auto task = std::make_unique<Task>(Task{std::move(fn), std::make_shared<std::atomic<bool>>(false)});
    auto done = task->done;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStackBytes);
    pthread_t thread;
    const int rc = pthread_create(&thread, &attr, &Run, task.get());
    pthread_attr_destroy(&attr);
    if (rc != 0) {
      task->fn();  // no thread to be had: serve the connection here rather than drop it
      return;
    }
    task.release();  // Run owns it now
    workers_.push_back(Worker{thread, done});
  }
  void shutdown() override {
    std::vector<Worker> workers;
    {
      std::lock_guard lock(mu_);
      workers.swap(workers_);
    }
    for (auto& w : workers) pthread_join(w.thread, nullptr);
  }

 private:
  struct Task {
    std::function<void()> fn;
    std::shared_ptr<std::atomic<bool>> done;
  };
  struct Worker {
    pthread_t thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  static void* Run(void* arg) {
    std::unique_ptr<Task> task(static_cast<Task*>(arg));
    task->fn();
    task->done->store(true);
    return nullptr;
  }
  void ReapFinishedLocked() {
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (it->done->load()) {
        pthread_join(it->thread, nullptr);
        it = workers_.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::mutex mu_;
  std::vector<Worker> workers_;
};

endpoints::HttpRequest Convert(const httplib::Request& req, std::string body, auth::UserInfo user) {
  endpoints::HttpRequest r;
  r.user = std::move(user);
  r.method = req.method;
  r.path = req.path;
  auto q = req.target.find('?');
  if (q != std::string::npos) r.raw_query = req.target.substr(q + 1);
  for (const auto& [k, v] : req.headers) r.headers.emplace(k, v);
  r.body = std::move(body);
  r.remote_addr = req.remote_addr;
  return r;
}

// Calls fn(fd, listening) for every TCP socket of this process whose local port is `port`: the
// server's listening socket and the connections it accepted. httplib keeps both private.
void ForEachServerSocket(int port, const std::function<void(int, bool)>& fn) {
  DIR* dir = opendir("/proc/self/fd");
  if (dir == nullptr) return;
  while (dirent* entry = readdir(dir)) {
    const int fd = std::atoi(entry->d_name);
    if (fd <= 2 || fd == dirfd(dir)) continue;
    struct stat st {};
    if (fstat(fd, &st) != 0 || !S_ISSOCK(st.st_mode)) continue;
    sockaddr_storage addr{};
    socklen_t len = sizeof addr;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) continue;
    int local_port = 0;
    if (addr.ss_family == AF_INET) local_port = ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
    if (addr.ss_family == AF_INET6) local_port = ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
    if (local_port != port) continue;
    int listening = 0;
    socklen_t opt_len = sizeof listening;
    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &opt_len);
    fn(fd, listening != 0);
  }
  closedir(dir);
}

constexpr const char* kInternalError =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",)"
    R"("message":"Internal error occurred: unexpected failure while serving the request",)"
    R"("reason":"InternalError","details":{"causes":[{"message":"unexpected failure while serving the request"}]},)"
    R"("code":500})";

std::string StatusBody(int code, std::string_view reason, std::string_view message) {
  return R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" +
         std::string(message) + R"(","reason":")" + std::string(reason) + R"(","details":{},"code":)" +
         std::to_string(code) + "}";
}

std::string TooLarge(size_t limit) {
  return StatusBody(413, "RequestEntityTooLarge", "Request entity too large: limit is " + std::to_string(limit));
}

// The Content-Type of a multipart request, hidden from httplib until its body is read. Requests
// of one connection are served one after another on its thread.
thread_local std::optional<std::string> multipart_content_type;

// How the request head says its body is framed (RFC 9112 §6.3, as net/http reads it).
struct BodyFraming {
  enum class Kind { kNone, kLength, kChunked, kMalformed };
  Kind kind = Kind::kNone;
  uint64_t length = 0;
};

BodyFraming ReadFraming(const httplib::Headers& headers) {
  BodyFraming f;
  auto te = headers.equal_range("Transfer-Encoding");
  if (te.first != te.second) {
    // net/http accepts exactly one coding, "chunked"; a Content-Length beside it is ignored.
    const bool chunked = std::next(te.first) == te.second && strcasecmp(te.first->second.c_str(), "chunked") == 0;
    f.kind = chunked ? BodyFraming::Kind::kChunked : BodyFraming::Kind::kMalformed;
    return f;
  }
  auto cl = headers.equal_range("Content-Length");
  std::optional<std::string> value;
  for (auto it = cl.first; it != cl.second; ++it) {
    std::string v = it->second;
    v.erase(0, v.find_first_not_of(" \t"));
    v.erase(v.find_last_not_of(" \t") + 1);
    if (value && *value != v) return BodyFraming{BodyFraming::Kind::kMalformed};  // smuggling guard
    value = std::move(v);
  }
  // No Content-Length (httplib drops an empty one) and no coding: a request without a body.
  if (!value || value->empty()) return f;
  // Decimal digits only, at most 2^63-1 (net/http's ParseUint(v, 10, 63)): not "-1", "+5", "0x10".
  constexpr uint64_t kMax = std::numeric_limits<int64_t>::max();
  uint64_t n = 0;
  for (char c : *value) {
    if (c < '0' || c > '9' || n > (kMax - static_cast<uint64_t>(c - '0')) / 10) {
      return BodyFraming{BodyFraming::Kind::kMalformed};
    }
    n = n * 10 + static_cast<uint64_t>(c - '0');
  }
  f.kind = BodyFraming::Kind::kLength;
  f.length = n;
  return f;
}

// Sets a request header before httplib reads the body (the request is httplib's own mutable
// object, passed to the pre-routing handler as const).
void SetRequestHeader(const httplib::Request& req, const char* name, std::string value) {
  auto& headers = const_cast<httplib::Headers&>(req.headers);
  headers.erase(name);
  headers.emplace(name, std::move(value));
}

// The HTTP server: httplib's request parsing and routing over our Connection (connection.h),
// which bounds request heads and never reuses a connection whose body was left unread.
class ApiHttpServer final : public httplib::Server {
 public:
  ApiHttpServer(ConnectionOptions options, std::shared_ptr<const TlsContext> tls)
      : options_(options), tls_(std::move(tls)) {}

 private:
  bool process_and_close_socket(socket_t sock) override {
    return Connection::Serve(
        sock, options_, [this] { return svr_sock_ == INVALID_SOCKET; },
        [this](httplib::Stream& strm, bool close_connection, bool& connection_closed) {
          return process_request(strm, close_connection, connection_closed, nullptr);
        },
        tls_.get());
  }

  const ConnectionOptions options_;
  const std::shared_ptr<const TlsContext> tls_;
};

// kube's answer to a request whose credentials are not valid.
constexpr const char* kUnauthorized =
    R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized",)"
    R"("reason":"Unauthorized","code":401})";

}  // namespace

struct HttpServer::Impl {
  explicit Impl(ListenerOptions o) : options(std::move(o)), server(ConnectionOptions{}, options.tls) {}

  ListenerOptions options;
  endpoints::Handler handler;
  ApiHttpServer server;
  std::thread listener;
  int port = 0;

  // Runs before httplib reads any body: settles how the body is framed, so that no request waits
  // for a body that is not coming and none larger than the limit is read.
  httplib::Server::HandlerResponse PreRoute(const httplib::Request& req, httplib::Response& res) {
    // No response compression: httplib gzips chunked JSON without flushing, which would hold back
    // watch events from every Go client (they all send Accept-Encoding: gzip).
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    // Nor partial answers: API responses ignore Range, as net/http handlers do.
    const_cast<httplib::Request&>(req).ranges.clear();
    Connection* conn = Connection::Current();
    const BodyFraming framing = ReadFraming(req.headers);
    const bool body_follows = framing.kind == BodyFraming::Kind::kChunked ||
                              framing.kind == BodyFraming::Kind::kMalformed ||
                              (framing.kind == BodyFraming::Kind::kLength && framing.length > 0);
    if (conn != nullptr) conn->EndHead(body_follows);
    switch (framing.kind) {
      case BodyFraming::Kind::kMalformed:
        // net/http's answer to a Content-Length or Transfer-Encoding it cannot use (it answers an
        // unknown transfer coding with 501; a client error is not a server failure here).
        res.status = 400;
        res.set_content("400 Bad Request", "text/plain; charset=utf-8");
        return httplib::Server::HandlerResponse::Handled;
      case BodyFraming::Kind::kLength:
        if (framing.length > options.max_request_body_bytes) {
          res.status = 413;
          SetAuditId(req, res);
          res.set_content(TooLarge(options.max_request_body_bytes), "application/json");
          return httplib::Server::HandlerResponse::Handled;
        }
        SetRequestHeader(req, "Content-Length", std::to_string(framing.length));
        break;
      case BodyFraming::Kind::kNone:
        // Without this httplib would read until the client closes the connection.
        SetRequestHeader(req, "Content-Length", "0");
        break;
      case BodyFraming::Kind::kChunked:
        // httplib skips the body of a DELETE without a Content-Length; the coding still wins.
        SetRequestHeader(req, "Content-Length", "0");
        break;
    }
    if (req.is_multipart_form_data()) {
      // httplib would parse the parts itself; the API treats the body as an unknown media type.
      multipart_content_type = req.get_header_value("Content-Type");
      SetRequestHeader(req, "Content-Type", "application/octet-stream");
    } else {
      multipart_content_type.reset();
    }
    return httplib::Server::HandlerResponse::Unhandled;
  }

  // A request that may carry a body: read it here, refusing it as soon as it passes the limit.
  void ServeWithBody(const httplib::Request& req, httplib::Response& res, const httplib::ContentReader& reader) {
    std::string body;
    bool too_large = false;
    const bool read = reader([&](const char* data, size_t n) {
      if (body.size() + n > options.max_request_body_bytes) {
        too_large = true;
        return false;
      }
      body.append(data, n);
      return true;
    });
    if (too_large) {
      res.status = 413;
      SetAuditId(req, res);
      res.set_content(TooLarge(options.max_request_body_bytes), "application/json");
      return;
    }
    if (!read) {  // broken chunk framing, a body cut short, undecodable Content-Encoding
      res.status = 400;
      res.set_content("400 Bad Request", "text/plain; charset=utf-8");
      return;
    }
    if (Connection* conn = Connection::Current()) conn->BodyRead();
    if (multipart_content_type) SetRequestHeader(req, "Content-Type", *multipart_content_type);
    Serve(req, res, std::move(body));
  }

  // The request's user, or false when its credentials are refused.
  bool Authenticate(const httplib::Request& req, auth::UserInfo* user) {
    if (!options.authenticate) {
      *user = InsecurePortUser();
      return true;
    }
    Connection* conn = Connection::Current();
    auth::Credentials creds;
    creds.authorization = req.get_header_value("Authorization");
    // A client certificate is verified once per connection: its later requests without an
    // Authorization header are the same user. A bearer token is authenticated on every request,
    // as kube does: its service account or bound object may be gone since the last one.
    const bool per_connection = creds.authorization.empty();
    if (per_connection && conn != nullptr && conn->cached_user() && conn->cached_user()->authorization.empty()) {
      *user = conn->cached_user()->user;
      return true;
    }
    if (conn != nullptr) creds.peer_certificates = conn->peer_certificates();
    auto result = options.authenticate(creds);
    if (!result.ok()) return false;
    *user = std::move(result->user);
    if (per_connection && conn != nullptr) conn->cached_user() = Connection::CachedUser{creds.authorization, *user};
    return true;
  }

  // kube's audit-init filter, outside authentication: every answer of the API's handler chain
  // carries the request's audit ID, the client's own Audit-ID header when it sent one.
  static std::string SetAuditId(const httplib::Request& req, httplib::Response& res) {
    std::string id = req.get_header_value("Audit-ID");
    if (id.empty()) id = NewUuid();
    res.set_header("Audit-Id", id);
    return id;
  }

  void Serve(const httplib::Request& req, httplib::Response& res, std::string body = {}) {
    const auto start = std::chrono::steady_clock::now();
    const std::string audit_id = SetAuditId(req, res);
    endpoints::HttpResponse out;
    try {
      auth::UserInfo user;
      if (Authenticate(req, &user)) {
        out = handler(Convert(req, std::move(body), std::move(user)));
      } else {
        out.status = 401;
        out.body = kUnauthorized;
      }
    } catch (...) {
      // The recovery filter: nothing a client sends may take the server down.
      out = endpoints::HttpResponse{};
      out.status = 500;
      out.body = kInternalError;
    }
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k.c_str(), v);
    const bool http_log = options.verbosity >= kHttpLogVerbosity;
    std::optional<HttpLogEntry> stream_log;
    if (http_log && out.stream) stream_log = LogEntry(req, res.status, audit_id);
    if (out.stream) {
      auto stream = out.stream;
      res.set_chunked_content_provider(
          out.content_type,
          [stream](size_t, httplib::DataSink& sink) -> bool {
            std::string chunk;
            switch (stream->Next(&chunk)) {
              case endpoints::ResponseStream::Step::kData:
                // An empty write would end the body without its terminating chunk.
                return chunk.empty() ? sink.is_writable() : sink.write(chunk.data(), chunk.size());
              case endpoints::ResponseStream::Step::kIdle:
                return sink.is_writable();  // notices a client that left
              case endpoints::ResponseStream::Step::kEnd:
                sink.done();
                return true;
            }
            return false;
          },
          [this, stream, entry = std::move(stream_log), start](bool) mutable {
            stream->Close();
            if (entry) {
              // A watch is logged when it ends, with its whole duration, as kube's handler returns then.
              entry->latency = std::chrono::steady_clock::now() - start;
              WriteLog(FormatHttpLog(*entry, std::chrono::system_clock::now()));
            }
          });
    } else if (out.content_type.empty()) {
      res.body = std::move(out.body);  // an answer without Content-Type (Go writes none for a bare status)
    } else {
      res.set_content(std::move(out.body), out.content_type.c_str());
    }
    if (http_log) {
      if (!out.stream) {
        HttpLogEntry entry = LogEntry(req, res.status, audit_id);
        entry.latency = std::chrono::steady_clock::now() - start;
        WriteLog(FormatHttpLog(entry, std::chrono::system_clock::now()));
      }
    } else if (options.verbosity >= 1) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      std::fprintf(stderr, "%s %s %d %lldus%s\n", req.method.c_str(), req.target.c_str(), res.status,
                   static_cast<long long>(us), out.stream ? " (streaming)" : "");
    }
  }

  // The fields of kube's request log line known when the answer is ready.
  static HttpLogEntry LogEntry(const httplib::Request& req, int status, const std::string& audit_id) {
    endpoints::HttpRequest r;
    r.method = req.method;
    r.path = req.path;
    if (auto q = req.target.find('?'); q != std::string::npos) r.raw_query = req.target.substr(q + 1);
    HttpLogEntry e;
    e.content_type = req.get_header_value("Content-Type");
    if (!e.content_type.empty()) r.headers.emplace("Content-Type", e.content_type);
    e.verb = endpoints::NormalizedVerb(r);
    e.uri = req.target;
    e.user_agent = req.get_header_value("User-Agent");
    const bool v6 = req.remote_addr.find(':') != std::string::npos;
    e.src_ip = (v6 ? "[" + req.remote_addr + "]" : req.remote_addr) + ":" + std::to_string(req.remote_port);
    e.status = status;
    e.audit_id = audit_id;
    return e;
  }

  void WriteLog(const std::string& line) const {
    if (options.log) {
      options.log(line);
    } else {
      std::fwrite(line.data(), 1, line.size(), stderr);
    }
  }
};

auth::UserInfo InsecurePortUser() {
  return auth::UserInfo{"kube-apiserver-lite:admin", "", {auth::kSystemMasters, auth::kAllAuthenticated}, {}};
}

HttpServer::HttpServer(const ServerOptions& options, endpoints::Handler handler)
    : HttpServer(ListenerOptions{.bind_address = options.bind_address,
                                 .port = options.port < 0 ? 0 : options.port,
                                 .max_request_body_bytes = options.max_request_body_bytes,
                                 .verbosity = options.verbosity},
                 std::move(handler)) {}

HttpServer::HttpServer(ListenerOptions listener, endpoints::Handler handler)
    : impl_(std::make_unique<Impl>(std::move(listener))) {
  const ListenerOptions& options = impl_->options;
  impl_->handler = std::move(handler);
  auto& svr = impl_->server;
  svr.new_task_queue = [] { return new ThreadPerConnection(); };
  svr.set_tcp_nodelay(true);
  // Keep-alive and socket timeouts are the Connection's (ConnectionOptions defaults).
  svr.set_payload_max_length(options.max_request_body_bytes);
  svr.set_pre_routing_handler([impl = impl_.get()](const httplib::Request& req, httplib::Response& res) {
    return impl->PreRoute(req, res);
  });
  auto serve = [impl = impl_.get()](const httplib::Request& req, httplib::Response& res) { impl->Serve(req, res); };
  auto serve_with_body = [impl = impl_.get()](const httplib::Request& req, httplib::Response& res,
                                              const httplib::ContentReader& reader) {
    impl->ServeWithBody(req, res, reader);
  };
  svr.Get(".*", serve);
  svr.Post(".*", serve_with_body);
  svr.Put(".*", serve_with_body);
  svr.Patch(".*", serve_with_body);
  svr.Delete(".*", serve_with_body);
  svr.Options(".*", serve);
  // Errors httplib answers by itself (oversized or malformed requests) still get a Status body.
  // httplib calls this for every 4xx/5xx; an answer of the handler chain (it carries an Audit-Id)
  // is left as it is, even when it is a bare status (kube-openapi's 404).
  svr.set_error_handler([limit = options.max_request_body_bytes](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty() || res.has_header("Audit-Id")) return;
    std::string reason = "InternalError", message = "the request could not be processed";
    switch (res.status) {
      case 400: reason = "BadRequest"; message = "the request could not be parsed"; break;
      case 404: reason = "NotFound"; message = "the server could not find the requested resource"; break;
      case 413:
        reason = "RequestEntityTooLarge";
        message = "Request entity too large: limit is " + std::to_string(limit);
        break;
      case 414: reason = "RequestURITooLong"; message = "the request URI is too long"; break;
      default: break;
    }
    res.set_content(StatusBody(res.status, reason, message), "application/json");
  });
  svr.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(kInternalError, "application/json");
  });
}

HttpServer::~HttpServer() { Stop(); }

Result<int> HttpServer::Start() {
  auto& svr = impl_->server;
  if (impl_->options.port == 0) {
    impl_->port = svr.bind_to_any_port(impl_->options.bind_address);
    if (impl_->port <= 0) return Status::Internal("cannot bind to " + impl_->options.bind_address);
  } else {
    if (!svr.bind_to_port(impl_->options.bind_address, impl_->options.port)) {
      return Status::Internal("cannot bind to " + impl_->options.bind_address + ":" +
                              std::to_string(impl_->options.port));
    }
    impl_->port = impl_->options.port;
  }
  // httplib listens with a backlog of 5, which drops bursts of connections (a thousand
  // informers starting at once) into one-second SYN retries; Linux lets listen() raise it.
  ForEachServerSocket(impl_->port, [](int fd, bool listening) {
    if (listening) ::listen(fd, SOMAXCONN);
  });
  impl_->listener = std::thread([this] { impl_->server.listen_after_bind(); });
  while (!svr.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  return impl_->port;
}

void HttpServer::Stop() {
  if (!impl_ || !impl_->listener.joinable()) return;
  impl_->server.stop();
  // An idle keep-alive connection would hold its thread (and so the shutdown) for the whole
  // keep-alive timeout: end this server's connections so every worker returns at once.
  ForEachServerSocket(impl_->port, [](int fd, bool listening) {
    if (!listening) ::shutdown(fd, SHUT_RDWR);
  });
  impl_->listener.join();
}

}  // namespace kube::server
