// The HTTP side of the benchmarks that drive the real server binary (http_bench, crd_bench):
// keep-alive cpp-httplib clients, response checks, a parallel request load from N client threads,
// starting the server child until /readyz answers, finding the binary and a scratch directory. Header-only; each
// function is called from one thread unless its comment says otherwise (ParallelLoad runs its
// `request` and `check` callbacks on its worker threads, concurrently).
#pragma once

#include <httplib.h>
#include <stdlib.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <latch>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench_util.h"
#include "http_server_process.h"

namespace kube::bench {

using nlohmann::json;

// Where the server listens.
struct Endpoint { std::string host; int port = 0; };

// A keep-alive client with Nagle off, a 10 s connect timeout and the given read timeout.
inline std::unique_ptr<httplib::Client> MakeClient(const Endpoint& ep, time_t read_timeout_s = 30) {
  auto c = std::make_unique<httplib::Client>(ep.host, ep.port);
  c->set_tcp_nodelay(true);
  c->set_keep_alive(true);
  c->set_connection_timeout(10, 0);
  c->set_read_timeout(read_timeout_s, 0);
  return c;
}

// One line for a failed check: the transport error, or the status and the start of the body.
inline std::string Describe(const httplib::Result& r) {
  if (!r) return "request failed: " + httplib::to_string(r.error());
  return "HTTP " + std::to_string(r->status) + ": " + r->body.substr(0, 200);
}

// The JSON object in the body of `r` when it has status `want`, else a discarded (null) value.
inline json ParseBody(const httplib::Result& r, int want) {
  json body = r && r->status == want ? json::parse(r->body, nullptr, false) : json();
  return body.is_object() ? body : json(json::value_t::discarded);
}
// metadata.resourceVersion of a JSON object, "" when it has none.
inline std::string ResourceVersion(const json& obj) {
  const auto meta = obj.is_object() ? obj.find("metadata") : obj.end();
  return meta != obj.end() && meta->is_object() ? meta->value("resourceVersion", "") : "";
}

// "" when `r` has status `want` and a JSON body naming `name`, else what is wrong.
inline std::string CheckObject(const httplib::Result& r, int want, const std::string& name) {
  if (!r || r->status != want) return "want HTTP " + std::to_string(want) + ", got " + Describe(r);
  const json body = ParseBody(r, want);
  if (body.is_discarded()) return "response body is not a JSON object";
  const std::string got = ObjectName(body);
  return got == name ? "" : "response names \"" + got + "\", want \"" + name + "\"";
}

// --- parallel request load

struct LoadResult {
  std::vector<double> latencies_us;  // one per request
  double seconds = 0;                // wall time of the whole load
  int threads = 0;                   // clients that sent the load
  bool ok = true;
};

// Sends request(client, i) for every i in [begin, end) from `threads` threads, each with its own
// keep-alive client; times only the request, then runs check(i, result) -> "" or an error.
// The clients connect one at a time (a GET /readyz each) before the clock starts: the server's
// listen backlog of 5 turns a burst of connects into 1 s SYN retransmits and failed requests.
template <class Request, class Check>
LoadResult ParallelLoad(const Endpoint& ep, int threads, size_t begin, size_t end,
                        Request request, Check check) {
  std::vector<std::vector<double>> lat(static_cast<size_t>(threads));
  std::vector<std::string> errors(static_cast<size_t>(threads));
  std::vector<size_t> failures(static_cast<size_t>(threads), 0);
  std::vector<std::thread> workers;
  std::mutex connect_mu;
  std::latch connected(threads + 1);
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      const size_t ti = static_cast<size_t>(t);
      auto client = MakeClient(ep);
      bool up = false;
      {
        std::lock_guard lock(connect_mu);
        httplib::Result r = client->Get("/readyz");
        up = r && r->status == 200;
        if (!up) errors[ti] = "connect: GET /readyz: " + Describe(r);
      }
      connected.arrive_and_wait();
      for (size_t i = begin + ti; up && i < end; i += static_cast<size_t>(threads)) {
        const auto sent = Clock::now();
        httplib::Result r = request(*client, i);
        lat[ti].push_back(MicrosBetween(sent, Clock::now()));
        if (std::string e = check(i, r); !e.empty() && failures[ti]++ == 0) {
          errors[ti] = "request #" + std::to_string(i) + ": " + e;
        }
      }
    });
  }
  connected.arrive_and_wait();
  const auto start = Clock::now();
  for (auto& w : workers) w.join();
  LoadResult result;
  result.seconds = SecondsSince(start);
  result.threads = threads;
  for (size_t t = 0; t < lat.size(); ++t) {
    result.latencies_us.insert(result.latencies_us.end(), lat[t].begin(), lat[t].end());
    if (failures[t] > 0 || !errors[t].empty()) {
      result.ok = Fail(errors[t] + " (" + std::to_string(failures[t]) + " failures in thread " +
                       std::to_string(t) + ")");
    }
  }
  return result;
}

// Adds the throughput, p50 and p99 rows of a load that should have made `expected` requests;
// latencies in "us" or "ms".
inline void LoadRows(Table* table, const std::string& label, const LoadResult& r, size_t expected,
                     const std::string& latency_unit = "us") {
  const bool ok = Expect(r.ok && r.latencies_us.size() == expected, label + ": results missing");
  const double scale = latency_unit == "ms" ? 1e-3 : 1;
  table->Info(label + " throughput", static_cast<double>(r.latencies_us.size()) / r.seconds,
              "req/s", std::to_string(r.threads) + " keep-alive clients", ok);
  table->Info(label + " latency p50", Percentile(r.latencies_us, 0.5) * scale, latency_unit, "", ok);
  table->Info(label + " latency p99", Percentile(r.latencies_us, 0.99) * scale, latency_unit, "", ok);
}

// Spawns the server and polls GET /readyz every 1 ms until it answers 200; returns the time from
// spawn to that answer in ms, or -1 after a failed check.
inline double StartServer(ServerProcess* server, const std::string& binary, const std::string& kubeconfig) {
  std::filesystem::remove(kubeconfig);
  const auto start = Clock::now();
  if (std::string e = server->Start(binary, kubeconfig); !e.empty()) return Fail(e), -1;
  if (std::string e = server->WaitReady(std::chrono::seconds(30)); !e.empty()) return Fail(e), -1;
  auto client = MakeClient(Endpoint{server->host(), server->port()}, 5);
  for (;;) {
    httplib::Result r = client->Get("/readyz");
    if (r && r->status == 200) break;
    if (SecondsSince(start) > 30) return Fail("/readyz not 200 within 30 s: " + Describe(r)), -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  const double ms = MicrosBetween(start, Clock::now()) / 1e3;
  if (!Expect(std::filesystem::exists(kubeconfig), "no kubeconfig written to " + kubeconfig)) return -1;
  return ms;
}

// The server binary: argv[1], else ../kube-apiserver-lite relative to this binary's directory,
// else build/kube-apiserver-lite relative to the working directory.
inline std::string ServerBinary(int argc, char** argv) {
  if (argc > 1) return argv[1];
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  const auto sibling = ec ? std::filesystem::path() : self.parent_path().parent_path() / "kube-apiserver-lite";
  return !ec && ::access(sibling.c_str(), X_OK) == 0 ? sibling.string() : "build/kube-apiserver-lite";
}

// What a benchmark of the binary sets up before starting it: the binary (ServerBinary), and a
// scratch directory for the server's kubeconfig, removed with this object.
struct BenchSetup {
  std::string binary;
  std::string dir;
  std::string kubeconfig;  // dir + "/kubeconfig"
  BenchSetup() = default;
  BenchSetup(const BenchSetup&) = delete;
  BenchSetup& operator=(const BenchSetup&) = delete;
  ~BenchSetup() {
    if (!dir.empty()) std::filesystem::remove_all(dir);
  }
};

// Ignores SIGPIPE (a closed connection must fail the request, not the process), finds the binary
// and checks it is executable, and makes the scratch directory /tmp/<name>.XXXXXX. False after a
// failed check.
inline bool SetUpBench(int argc, char** argv, const std::string& name, BenchSetup* setup) {
  std::signal(SIGPIPE, SIG_IGN);
  setup->binary = ServerBinary(argc, argv);
  if (::access(setup->binary.c_str(), X_OK) != 0) {
    return Fail("server binary " + setup->binary + " is not executable; pass its path as argv[1]");
  }
  std::string dir_template = "/tmp/" + name + ".XXXXXX";
  if (::mkdtemp(dir_template.data()) == nullptr) return Fail("mkdtemp failed");
  setup->dir = dir_template;
  setup->kubeconfig = setup->dir + "/kubeconfig";
  return true;
}

}  // namespace kube::bench
