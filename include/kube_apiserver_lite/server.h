// kube-apiserver-lite, embedded: a Kubernetes API server started inside the calling process, for
// test fixtures. It is the same server as the kube-apiserver-lite binary (the binary runs this
// code too): same API, same defaults, same flags through Options::extra_flags.
//
//   kube_apiserver_lite::Server server;            // plain HTTP on a free loopback port
//   if (auto s = server.Start(); !s.ok()) die(s.ToString());
//   Get(server.url() + "/api/v1/namespaces");       // any HTTP client; no credentials needed
//   server.Reset();                                  // back to the state right after Start()
//
// Contract: Start() returns once everything is served (every manifest of Options::manifests
// created, their CRDs served); url() and kubeconfig() are valid from then until Stop(). Stop()
// (or the destructor) ends open watches and frees the port. A Server can be started again after
// Stop(), with a fresh state unless Options::data_dir keeps it. Several Servers may run in one
// process. No exception escapes; failures are a Status with kube's reason.
// Start() sets SIGPIPE to ignored when it is at its default (a client that goes away mid-response
// would otherwise kill the process), as the binary does.
//
// Thread-safety: Start(), Stop() and the destructor must not run concurrently with any other
// call on the same Server. Once started, every other method is safe to call from any thread,
// concurrently with requests being served.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace kube_apiserver_lite {

// The outcome of an operation: OK, or kube's reason ("Invalid", "NotFound", "BadRequest",
// "InternalError", "NotImplemented", ...) and a message.
class Status {
 public:
  Status() = default;  // OK
  Status(std::string reason, std::string message) : reason_(std::move(reason)), message_(std::move(message)) {}

  bool ok() const { return reason_.empty(); }
  const std::string& reason() const { return reason_; }
  const std::string& message() const { return message_; }
  // "OK", or "reason: message".
  std::string ToString() const { return ok() ? "OK" : reason_ + ": " + message_; }

 private:
  std::string reason_;
  std::string message_;
};

struct Options {
  // Address to listen on. Default: "127.0.0.1".
  std::string bind_address = "127.0.0.1";
  // Port to listen on; 0 picks a free one (see url()). Default: 0.
  int port = 0;
  // Serve HTTPS (a self-signed CA and serving certificate generated at Start(), and an admin
  // client certificate in kubeconfig()) instead of plain HTTP. Plain HTTP needs no credentials:
  // every request acts as the admin (system:masters), like kube's old insecure port.
  // Default: false (plain HTTP).
  bool tls = false;
  // Persist everything under this directory and reload it at Start(). Default: "" (in memory,
  // nothing written to disk).
  std::string data_dir;
  // Authorizers in order: "AlwaysAllow", "AlwaysDeny", "RBAC" (kube's --authorization-mode).
  // Members of system:masters are always allowed. Default: {"AlwaysAllow"}.
  std::vector<std::string> authorization_modes = {"AlwaysAllow"};
  // Manifest files or directories (.yaml, .yml, .json; multi-document YAML, List kinds) created
  // at Start() before it returns, as the binary's --load: CRDs first (and served), then
  // namespaces, then the rest. A bad manifest fails Start() with its file and document index.
  // Default: none.
  std::vector<std::string> manifests;
  // Log verbosity on stderr (the binary's -v); 1 logs every request. Default: 0.
  int verbosity = 0;
  // Further kube-apiserver flags, as the binary takes them ("--token-auth-file=/x.csv",
  // "--runtime-config=batch/v1=false", ...). Applied after the fields above; an unknown flag
  // fails Start() with kube's "unknown flag" error. Default: none.
  std::vector<std::string> extra_flags;
};

// What LoadManifests() did.
struct LoadResult {
  size_t created = 0;
  size_t unchanged = 0;  // already existed; left as they were
};

class Server {
 public:
  explicit Server(Options options = {});
  ~Server();  // Stop()s
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Assembles the server and serves; returns once it is ready. A second Start() without Stop()
  // is an error.
  Status Start();
  // Stops serving: open watches end, connections close, the port is freed. Idempotent.
  void Stop();
  bool running() const;

  // "http://127.0.0.1:PORT" (or https:// with Options::tls); "" when not running.
  std::string url() const;
  // A kubeconfig for url(): for HTTPS with the CA and an admin client certificate (CN
  // kube-apiserver-lite:admin, O system:masters); for plain HTTP with insecure-skip-tls-verify.
  // "" when not running.
  std::string kubeconfig() const;
  // Writes kubeconfig() to `path` atomically (mode 0600 when it holds a client key).
  Status WriteKubeconfig(const std::string& path) const;

  // Creates the objects of these manifest files or directories now, as Options::manifests does
  // at Start(). Stops at the first refused object (its file, document index and kube's error),
  // leaving the objects created before it.
  Status LoadManifests(const std::vector<std::string>& paths, LoadResult* result = nullptr);

  // Back to the state right after Start() (built-in objects and Options::manifests), keeping
  // resourceVersions monotonic; open watches end with 410 Gone so informers relist.
  Status Reset();
  // Saves the whole state under `name` (replacing an earlier snapshot of that name).
  Status SaveSnapshot(const std::string& name);
  // Returns to the state saved under `name`; open watches end as with Reset(). NotFound when no
  // snapshot has that name.
  Status RestoreSnapshot(const std::string& name);

  // Objects Options::manifests created at the last Start().
  size_t loaded_objects() const;
  // Microseconds from the last Start() call to ready.
  int64_t start_micros() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kube_apiserver_lite
