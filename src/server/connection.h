// Connection: one client connection of the HTTP server, as the stream cpp-httplib's request
// parser reads from and writes to. httplib 0.11.4's own socket stream trusts the client: it
// buffers a request line or header block of any length, and when a body is left unread (refused
// as too large, or sent with a GET) it reads the rest as the next request. A Connection
//  - bounds the request head (line and headers) to Go's 1 MiB + 4 KiB and answers a longer one
//    as net/http does: 431, then close;
//  - tracks whether the current request's body was read to its end; when it was not, the
//    connection is not reused: after the answer it is closed with a lingering close (writing
//    side shut, what the client still sends drained for a moment) so that the client reads the
//    answer instead of a reset;
//  - on the secure port, speaks TLS (the handshake runs on the connection's own thread, bounded
//    by the read timeout) and keeps the client's certificate chain for authentication.
// Serve() runs the keep-alive loop of one connection with httplib's request processing.
//
// Thread-safety: a Connection is used by the one thread serving it; Current() is that thread's.
#pragma once

#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "auth/user_info.h"

namespace kube::server {

class TlsContext;

struct ConnectionOptions {
  // Largest request line plus headers. Default: 1 MiB + 4 KiB (net/http's DefaultMaxHeaderBytes
  // and the slack it reads beyond it).
  size_t max_head_bytes = (1u << 20) + 4096;
  // How long one read or write may wait for the socket. Default: 60 s.
  std::chrono::milliseconds read_timeout{60000};
  std::chrono::milliseconds write_timeout{60000};
  // How long an idle connection waits for its next request. Default: 120 s.
  std::chrono::seconds keep_alive_timeout{120};
  // Requests served on one connection before it is closed. Default: 100000.
  size_t keep_alive_max_count = 100000;
};

class Connection final : public httplib::Stream {
 public:
  // `ssl`: the connection's TLS session after its handshake, null for plain HTTP; owned.
  Connection(int fd, const ConnectionOptions& options, SSL* ssl = nullptr);
  ~Connection() override;  // the fd is closed by Serve()

  // The connection whose request this thread is serving, or null.
  static Connection* Current();

  // The request head is parsed; `body_follows` tells whether it announces a body (a positive
  // Content-Length or chunked transfer coding). Until BodyRead(), the connection is not reused.
  void EndHead(bool body_follows);
  // The announced body was read to its end.
  void BodyRead();

  // The TLS client's certificate chain as DER, leaf first (empty without one).
  const std::vector<std::string>& peer_certificates() const { return peer_certificates_; }
  bool secure() const { return ssl_ != nullptr; }
  // The user a request of this connection without an Authorization header authenticated as (its
  // client certificate, or anonymous): a certificate is verified once per connection. Bearer
  // tokens are never cached here.
  struct CachedUser {
    std::string authorization;
    auth::UserInfo user;
  };
  std::optional<CachedUser>& cached_user() { return cached_user_; }

  // Serves requests on `fd` until the client leaves, a request asks to close, the connection
  // cannot be reused, or `stopping` turns true; then closes `fd`. `process_request` is httplib's
  // (parse one request, route it, write the answer); it returns false when the connection is
  // broken and sets `connection_closed` when the request asked to close.
  using ProcessRequest =
      std::function<bool(httplib::Stream& strm, bool close_connection, bool& connection_closed)>;
  // `tls`: non-null on the secure port (a failed handshake closes the connection).
  static bool Serve(int fd, const ConnectionOptions& options, const std::function<bool()>& stopping,
                    const ProcessRequest& process_request, const TlsContext* tls = nullptr);

  // httplib::Stream
  bool is_readable() const override;
  bool is_writable() const override;  // false once the client has closed its side
  ssize_t read(char* ptr, size_t size) override;
  ssize_t write(const char* ptr, size_t size) override;
  void get_remote_ip_and_port(std::string& ip, int& port) const override;
  void get_local_ip_and_port(std::string& ip, int& port) const override;
  socket_t socket() const override { return fd_; }

 private:
  void BeginRequest();
  bool Reusable() const { return !failed_ && head_done_ && !body_pending_; }
  // Waits for the next request (or the client's close); false on timeout or when stopping.
  bool WaitForRequest(const std::function<bool()>& stopping);
  ssize_t Consumed(ssize_t n);
  // Reads from the socket (or TLS session) into buffer_; like recv().
  ssize_t Fill();
  size_t Pending() const;
  void RefuseHead();
  void Close();

  static constexpr size_t kBufferSize = 4096;

  const int fd_;
  const ConnectionOptions options_;
  SSL* const ssl_;
  std::vector<std::string> peer_certificates_;
  std::optional<CachedUser> cached_user_;
  char buffer_[kBufferSize];
  size_t buffer_begin_ = 0;
  size_t buffer_end_ = 0;
  bool in_head_ = true;       // reading the request line and headers
  size_t head_bytes_ = 0;     // of the current request
  bool head_done_ = false;    // the pre-routing step saw this request
  bool body_pending_ = false; // an announced body not read to its end
  bool failed_ = false;       // answered and given up (431)
};

}  // namespace kube::server
