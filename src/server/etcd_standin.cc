#include "server/etcd_standin.h"

#include <httplib.h>
#include <signal.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace kube::server {

namespace {

// etcd flags that take a value; bools are listed in kBoolFlags.
constexpr std::string_view kValueFlags[] = {
    "advertise-client-urls", "auto-compaction-mode", "auto-compaction-retention", "cert-file", "client-cert-auth",
    "config-file", "data-dir", "heartbeat-interval", "initial-advertise-peer-urls", "initial-cluster",
    "initial-cluster-state", "initial-cluster-token", "key-file", "listen-client-urls", "listen-metrics-urls",
    "listen-peer-urls", "log-level", "log-outputs", "logger", "max-request-bytes", "max-txn-ops", "name",
    "peer-cert-file", "peer-key-file", "peer-trusted-ca-file", "quota-backend-bytes", "snapshot-count",
    "trusted-ca-file", "wal-dir", "election-timeout", "max-snapshots", "max-wals"};
constexpr std::string_view kBoolFlags[] = {"unsafe-no-fsync", "enable-v2", "enable-pprof", "force-new-cluster",
                                           "strict-reconfig-check", "experimental-initial-corrupt-check"};

constexpr const char* kHelp = R"(Usage:

  etcd [flags]
    Start an etcd stand-in: kube-apiserver-lite embeds its own store, so this process stores
    nothing. It answers GET /health on --listen-client-urls so that controller-runtime's envtest
    (and anything else that waits for etcd) can go on to start kube-apiserver.

Member:
  --name 'default'
  --data-dir '${name}.etcd'                      created if missing, otherwise unused
  --listen-peer-urls 'http://localhost:2380'     accepted, not served
  --listen-client-urls 'http://localhost:2379'   served: /health, /readyz, /livez, /version
  --advertise-client-urls 'http://localhost:2379'

Unsafe feature:
  --unsafe-no-fsync 'false'
    Disables fsync, unsafe, will cause data loss (nothing is stored here anyway).

  -h, --help    show this help
)";

bool Contains(const std::string_view* begin, const std::string_view* end, std::string_view name) {
  for (auto it = begin; it != end; ++it) {
    if (*it == name) return true;
  }
  return false;
}

struct Endpoint {
  std::string host;
  int port = 0;
};

// "http://127.0.0.1:2379" → host and port; nullopt for anything else (etcd's own check).
std::optional<Endpoint> ParseUrl(const std::string& url) {
  std::string rest;
  if (url.starts_with("http://")) rest = url.substr(7);
  else if (url.starts_with("https://")) return std::nullopt;  // no TLS in the stand-in
  else return std::nullopt;
  if (auto slash = rest.find('/'); slash != std::string::npos) rest = rest.substr(0, slash);
  const size_t colon = rest.rfind(':');
  if (colon == std::string::npos) return std::nullopt;
  Endpoint e;
  e.host = rest.substr(0, colon);
  if (e.host.size() >= 2 && e.host.front() == '[') e.host = e.host.substr(1, e.host.size() - 2);
  if (e.host == "localhost") e.host = "127.0.0.1";
  try {
    e.port = std::stoi(rest.substr(colon + 1));
  } catch (...) {
    return std::nullopt;
  }
  if (e.port <= 0 || e.port > 65535) return std::nullopt;
  return e;
}

}  // namespace

int RunEtcdStandIn(int argc, char** argv) {
  std::string listen = "http://localhost:2379";
  std::string data_dir;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "-h" || arg == "--help" || arg == "-help") {
      std::fputs(kHelp, stdout);
      return 0;
    }
    if (arg == "--version" || arg == "-version") {
      std::puts("etcd Version: 3.6.4 (kube-apiserver-lite stand-in)");
      return 0;
    }
    if (!arg.starts_with("-")) {
      std::fprintf(stderr, "'%s' is not a valid flag\n", arg.c_str());
      return 1;
    }
    std::string name = arg.substr(arg.starts_with("--") ? 2 : 1), value;
    bool has_value = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_value = true;
    }
    if (Contains(std::begin(kBoolFlags), std::end(kBoolFlags), name)) continue;
    if (!Contains(std::begin(kValueFlags), std::end(kValueFlags), name)) {
      std::fprintf(stderr, "flag provided but not defined: -%s\n", name.c_str());
      return 2;
    }
    if (!has_value) {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "flag needs an argument: -%s\n", name.c_str());
        return 2;
      }
      value = argv[++i];
    }
    if (name == "listen-client-urls") listen = value;
    if (name == "data-dir") data_dir = value;
  }
  if (!data_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(data_dir, ec);
  }

  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGTERM);
  sigaddset(&signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  signal(SIGPIPE, SIG_IGN);

  std::vector<std::unique_ptr<httplib::Server>> servers;
  std::vector<std::thread> threads;
  size_t start = 0;
  while (start <= listen.size()) {
    const size_t comma = listen.find(',', start);
    const std::string url = listen.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    start = comma == std::string::npos ? listen.size() + 1 : comma + 1;
    if (url.empty()) continue;
    auto endpoint = ParseUrl(url);
    if (!endpoint) {
      std::fprintf(stderr, "etcd stand-in: unsupported --listen-client-urls entry %s (http://host:port only)\n", url.c_str());
      return 1;
    }
    auto svr = std::make_unique<httplib::Server>();
    // One request per connection: an idle keep-alive connection would hold stop() for seconds.
    svr->set_keep_alive_max_count(1);
    auto ok = [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"health":"true","reason":""})", "application/json");
    };
    svr->Get("/health", ok);
    svr->Get("/readyz", [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });
    svr->Get("/livez", [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });
    svr->Get("/version", [](const httplib::Request&, httplib::Response& res) {
      res.set_content(R"({"etcdserver":"3.6.4","etcdcluster":"3.6.0","storage":"3.6.0"})", "application/json");
    });
    if (!svr->bind_to_port(endpoint->host, endpoint->port)) {
      std::fprintf(stderr, "etcd stand-in: listen tcp %s:%d: bind: address already in use\n", endpoint->host.c_str(),
                   endpoint->port);
      return 1;
    }
    httplib::Server* raw = svr.get();
    threads.emplace_back([raw] { raw->listen_after_bind(); });
    servers.push_back(std::move(svr));
  }
  std::fprintf(stderr, "etcd stand-in (kube-apiserver-lite): serving /health on %s; the API server's store is embedded\n",
               listen.c_str());
  int sig = 0;
  sigwait(&signals, &sig);
  for (auto& s : servers) s->stop();
  for (auto& t : threads) t.join();
  return 0;
}

}  // namespace kube::server
