// HttpServer: serves an endpoints::Handler on one port, plain HTTP or TLS, with cpp-httplib, avoiding that
// library's traps for an API server (style-deps.md B1): a thread per connection (watches hold
// their connection's thread), one catch-all route per method with our own path parsing, our own
// query parsing, TCP_NODELAY, long keep-alive, no compression of streamed bodies, streams that
// return regularly so stop() never hangs.
// Every request is authenticated before the handler sees it (HttpRequest::user): on a port with
// an authenticator, by its credentials (a failure is kube's 401 Status); without one (the
// plain-HTTP --port) as the insecure-port user, a member of system:masters.
//
// Thread-safety: Start/Stop from one controlling thread; handlers run on connection threads.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "auth/authenticator.h"
#include "endpoints/http.h"
#include "server/options.h"
#include "server/tls_context.h"
#include "util/status.h"

namespace kube::server {

// The user of every request on a port without authentication.
auth::UserInfo InsecurePortUser();

struct ListenerOptions {
  std::string bind_address = "127.0.0.1";
  int port = 0;  // 0 picks a free one
  size_t max_request_body_bytes = 3 * 1024 * 1024;
  // -v: 1 logs a short line per request, kHttpLogVerbosity (2) and above kube's httplog line
  // (httplog.h). Default: 0, no request log.
  int verbosity = 0;
  // Where request log lines go. Default: null, stderr.
  std::function<void(const std::string& line)> log;
  // Null: plain HTTP.
  std::shared_ptr<const TlsContext> tls;
  // Null: every request is InsecurePortUser().
  std::function<Result<auth::AuthenticatedUser>(const auth::Credentials&)> authenticate;
};

class HttpServer {
 public:
  HttpServer(ListenerOptions options, endpoints::Handler handler);
  // Plain HTTP on options.port.
  HttpServer(const ServerOptions& options, endpoints::Handler handler);
  ~HttpServer();

  // Binds and starts serving in a background thread. Returns the bound port.
  Result<int> Start();
  // Stops accepting, ends open streams and joins every connection thread.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube::server
