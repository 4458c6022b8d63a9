// tls_bench: what the secure port costs. Time to ready with TLS (a CA and serving certificate
// generated at start, the first HTTPS /readyz) against plain HTTP; then, in one run of one server
// serving both ports, the ConfigMap create rate over HTTPS with keep-alive (bearer token of a
// system:masters user; TLS handshake once per client) against plain HTTP, same clients, same
// bodies. Run ./build/bench/tls_bench ./build/kube-apiserver-lite; non-zero exit on a failed check.
#include <fcntl.h>
#include <httplib.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <latch>
#include <mutex>
#include <thread>

#include "bench_util.h"
#include "http_load.h"

extern char** environ;

namespace kube::bench {
namespace {

constexpr int kStarts = 5;
constexpr size_t kCreates = 2000;
constexpr int kThreads = 4;
constexpr char kToken[] = "bench-token";

// A child server started with arbitrary flags; its "ready: URL" lines are read from stdout.
class Child {
 public:
  ~Child() { Stop(); }
  std::string Start(const std::string& binary, std::vector<std::string> args) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return "pipe2 failed";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    args.insert(args.begin(), binary);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int rc = ::posix_spawn(&pid_, binary.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) return "posix_spawn failed";
    fd_ = fds[0];
    return "";
  }
  // Reads until `lines` ready lines arrived; returns their URLs.
  std::vector<std::string> WaitReady(size_t lines) {
    std::string out;
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    std::vector<std::string> urls;
    while (urls.size() < lines && Clock::now() < deadline) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) continue;
      char buf[256];
      const ssize_t n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) break;
      out.append(buf, static_cast<size_t>(n));
      urls.clear();
      size_t pos = 0;
      while ((pos = out.find("ready: ", pos)) != std::string::npos) {
        const size_t end = out.find('\n', pos);
        if (end == std::string::npos) break;
        urls.push_back(out.substr(pos + 7, end - pos - 7));
        pos = end;
      }
    }
    return urls;
  }
  void Stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
    ::close(fd_);
  }

 private:
  pid_t pid_ = -1;
  int fd_ = -1;
};

Endpoint Parse(const std::string& url) {
  const size_t scheme = url.find("://");
  const size_t colon = url.rfind(':');
  return Endpoint{url.substr(scheme + 3, colon - scheme - 3), std::stoi(url.substr(colon + 1))};
}

std::unique_ptr<httplib::SSLClient> MakeTlsClient(const Endpoint& ep, const std::string& ca_path) {
  auto c = std::make_unique<httplib::SSLClient>(ep.host, ep.port);
  c->set_ca_cert_path(ca_path.c_str());
  c->enable_server_certificate_verification(true);
  c->set_bearer_token_auth(kToken);
  c->set_keep_alive(true);
  c->set_tcp_nodelay(true);
  c->set_read_timeout(30, 0);
  return c;
}

// Spawn to the first 200 from /readyz, in ms; -1 after a failure.
double TimeToReady(const std::string& binary, bool tls, const std::string& dir) {
  std::filesystem::remove_all(dir + "/certs");
  Child child;
  const auto start = Clock::now();
  std::vector<std::string> args = tls ? std::vector<std::string>{"--secure-port", "0", "--cert-dir", dir + "/certs",
                                                                  "--token-auth-file", dir + "/tokens.csv"}
                                      : std::vector<std::string>{"--port", "0"};
  if (!child.Start(binary, args).empty()) return Fail("spawn failed"), -1;
  auto urls = child.WaitReady(1);
  if (urls.empty()) return Fail("no ready line"), -1;
  const Endpoint ep = Parse(urls[0]);
  for (;;) {
    httplib::Result r = tls ? [&] {
      httplib::SSLClient c(ep.host, ep.port);
      c.set_ca_cert_path((dir + "/certs/apiserver.crt").c_str());
      c.enable_server_certificate_verification(true);
      c.set_bearer_token_auth(kToken);  // anonymous requests are off under AlwaysAllow, as in kube
      return c.Get("/readyz");
    }()
                            : httplib::Client(ep.host, ep.port).Get("/readyz");
    if (r && r->status == 200) break;
    if (SecondsSince(start) > 30) return Fail("/readyz not 200: " + Describe(r)), -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return MicrosBetween(start, Clock::now()) / 1e3;
}

std::string ConfigMap(const std::string& name) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":")" + name + R"("},"data":{"k":"v"}})";
}

// Creates kCreates ConfigMaps from kThreads keep-alive clients made by make_client.
template <class MakeClientFn>
LoadResult CreateLoad(MakeClientFn make_client, const std::string& prefix) {
  std::vector<std::vector<double>> lat(kThreads);
  std::atomic<int> failures{0};
  std::string first_error;
  std::mutex mu;
  std::vector<std::thread> workers;
  std::latch ready(kThreads + 1);
  for (int t = 0; t < kThreads; ++t) {
    workers.emplace_back([&, t] {
      auto client = make_client();
      httplib::Result warm = client->Get("/readyz");  // handshake before the clock starts
      if (!warm || warm->status != 200) ++failures;
      ready.arrive_and_wait();
      for (size_t i = static_cast<size_t>(t); i < kCreates; i += kThreads) {
        const std::string name = prefix + "-" + std::to_string(i);
        const auto sent = Clock::now();
        httplib::Result r = client->Post("/api/v1/namespaces/default/configmaps", ConfigMap(name), "application/json");
        lat[static_cast<size_t>(t)].push_back(MicrosBetween(sent, Clock::now()));
        if (std::string e = CheckObject(r, 201, name); !e.empty()) {
          if (failures++ == 0) {
            std::lock_guard lock(mu);
            first_error = e;
          }
        }
      }
    });
  }
  ready.arrive_and_wait();
  const auto start = Clock::now();
  for (auto& w : workers) w.join();
  LoadResult r;
  r.seconds = SecondsSince(start);
  r.threads = kThreads;
  for (auto& l : lat) r.latencies_us.insert(r.latencies_us.end(), l.begin(), l.end());
  if (failures > 0) r.ok = Fail(prefix + ": " + std::to_string(failures.load()) + " failures, first: " + first_error);
  return r;
}

}  // namespace
}  // namespace kube::bench

int main(int argc, char** argv) {
  using namespace kube::bench;
  BenchSetup setup;
  if (!SetUpBench(argc, argv, "tls_bench", &setup)) return 1;
  std::printf("tls_bench: server %s (child processes on loopback); %u hardware threads; %d starts each; "
              "%zu ConfigMap creates per port from %d keep-alive clients\n\n",
              setup.binary.c_str(), std::thread::hardware_concurrency(), kStarts, kCreates, kThreads);
  std::fflush(stdout);
  Table table;
  const std::string tokens = setup.dir + "/tokens.csv";
  std::ofstream(tokens) << kToken << ",bench,bench-uid,system:masters\n";
  table.Section("time to ready (spawn to first /readyz 200), median of " + std::to_string(kStarts));
  std::vector<double> plain_ms, tls_ms;
  for (int i = 0; i < kStarts; ++i) {
    plain_ms.push_back(TimeToReady(setup.binary, false, setup.dir));
    tls_ms.push_back(TimeToReady(setup.binary, true, setup.dir));
  }
  const double plain_ready = Median(plain_ms), tls_ready = Median(tls_ms);
  table.Latency("plain HTTP --port 0", plain_ready, "ms", plain_ready, "plain", plain_ready > 0);
  table.Latency("HTTPS --secure-port 0, certificates generated", tls_ready, "ms", plain_ready, "plain", tls_ready > 0);

  table.Section("ConfigMap create, one server serving both ports, same run");
  Child server;
  if (!server.Start(setup.binary, {"--port", "0", "--secure-port", "0", "--cert-dir", setup.dir + "/both",
                                   "--token-auth-file", tokens})
           .empty()) {
    return table.Print(), 1;
  }
  auto urls = server.WaitReady(2);
  if (urls.size() != 2) return Fail("want two ready lines"), table.Print(), 1;
  const Endpoint plain = Parse(urls[0].starts_with("http://") ? urls[0] : urls[1]);
  const Endpoint secure = Parse(urls[0].starts_with("https://") ? urls[0] : urls[1]);
  const std::string ca = setup.dir + "/both/apiserver.crt";
  const LoadResult p = CreateLoad([&] { return MakeClient(plain); }, "plain");
  const LoadResult s = CreateLoad([&] { return MakeTlsClient(secure, ca); }, "tls");
  const double plain_rate = static_cast<double>(p.latencies_us.size()) / p.seconds;
  const double tls_rate = static_cast<double>(s.latencies_us.size()) / s.seconds;
  table.Rate("create over plain HTTP", plain_rate, plain_rate, "plain", p.ok);
  table.Rate("create over HTTPS (keep-alive, bearer token)", tls_rate, plain_rate, "plain", s.ok);
  table.Latency("create p50 plain", Percentile(p.latencies_us, 0.5), "us", Percentile(p.latencies_us, 0.5), "plain p50", p.ok);
  table.Latency("create p50 HTTPS", Percentile(s.latencies_us, 0.5), "us", Percentile(p.latencies_us, 0.5), "plain p50", s.ok);
  server.Stop();
  table.Print();
  return FailureCount() == 0 ? 0 : 1;
}
