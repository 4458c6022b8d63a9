// ServerInstance: the whole server assembled from ServerOptions and serving — the kv store and
// registry, RBAC's bootstrap policy and index, authentication, the authorizer chain, the
// ApiServer, the CRD controller, the plain-HTTP and HTTPS listeners and the kubeconfig. The
// binary (main.cc) and the embedding API (include/kube_apiserver_lite/server.h) both run this,
// so an embedded server behaves exactly as the binary with the same flags.
//
// Start() order: certificates (a bad flag fails before any work), registry, RBAC, authn,
// authorizer, ApiServer, CRD controller, the --load manifests (manifest_loader.h), listeners,
// kubeconfig. When Start() returns OK everything is served; nothing is printed here (main.cc
// prints the "ready:" lines and the summary).
//
// Thread-safety: Start() and Stop() from one thread, not concurrently with anything else; the
// other methods are safe for concurrent use once Start() returned OK (url getters are constant).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "server/manifest_loader.h"
#include "server/options.h"
#include "util/status.h"

namespace kube::server {

// kube's ApplyAuthorization: AlwaysAllow would let anonymous requests do anything, so with a
// secure port, AlwaysAllow and --anonymous-auth, anonymous-auth is turned off. True when it was.
bool ResetAnonymousAuthForAlwaysAllow(ServerOptions* options);

class ServerInstance {
 public:
  struct Config {
    ServerOptions options;
    // Mint an admin client certificate for kubeconfig (HTTPS), even without --kubeconfig-out:
    // the embedding API always offers a kubeconfig. Default: only with --kubeconfig-out, as the
    // binary always did.
    bool always_kubeconfig = false;
  };

  explicit ServerInstance(Config config);
  ~ServerInstance();  // Stop()s
  ServerInstance(const ServerInstance&) = delete;
  ServerInstance& operator=(const ServerInstance&) = delete;

  // Assembles and serves. On an error, start_error() is what the binary prints after "Error: ".
  Status Start();
  const std::string& start_error() const { return start_error_; }
  // Stops the listeners (open watches end) and then everything else. Idempotent.
  void Stop();

  // "http://127.0.0.1:PORT" / "https://127.0.0.1:PORT", or "" when not served.
  const std::string& plain_url() const { return plain_url_; }
  const std::string& secure_url() const { return secure_url_; }
  // The HTTPS URL when HTTPS is served, else the plain one.
  const std::string& url() const { return secure_url_.empty() ? plain_url_ : secure_url_; }

  // A kubeconfig for url() (with the admin client certificate over HTTPS).
  const std::string& kubeconfig() const { return kubeconfig_; }

  // Creates the manifests under `paths` now (manifest_loader.h).
  Result<LoadSummary> LoadManifests(const std::vector<std::string>& paths);

  // Reset to the state right after Start(), and named snapshots (registry-level, see
  // ApiRegistry).
  Status Reset();
  Status SaveSnapshot(const std::string& name);
  Status RestoreSnapshot(const std::string& name);

  // Objects the start-up --load created, and the time from Start() to serving.
  size_t loaded_objects() const { return loaded_objects_; }
  std::chrono::microseconds time_to_ready() const { return time_to_ready_; }
  // One line for the log: address, store, authorization, loaded objects, time to ready.
  std::string StartSummary() const;

 private:
  struct Parts;

  Config config_;
  std::unique_ptr<Parts> parts_;
  Status Fail(const Status& s, bool with_reason = false);

  std::string plain_url_, secure_url_, kubeconfig_, start_error_;
  size_t loaded_objects_ = 0;
  std::chrono::microseconds time_to_ready_{0};
};

}  // namespace kube::server
