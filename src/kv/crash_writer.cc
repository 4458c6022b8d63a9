// kv_crash_writer DIR: opens a kv store in DIR and puts /crash/<n> = <n> for n = 0, 1, ... until
// killed, printing "<n> <revision>" after each write is acknowledged. Used by the crash test in
// store_test.cc, which kills it with SIGKILL and checks every acknowledged write survived.
#include <cstdio>

#include "kv/store.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  auto store = kube::kv::Store::Open(kube::kv::Options{.data_dir = argv[1]});
  if (!store.ok()) {
    std::fprintf(stderr, "open: %s\n", store.status().ToString().c_str());
    return 1;
  }
  for (long n = 0;; ++n) {
    auto rev = (*store)->Put("/crash/" + std::to_string(n), std::to_string(n));
    if (!rev.ok()) {
      std::fprintf(stderr, "put: %s\n", rev.status().ToString().c_str());
      return 1;
    }
    std::printf("%ld %ld\n", n, static_cast<long>(*rev));
    std::fflush(stdout);
  }
}
