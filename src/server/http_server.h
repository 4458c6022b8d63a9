// HttpServer: serves an endpoints::Handler over plain HTTP with cpp-httplib, avoiding that
// library's traps for an API server (style-deps.md B1): a thread per connection (watches hold
// their connection's thread), one catch-all route per method with our own path parsing, our own
// query parsing, TCP_NODELAY, long keep-alive, no compression of streamed bodies, streams that
// return regularly so stop() never hangs.
//
// Thread-safety: Start/Stop from one controlling thread; handlers run on connection threads.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "endpoints/http.h"
#include "server/options.h"
#include "util/status.h"

namespace kube::server {

class HttpServer {
 public:
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
