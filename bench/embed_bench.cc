// embed_bench: the embedding API's start-to-ready time in-process (kube_apiserver_lite::Server:
// Start() until it returns, i.e. every store open, RBAC bootstrap policy written, CRD controller
// running, listener bound), plain HTTP and TLS, and with the testdata operator preloaded
// (4 CRDs established and served plus their resources and the operator's deployment); and
// Stop(). Median and p90 of N rounds each. Run ./build/bench/embed_bench [rounds]; it exits
// non-zero when a start fails.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_util.h"
#include "kube_apiserver_lite/server.h"

namespace {

using kube::bench::Clock;

struct Figures {
  std::vector<double> start_ms, stop_ms;
  size_t loaded = 0;
};

Figures Measure(const kube_apiserver_lite::Options& options, int rounds) {
  Figures f;
  for (int i = 0; i < rounds; ++i) {
    kube_apiserver_lite::Server server(options);
    const auto t0 = Clock::now();
    const auto s = server.Start();
    const auto t1 = Clock::now();
    if (!kube::bench::Expect(s.ok(), "Start(): " + s.ToString())) return f;
    f.loaded = server.loaded_objects();
    server.Stop();
    const auto t2 = Clock::now();
    f.start_ms.push_back(kube::bench::MicrosBetween(t0, t1) / 1000);
    f.stop_ms.push_back(kube::bench::MicrosBetween(t1, t2) / 1000);
  }
  return f;
}

void Row(const char* name, const Figures& f) {
  std::printf("%-44s %8.1f %8.1f %8.1f %8zu\n", name, kube::bench::Median(f.start_ms),
              kube::bench::Percentile(f.start_ms, 0.9), kube::bench::Median(f.stop_ms), f.loaded);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 20;
  std::printf("embed_bench: in-process start-to-ready, %d rounds each (ms)\n", rounds);
  std::printf("%-44s %8s %8s %8s %8s\n", "configuration", "start p50", "p90", "stop p50", "objects");
  kube_apiserver_lite::Options plain;
  Row("plain HTTP, in memory", Measure(plain, rounds));
  kube_apiserver_lite::Options tls;
  tls.tls = true;
  Row("TLS (certificates generated), in memory", Measure(tls, rounds));
  kube_apiserver_lite::Options loaded;
  const std::string td = KUBE_TESTDATA_DIR;
  loaded.manifests = {td + "/crds", td + "/resources", td + "/operator", td + "/preload"};
  Row("plain HTTP + testdata operator preloaded", Measure(loaded, rounds));
  return kube::bench::FailureCount() == 0 ? 0 : 1;
}
