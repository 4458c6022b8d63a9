#include "server/http_server.h"

#include <httplib.h>
#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <vector>

namespace kube::server {

namespace {

// One thread per connection: a watch keeps its connection's thread for its whole life, so a
// fixed pool (8 threads by default) would stall every other client behind eight watches.
class ThreadPerConnection final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override {
    std::lock_guard lock(mu_);
    ReapFinishedLocked();
    auto done = std::make_shared<std::atomic<bool>>(false);
    workers_.push_back(Worker{std::thread([fn = std::move(fn), done] {
                                fn();
                                done->store(true);
                              }),
                              done});
  }
  void shutdown() override {
    std::vector<Worker> workers;
    {
      std::lock_guard lock(mu_);
      workers.swap(workers_);
    }
    for (auto& w : workers) w.thread.join();
  }

 private:
  struct Worker {
    std::thread thread;
    std::shared_ptr<std::atomic<bool>> done;
  };
  void ReapFinishedLocked() {
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (it->done->load()) {
        it->thread.join();
        it = workers_.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::mutex mu_;
  std::vector<Worker> workers_;
};

endpoints::HttpRequest Convert(const httplib::Request& req) {
  endpoints::HttpRequest r;
  r.method = req.method;
  r.path = req.path;
  auto q = req.target.find('?');
  if (q != std::string::npos) r.raw_query = req.target.substr(q + 1);
  for (const auto& [k, v] : req.headers) r.headers.emplace(k, v);
  r.body = req.body;
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

}  // namespace

struct HttpServer::Impl {
  ServerOptions options;
  endpoints::Handler handler;
  httplib::Server server;
  std::thread listener;
  int port = 0;

  void Serve(const httplib::Request& req, httplib::Response& res) {
    const auto start = std::chrono::steady_clock::now();
    endpoints::HttpResponse out;
    try {
      out = handler(Convert(req));
    } catch (...) {
      // The recovery filter: nothing a client sends may take the server down.
      out = endpoints::HttpResponse{};
      out.status = 500;
      out.body = kInternalError;
    }
    res.status = out.status;
    for (const auto& [k, v] : out.headers) res.set_header(k.c_str(), v);
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
          [stream](bool) { stream->Close(); });
    } else {
      res.set_content(std::move(out.body), out.content_type.c_str());
    }
    if (options.verbosity >= 1) {
      const auto us = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::steady_clock::now() - start)
                          .count();
      std::fprintf(stderr, "%s %s %d %lldus%s\n", req.method.c_str(), req.target.c_str(), res.status,
                   static_cast<long long>(us), out.stream ? " (streaming)" : "");
    }
  }
};

HttpServer::HttpServer(const ServerOptions& options, endpoints::Handler handler)
    : impl_(std::make_unique<Impl>()) {
  impl_->options = options;
  impl_->handler = std::move(handler);
  auto& svr = impl_->server;
  svr.new_task_queue = [] { return new ThreadPerConnection(); };
  svr.set_tcp_nodelay(true);
  svr.set_keep_alive_max_count(100000);
  svr.set_keep_alive_timeout(120);
  svr.set_read_timeout(60, 0);
  svr.set_write_timeout(60, 0);
  svr.set_payload_max_length(options.max_request_body_bytes);
  // No response compression: httplib gzips chunked JSON without flushing, which would hold back
  // watch events from every Go client (they all send Accept-Encoding: gzip).
  svr.set_pre_routing_handler([](const httplib::Request& req, httplib::Response&) {
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    return httplib::Server::HandlerResponse::Unhandled;
  });
  auto serve = [impl = impl_.get()](const httplib::Request& req, httplib::Response& res) {
    impl->Serve(req, res);
  };
  svr.Get(".*", serve);
  svr.Post(".*", serve);
  svr.Put(".*", serve);
  svr.Patch(".*", serve);
  svr.Delete(".*", serve);
  svr.Options(".*", serve);
  // Errors httplib answers by itself (oversized or malformed requests) still get a Status body.
  svr.set_error_handler([limit = options.max_request_body_bytes](const httplib::Request&, httplib::Response& res) {
    if (!res.body.empty()) return;
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
    res.set_content(R"({"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":")" +
                        message + R"(","reason":")" + reason + R"(","details":{},"code":)" +
                        std::to_string(res.status) + "}",
                    "application/json");
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
