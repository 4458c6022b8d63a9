#include "server/connection.h"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>
#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "server/tls_context.h"

namespace kube::server {

namespace {

thread_local Connection* current_connection = nullptr;

// After an answer to a request whose body was left unread: how long, and how much of what the
// client still sends, to read and drop before closing (net/http waits 500 ms too).
constexpr std::chrono::milliseconds kLingerTime{500};
constexpr size_t kLingerBytes = 16u << 20;

// How often an idle connection looks at the stop flag.
constexpr std::chrono::milliseconds kIdleTick{100};

// net/http's answer to a head over the limit, written as it writes it.
constexpr std::string_view kHeadTooLarge =
    "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Connection: close\r\n\r\n431 Request Header Fields Too Large";

// poll() for one event, retrying on EINTR. >0 ready, 0 timeout, <0 error.
int PollFor(int fd, short events, std::chrono::milliseconds timeout) {
  pollfd p{fd, events, 0};
  while (true) {
    const int r = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (r < 0 && errno == EINTR) continue;
    return r;
  }
}

void IpAndPort(const sockaddr_storage& addr, socklen_t len, std::string& ip, int& port) {
  char host[NI_MAXHOST] = {};
  char serv[NI_MAXSERV] = {};
  if (::getnameinfo(reinterpret_cast<const sockaddr*>(&addr), len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
    ip = host;
    port = std::atoi(serv);
  }
}

}  // namespace

Connection::Connection(int fd, const ConnectionOptions& options, SSL* ssl) : fd_(fd), options_(options), ssl_(ssl) {
  if (ssl_ == nullptr) return;
  // The server side's chain omits the leaf; it comes first here.
  auto add = [this](X509* cert) {
    unsigned char* der = nullptr;
    const int n = i2d_X509(cert, &der);
    if (n > 0) peer_certificates_.emplace_back(reinterpret_cast<char*>(der), static_cast<size_t>(n));
    OPENSSL_free(der);
  };
  if (X509* leaf = SSL_get1_peer_certificate(ssl_)) {
    add(leaf);
    if (STACK_OF(X509)* chain = SSL_get_peer_cert_chain(ssl_)) {
      for (int i = 0; i < sk_X509_num(chain); ++i) {
        X509* c = sk_X509_value(chain, i);
        if (X509_cmp(c, leaf) != 0) add(c);
      }
    }
    X509_free(leaf);
  }
}

Connection::~Connection() {
  if (ssl_ != nullptr) SSL_free(ssl_);
}

size_t Connection::Pending() const {
  return (buffer_end_ - buffer_begin_) + (ssl_ != nullptr ? static_cast<size_t>(SSL_pending(ssl_)) : 0);
}

ssize_t Connection::Fill() {
  ssize_t n;
  if (ssl_ != nullptr) {
    ERR_clear_error();
    const int r = SSL_read(ssl_, buffer_, static_cast<int>(kBufferSize));
    if (r > 0) return r;
    // A clean close_notify is end-of-file; anything else an error.
    return SSL_get_error(ssl_, r) == SSL_ERROR_ZERO_RETURN ? 0 : -1;
  }
  do {
    n = ::recv(fd_, buffer_, kBufferSize, 0);
  } while (n < 0 && errno == EINTR);
  return n;
}

Connection* Connection::Current() { return current_connection; }

void Connection::BeginRequest() {
  in_head_ = true;
  head_bytes_ = 0;
  head_done_ = false;
  body_pending_ = false;
}

void Connection::EndHead(bool body_follows) {
  in_head_ = false;
  head_done_ = true;
  body_pending_ = body_follows;
}

void Connection::BodyRead() { body_pending_ = false; }

bool Connection::is_readable() const {
  return Pending() > 0 || PollFor(fd_, POLLIN, options_.read_timeout) > 0;
}

bool Connection::is_writable() const {
  if (failed_ || PollFor(fd_, POLLOUT, options_.write_timeout) <= 0) return false;
  // A readable socket whose next read is end-of-file belongs to a client that left.
  if (Pending() > 0 || PollFor(fd_, POLLIN, std::chrono::milliseconds(0)) <= 0) return true;
  char byte;
  const ssize_t n = ::recv(fd_, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
  return n != 0;
}

ssize_t Connection::Consumed(ssize_t n) {
  if (n > 0 && in_head_) {
    head_bytes_ += static_cast<size_t>(n);
    if (head_bytes_ > options_.max_head_bytes) {
      RefuseHead();
      return -1;
    }
  }
  return n;
}

ssize_t Connection::read(char* ptr, size_t size) {
  if (failed_) return -1;
  if (buffer_begin_ == buffer_end_) {
    const bool tls_buffered = ssl_ != nullptr && SSL_pending(ssl_) > 0;
    if (!tls_buffered && PollFor(fd_, POLLIN, options_.read_timeout) <= 0) return -1;
    const ssize_t n = Fill();
    if (n <= 0) return n;
    buffer_begin_ = 0;
    buffer_end_ = static_cast<size_t>(n);
  }
  const size_t n = std::min(size, buffer_end_ - buffer_begin_);
  std::memcpy(ptr, buffer_ + buffer_begin_, n);
  buffer_begin_ += n;
  return Consumed(static_cast<ssize_t>(n));
}

ssize_t Connection::write(const char* ptr, size_t size) {
  // Unlike httplib's stream, no probe for a closed reading side: a client that half-closes after
  // its request still gets the answer.
  if (failed_ || PollFor(fd_, POLLOUT, options_.write_timeout) <= 0) return -1;
  if (ssl_ != nullptr) {
    if (size == 0) return 0;
    ERR_clear_error();
    const int r = SSL_write(ssl_, ptr, static_cast<int>(std::min<size_t>(size, 1u << 30)));
    return r > 0 ? r : -1;
  }
  ssize_t n;
  do {
    n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
  } while (n < 0 && errno == EINTR);
  return n;
}

void Connection::get_remote_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) IpAndPort(addr, len, ip, port);
}

void Connection::get_local_ip_and_port(std::string& ip, int& port) const {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) IpAndPort(addr, len, ip, port);
}

void Connection::RefuseHead() {
  size_t sent = 0;
  while (sent < kHeadTooLarge.size()) {
    const ssize_t n = write(kHeadTooLarge.data() + sent, kHeadTooLarge.size() - sent);
    if (n <= 0) break;
    sent += static_cast<size_t>(n);
  }
  failed_ = true;  // httplib's own answer to the failed parse goes nowhere
}

bool Connection::WaitForRequest(const std::function<bool()>& stopping) {
  if (Pending() > 0) return true;
  const auto deadline = std::chrono::steady_clock::now() + options_.keep_alive_timeout;
  while (!stopping()) {
    const int r = PollFor(fd_, POLLIN, kIdleTick);
    if (r != 0) return r > 0;  // readable, or the client's close (the parser sees end-of-file)
    if (std::chrono::steady_clock::now() >= deadline) return false;
  }
  return false;
}

void Connection::Close() {
  // close_notify, without waiting for the client's.
  if (ssl_ != nullptr && !failed_) SSL_shutdown(ssl_);
  if (Reusable()) {
    ::shutdown(fd_, SHUT_RDWR);
  } else {
    // Closing with unread data makes the kernel reset the connection, and a reset can destroy
    // the answer before the client reads it. Finish writing, then read what is still coming.
    ::shutdown(fd_, SHUT_WR);
    const auto deadline = std::chrono::steady_clock::now() + kLingerTime;
    size_t drained = 0;
    char sink[kBufferSize];
    while (drained < kLingerBytes) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0 || PollFor(fd_, POLLIN, left) <= 0) break;
      const ssize_t n = ::recv(fd_, sink, sizeof sink, 0);
      if (n <= 0) break;
      drained += static_cast<size_t>(n);
    }
  }
  ::close(fd_);
}

bool Connection::Serve(int fd, const ConnectionOptions& options, const std::function<bool()>& stopping,
                       const ProcessRequest& process_request, const TlsContext* tls) {
  SSL* ssl = nullptr;
  if (tls != nullptr) {
    // The handshake blocks; the socket's timeouts bound it (and every later TLS read or write,
    // which only starts once poll() said the socket is ready).
    timeval tv{static_cast<time_t>(options.read_timeout.count() / 1000),
               static_cast<suseconds_t>(options.read_timeout.count() % 1000 * 1000)};
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    ssl = tls->NewSession(fd);
    ERR_clear_error();
    if (ssl == nullptr || SSL_accept(ssl) != 1) {
      ERR_clear_error();
      if (ssl != nullptr) SSL_free(ssl);
      ::close(fd);
      return false;
    }
  }
  Connection conn(fd, options, ssl);
  current_connection = &conn;
  bool ok = false;
  for (size_t served = 0; served < options.keep_alive_max_count && !stopping(); ++served) {
    if (!conn.WaitForRequest(stopping)) break;
    conn.BeginRequest();
    bool connection_closed = false;
    ok = process_request(conn, served + 1 == options.keep_alive_max_count, connection_closed);
    if (!ok || connection_closed || !conn.Reusable()) break;
  }
  current_connection = nullptr;
  conn.Close();
  return ok;
}

}  // namespace kube::server
